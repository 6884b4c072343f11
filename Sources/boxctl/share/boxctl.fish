function __boxctl_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __boxctl_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __boxctl_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __boxctl_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __boxctl_parse_tokens -S
    set -l unparsed_tokens (__boxctl_tokens -pc)
    switch $unparsed_tokens[1]
    case 'boxctl'
        __boxctl_parse_subcommand 0 'h/help'
        switch $unparsed_tokens[1]
        case 'status'
            __boxctl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'h/help'
        case 'take'
            __boxctl_parse_subcommand 0 'confirm' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'skip'
            __boxctl_parse_subcommand 0 'reason=' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'snooze'
            __boxctl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'h/help'
        case 'undo'
            __boxctl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'h/help'
        case 'dose'
            __boxctl_parse_subcommand 0 'h/help'
            switch $unparsed_tokens[1]
            case 'extra'
                __boxctl_parse_subcommand 0 'confirm' 'socket=' 'state-dir=' 'json' 'h/help'
            end
        case 'log'
            __boxctl_parse_subcommand 1 'note=' 'confirm' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'checkin'
            __boxctl_parse_subcommand 0 'quality=' 'rested=' 'grogginess=' 'clarity=' 'mood=' 'notes=' 'sleep-paralysis' 'hallucinations' 'automatic-behavior' 'fell-out-of-bed' 'confusion-on-waking' 'confirm' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'history'
            __boxctl_parse_subcommand 0 'days=' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'med'
            __boxctl_parse_subcommand 0 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __boxctl_parse_subcommand 1 'dose=' 'unit=' 'at=' 'note=' 'confirm' 'socket=' 'state-dir=' 'json' 'h/help'
            case 'list'
                __boxctl_parse_subcommand 0 'days=' 'socket=' 'state-dir=' 'json' 'h/help'
            end
        case 'supply'
            __boxctl_parse_subcommand 0 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __boxctl_parse_subcommand 0 'last=' 'socket=' 'state-dir=' 'json' 'h/help'
            case 'refill'
                __boxctl_parse_subcommand 0 'doses=' 'note=' 'socket=' 'state-dir=' 'json' 'h/help'
            case 'adjust'
                __boxctl_parse_subcommand 0 'doses=' 'note=' 'socket=' 'state-dir=' 'json' 'h/help'
            end
        case 'drink'
            __boxctl_parse_subcommand 0 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __boxctl_parse_subcommand 1 'units=' 'at=' 'socket=' 'state-dir=' 'json' 'h/help'
            case 'undo'
                __boxctl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'h/help'
            end
        case 'presleep'
            __boxctl_parse_subcommand 0 'caffeine-cups=' 'caffeine-cutoff=' 'alcohol-drinks=' 'exercise=' 'exercise-minutes=' 'stress=' 'note=' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'insights'
            __boxctl_parse_subcommand 0 'days=' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'plan'
            __boxctl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'h/help'
        case 'report'
            __boxctl_parse_subcommand 0 'out=' 'days=' 'force' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'export'
            __boxctl_parse_subcommand 0 'out=' 'from=' 'to=' 'force' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'forget'
            __boxctl_parse_subcommand 1 'confirm' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'prune'
            __boxctl_parse_subcommand 0 'before=' 'confirm' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'support-bundle'
            __boxctl_parse_subcommand 0 'out=' 'days=' 'journal-lines=' 'pack' 'force' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'watch'
            __boxctl_parse_subcommand 0 'after=' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'config'
            __boxctl_parse_subcommand 0 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __boxctl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'h/help'
            end
        case 'target'
            __boxctl_parse_subcommand 1 'confirm' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'doctor'
            __boxctl_parse_subcommand 0 'play' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'test'
            __boxctl_parse_subcommand 2 'in=' 'socket=' 'state-dir=' 'json' 'h/help'
        case 'say-status'
            __boxctl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'h/help'
        case 'sim'
            __boxctl_parse_subcommand 0 'h/help'
            switch $unparsed_tokens[1]
            case 'press'
                __boxctl_parse_subcommand -r 1 'hold-ms=' 'socket=' 'state-dir=' 'json' 'h/help'
            case 'double'
                __boxctl_parse_subcommand -r 1 'socket=' 'state-dir=' 'json' 'h/help'
            case 'edges'
                __boxctl_parse_subcommand -r 1 'socket=' 'state-dir=' 'json' 'h/help'
            case 'advance'
                __boxctl_parse_subcommand -r 1 'socket=' 'state-dir=' 'json' 'h/help'
            case 'clock-step'
                __boxctl_parse_subcommand -r 1 'socket=' 'state-dir=' 'json' 'h/help'
            case 'led'
                __boxctl_parse_subcommand -r 1 'socket=' 'state-dir=' 'json' 'h/help'
            case 'sounds'
                __boxctl_parse_subcommand -r 1 'clear' 'socket=' 'state-dir=' 'json' 'h/help'
            case 'fault'
                __boxctl_parse_subcommand -r 1 'socket=' 'state-dir=' 'json' 'h/help'
            end
        case 'help'
            __boxctl_parse_subcommand -r 1 
        end
    end
end

function __boxctl_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __boxctl_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __boxctl_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __boxctl_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__boxctl_tokens -p)
    if test -z "$(__boxctl_tokens -t)"
        set -l index (count (__boxctl_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'boxctl' -f
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'status' -d 'Where the night stands: phase, doses, window, next alarm, LED, health.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'take' -d 'Take the next dose (Dose 1, or Dose 2 in the window). Early or late needs --confirm.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'skip' -d 'Skip Dose 2 tonight (possible once the window is open).'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'snooze' -d 'Snooze the wake alarm by 10 minutes (at most 3 a night).'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'undo' -d 'Undo the last dose action within the undo window.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'dose' -d 'Dose records that no button can make.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'log' -d 'Log a sleep event.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'checkin' -d 'The morning check-in (quick mode). It closes the night.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'history' -d 'One line per night: Dose 1, Dose 2, interval, on time, how it ended.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'med' -d 'The medication log: Adderall IR and XR beside XYWAV.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'supply' -d 'The supply of XYWAV in doses: what is left, refills, corrections.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'drink' -d 'The evening\'s drinks: log one, take the last one back.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'presleep' -d 'Tonight\'s pre-sleep log: caffeine, alcohol, exercise, stress.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'insights' -d 'On-time %, Dose 1 to Dose 2 intervals, natural wakes and night wakings over the last nights.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'plan' -d 'The weekly planner: next week\'s suggested target from the last 7 nights.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'report' -d 'Write one HTML page for the sleep specialist: the nights\' intervals against the window, the figures beside them.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'export' -d 'Write the night log as CSV files: the seeds\' (events, sessions, sleep events, check-ins, analytics) and the box\'s own (box-*.csv).'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'forget' -d 'Delete one night\'s records (doses, sleep events, check-in, medications). Needs --confirm.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'prune' -d 'Delete every night before a date. Needs --confirm.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'support-bundle' -d 'Gather what support needs, with personal details taken out, for you to review before sending.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'watch' -d 'Follow the night live: a line per event as boxd records it (Ctrl-C stops).'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'config' -d 'The active configuration.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'target' -d 'Set the target interval for Dose 2 (165, 180, 195, 210, 225 minutes). Needs --confirm.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'doctor' -d 'Check buttons, audio, the night log, time sync and the socket; one pass/fail line each.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'test' -d 'Show an LED pattern, play a sound or hear the voice, for setting up hardware.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'say-status' -d 'Say the status aloud through the box\'s speaker, as a hold on the button does.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'sim' -d 'Drive a simulated box (boxd --hardware sim --clock sim:…).'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl status" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl status" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl status" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl take" confirm' -l 'confirm' -d 'Confirm an early (before 150 min) or late (after 240 min) Dose 2.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl take" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl take" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl take" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl take" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl skip" reason' -l 'reason' -d 'drowsy, side_effects or other.' -rfka 'drowsy side_effects other'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl skip" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl skip" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl skip" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl skip" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl snooze" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl snooze" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl snooze" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl snooze" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl undo" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl undo" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl undo" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl undo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl dose" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl dose" -eq 1' -fa 'extra' -d 'Record an extra dose after Dose 2. Needs --confirm.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl dose extra" confirm' -l 'confirm' -d 'Confirm that an extra dose was really taken.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl dose extra" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl dose extra" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl dose extra" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl dose extra" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl log" -eq 1' -fka 'bathroom water snack in_bed lights_out wake_final wake_temp anxiety dream heart_racing noise temperature pain nap_start nap_end'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl log" note' -l 'note' -d 'A note.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl log" confirm' -l 'confirm' -d 'wake_final while Dose 2 is still owed: end the night and record Dose 2 as skipped.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl log" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl log" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl log" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl log" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" quality' -l 'quality' -d 'Sleep quality, 1 to 5.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" rested' -l 'rested' -d 'notAtAll, slightly, moderate, well or veryWell.' -rfka 'notAtAll slightly moderate well veryWell'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" grogginess' -l 'grogginess' -d 'none, mild, moderate, severe or cantFunction.' -rfka 'none mild moderate severe cantFunction'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" clarity' -l 'clarity' -d 'Mental clarity, 1 to 10.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" mood' -l 'mood' -d 'veryLow, low, neutral, good or great.' -rfka 'veryLow low neutral good great'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" notes' -l 'notes' -d 'Notes.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" sleep-paralysis' -l 'sleep-paralysis' -d 'Sleep paralysis: could not move on waking.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" hallucinations' -l 'hallucinations' -d 'Hallucinations on falling asleep or waking.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" automatic-behavior' -l 'automatic-behavior' -d 'Automatic behaviour: did things without awareness.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" fell-out-of-bed' -l 'fell-out-of-bed' -d 'Fell out of bed.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" confusion-on-waking' -l 'confusion-on-waking' -d 'Confusion on waking.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" confirm' -l 'confirm' -d 'Check in while Dose 2 is still owed: end the night and record Dose 2 as skipped.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl checkin" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl history" days' -l 'days' -d 'How many nights.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl history" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl history" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl history" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl history" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl med" -eq 1' -fa 'add' -d 'Log a medication taken.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl med" -eq 1' -fa 'list' -d 'The medications logged over the last nights.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" dose' -l 'dose' -d 'The dose, e.g. 10 or 7.5 (1.25 to 60 mg for Adderall).' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" unit' -l 'unit' -d 'One of: mg, mcg, g.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" at' -l 'at' -d 'When it was taken: HH:MM (the last such time, in the box\'s zone) or an ISO 8601 time. Default: now.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" note' -l 'note' -d 'A note.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" confirm' -l 'confirm' -d 'Log it even though the same medication was logged less than 5 minutes from it.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med list" days' -l 'days' -d 'How many nights back, tonight included.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med list" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med list" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med list" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl med list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl supply" -eq 1' -fa 'show' -d 'The count and the latest refills, corrections and reminders.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl supply" -eq 1' -fa 'refill' -d 'Log a refill: the doses it adds.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl supply" -eq 1' -fa 'adjust' -d 'Correct the count: doses up or down (-2 for two spilled).'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply show" last' -l 'last' -d 'How many of the latest entries.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply show" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply show" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply show" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply refill" doses' -l 'doses' -d 'Doses added (1 to 1000).' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply refill" note' -l 'note' -d 'A note.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply refill" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply refill" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply refill" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply refill" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply adjust" doses' -l 'doses' -d 'The correction, e.g. -2 or 4.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply adjust" note' -l 'note' -d 'Why.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply adjust" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply adjust" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply adjust" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl supply adjust" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl drink" -eq 1' -fa 'add' -d 'Log a drink.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl drink" -eq 1' -fa 'undo' -d 'Take back the evening\'s last drink logged.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink add" units' -l 'units' -d 'Standard units, if not the type\'s (0 to 10).' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink add" at' -l 'at' -d 'When it was drunk: HH:MM (the last such time, in the box\'s zone) or an ISO 8601 time. Default: now.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink add" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink add" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink add" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink undo" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink undo" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink undo" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl drink undo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" caffeine-cups' -l 'caffeine-cups' -d 'Cups of caffeine today (0 to 20).' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" caffeine-cutoff' -l 'caffeine-cutoff' -d 'When the last caffeine was: HH:MM (the last such time, in the box\'s zone) or an ISO 8601 time.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" alcohol-drinks' -l 'alcohol-drinks' -d 'Alcoholic drinks today (0 to 30).' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" exercise' -l 'exercise' -d 'Exercise today: none, light, moderate, intense.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" exercise-minutes' -l 'exercise-minutes' -d 'Minutes of exercise (0 to 600).' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" stress' -l 'stress' -d 'Stress today, 1 (calm) to 10.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" note' -l 'note' -d 'A note.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl presleep" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl insights" days' -l 'days' -d 'How many nights back, tonight included.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl insights" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl insights" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl insights" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl insights" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl plan" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl plan" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl plan" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl plan" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl report" out' -l 'out' -d 'The HTML file to write.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl report" days' -l 'days' -d 'How many nights back, tonight included.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl report" force' -l 'force' -d 'Replace --out if it exists.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl report" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl report" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl report" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl report" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl export" out' -l 'out' -d 'Directory to write into (created if missing).' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl export" from' -l 'from' -d 'First session date, YYYY-MM-DD.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl export" to' -l 'to' -d 'Last session date, YYYY-MM-DD.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl export" force' -l 'force' -d 'Replace CSV files already in --out.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl export" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl export" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl export" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl forget" confirm' -l 'confirm' -d 'Delete it.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl forget" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl forget" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl forget" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl forget" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl prune" before' -l 'before' -d 'Keep this night and every later one, YYYY-MM-DD.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl prune" confirm' -l 'confirm' -d 'Delete them.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl prune" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl prune" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl prune" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl prune" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" out' -l 'out' -d 'The directory to write the bundle into (and, with --pack, the one to pack).' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" days' -l 'days' -d 'How many nights of events.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" journal-lines' -l 'journal-lines' -d 'How many of boxd\'s latest journal lines.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" pack' -l 'pack' -d 'Pack the reviewed directory into DIR.tar.gz.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" force' -l 'force' -d 'Replace --out if it exists.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl support-bundle" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl watch" after' -l 'after' -d 'Show every event after this id first (0: the whole log). Default: only what happens from now.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl watch" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl watch" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl watch" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl watch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl config" -eq 1' -fa 'show' -d 'Every value and where it came from.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl config show" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl config show" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl config show" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl config show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl target" confirm' -l 'confirm' -d 'Confirm the change.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl target" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl target" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl target" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl target" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl doctor" play' -l 'play' -d 'Also play a short tone.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl doctor" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl doctor" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl doctor" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl test" in' -l 'in' -d 'Sound only: play after this delay (2s) on the alarm timer and report the onset error.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl test" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl test" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl test" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl say-status" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl say-status" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl say-status" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl say-status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl sim" -eq 1' -fa 'press' -d 'One clean press; the sim clock moves through it until its gesture is resolved.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl sim" -eq 1' -fa 'double' -d 'A double press.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl sim" -eq 1' -fa 'edges' -d 'Raw edges at millisecond offsets, e.g. "0:down,12:up,15:down,140:up".'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl sim" -eq 1' -fa 'advance' -d 'Move the sim clock (150m, 30s, 1h5m); every timer due on the way fires in order.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl sim" -eq 1' -fa 'clock-step' -d 'Step the wall clock only, as NTP does (-1h, +1d). Elapsed time does not change.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl sim" -eq 1' -fa 'led' -d 'The LED\'s colour and pattern now.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl sim" -eq 1' -fa 'sounds' -d 'The sounds played and sentences said so far: offset, name, level or words.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_positional "boxctl sim" -eq 1' -fa 'fault' -d 'Simulate a fault: log-readonly, audio-fail, audio-ok.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim press" hold-ms' -l 'hold-ms' -d 'How long the button is held.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim press" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim press" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim press" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim press" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim double" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim double" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim double" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim double" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim edges" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim edges" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim edges" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim edges" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim advance" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim advance" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim advance" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim advance" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim clock-step" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim clock-step" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim clock-step" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim clock-step" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim led" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim led" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim led" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim led" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim sounds" clear' -l 'clear' -d 'Clear the list after printing it.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim sounds" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim sounds" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim sounds" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim sounds" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim fault" socket' -l 'socket' -d 'boxd\'s control socket.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim fault" state-dir' -l 'state-dir' -d 'boxd\'s state directory, read directly (history, export, status while boxd is down). Default: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.' -rfka ''
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim fault" json' -l 'json' -d 'Print boxd\'s reply as JSON.'
complete -c 'boxctl' -n '__boxctl_should_offer_completions_for_flags_or_options "boxctl sim fault" h help' -s 'h' -l 'help' -d 'Show help information.'
