#compdef boxctl

__boxctl_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__boxctl_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __boxctl_complete "${completions[@]:0:-1}"
    fi
}

__boxctl_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_boxctl() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'status:Where the night stands: phase, doses, window, next alarm, LED, health.'
            'take:Take the next dose (Dose 1, or Dose 2 in the window). Early or late needs --confirm.'
            'skip:Skip Dose 2 tonight (possible once the window is open).'
            'snooze:Snooze the wake alarm by 10 minutes (at most 3 a night).'
            'undo:Undo the last dose action within the undo window.'
            'dose:Dose records that no button can make.'
            'log:Log a sleep event.'
            'checkin:The morning check-in (quick mode). It closes the night.'
            'history:One line per night: Dose 1, Dose 2, interval, on time, how it ended.'
            'med:The medication log: Adderall IR and XR beside XYWAV.'
            'supply:The supply of XYWAV in doses: what is left, refills, corrections.'
            'drink:The evening'\''s drinks: log one, take the last one back.'
            'presleep:Tonight'\''s pre-sleep log: caffeine, alcohol, exercise, stress.'
            'insights:On-time %, Dose 1 to Dose 2 intervals, natural wakes and night wakings over the last nights.'
            'plan:The weekly planner: next week'\''s suggested target from the last 7 nights.'
            'report:Write one HTML page for the sleep specialist: the nights'\'' intervals against the window, the figures beside them.'
            'export:Write the night log as CSV files: the seeds'\'' (events, sessions, sleep events, check-ins, analytics) and the box'\''s own (box-*.csv).'
            'forget:Delete one night'\''s records (doses, sleep events, check-in, medications). Needs --confirm.'
            'prune:Delete every night before a date. Needs --confirm.'
            'support-bundle:Gather what support needs, with personal details taken out, for you to review before sending.'
            'watch:Follow the night live: a line per event as boxd records it (Ctrl-C stops).'
            'config:The active configuration.'
            'target:Set the target interval for Dose 2 (165, 180, 195, 210, 225 minutes). Needs --confirm.'
            'doctor:Check buttons, audio, the night log, time sync and the socket; one pass/fail line each.'
            'test:Show an LED pattern, play a sound or hear the voice, for setting up hardware.'
            'say-status:Say the status aloud through the box'\''s speaker, as a hold on the button does.'
            'sim:Drive a simulated box (boxd --hardware sim --clock sim:…).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        status|take|skip|snooze|undo|dose|log|checkin|history|med|supply|drink|presleep|insights|plan|report|export|forget|prune|support-bundle|watch|config|target|doctor|test|say-status|sim|help)
            "_boxctl_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_boxctl_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_take() {
    local -i ret=1
    local -ar arg_specs=(
        '--confirm[Confirm an early (before 150 min) or late (after 240 min) Dose 2.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_skip() {
    local -i ret=1
    local -ar ___reason=('drowsy' 'side_effects' 'other')
    local -ar arg_specs=(
        '--reason[drowsy, side_effects or other.]:reason:{__boxctl_complete "${___reason[@]}"}'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_snooze() {
    local -i ret=1
    local -ar arg_specs=(
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_undo() {
    local -i ret=1
    local -ar arg_specs=(
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_dose() {
    local -i ret=1
    local -ar arg_specs=(
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'extra:Record an extra dose after Dose 2. Needs --confirm.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        extra)
            "_boxctl_dose_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_boxctl_dose_extra() {
    local -i ret=1
    local -ar arg_specs=(
        '--confirm[Confirm that an extra dose was really taken.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_log() {
    local -i ret=1
    local -ar _event=('bathroom' 'water' 'snack' 'in_bed' 'lights_out' 'wake_final' 'wake_temp' 'anxiety' 'dream' 'heart_racing' 'noise' 'temperature' 'pain' 'nap_start' 'nap_end')
    local -ar arg_specs=(
        ':event:{__boxctl_complete "${_event[@]}"}'
        '--note[A note.]:note:'
        '--confirm[wake_final while Dose 2 is still owed\: end the night and record Dose 2 as skipped.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_checkin() {
    local -i ret=1
    local -ar ___rested=('notAtAll' 'slightly' 'moderate' 'well' 'veryWell')
    local -ar ___grogginess=('none' 'mild' 'moderate' 'severe' 'cantFunction')
    local -ar ___mood=('veryLow' 'low' 'neutral' 'good' 'great')
    local -ar arg_specs=(
        '--quality[Sleep quality, 1 to 5.]:quality:'
        '--rested[notAtAll, slightly, moderate, well or veryWell.]:rested:{__boxctl_complete "${___rested[@]}"}'
        '--grogginess[none, mild, moderate, severe or cantFunction.]:grogginess:{__boxctl_complete "${___grogginess[@]}"}'
        '--clarity[Mental clarity, 1 to 10.]:clarity:'
        '--mood[veryLow, low, neutral, good or great.]:mood:{__boxctl_complete "${___mood[@]}"}'
        '--notes[Notes.]:notes:'
        '--sleep-paralysis[Sleep paralysis\: could not move on waking.]'
        '--hallucinations[Hallucinations on falling asleep or waking.]'
        '--automatic-behavior[Automatic behaviour\: did things without awareness.]'
        '--fell-out-of-bed[Fell out of bed.]'
        '--confusion-on-waking[Confusion on waking.]'
        '--confirm[Check in while Dose 2 is still owed\: end the night and record Dose 2 as skipped.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_history() {
    local -i ret=1
    local -ar arg_specs=(
        '--days[How many nights.]:days:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_med() {
    local -i ret=1
    local -ar arg_specs=(
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Log a medication taken.'
            'list:The medications logged over the last nights.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list)
            "_boxctl_med_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_boxctl_med_add() {
    local -i ret=1
    local -ar arg_specs=(
        ':medication:'
        '--dose[The dose, e.g. 10 or 7.5 (1.25 to 60 mg for Adderall).]:dose:'
        '--unit[One of\: mg, mcg, g.]:unit:'
        '--at[When it was taken\: HH\:MM (the last such time, in the box'\''s zone) or an ISO 8601 time. Default\: now.]:at:'
        '--note[A note.]:note:'
        '--confirm[Log it even though the same medication was logged less than 5 minutes from it.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_med_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--days[How many nights back, tonight included.]:days:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_supply() {
    local -i ret=1
    local -ar arg_specs=(
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'show:The count and the latest refills, corrections and reminders.'
            'refill:Log a refill: the doses it adds.'
            'adjust:Correct the count: doses up or down (-2 for two spilled).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        show|refill|adjust)
            "_boxctl_supply_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_boxctl_supply_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--last[How many of the latest entries.]:last:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_supply_refill() {
    local -i ret=1
    local -ar arg_specs=(
        '--doses[Doses added (1 to 1000).]:doses:'
        '--note[A note.]:note:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_supply_adjust() {
    local -i ret=1
    local -ar arg_specs=(
        '--doses[The correction, e.g. -2 or 4.]:doses:'
        '--note[Why.]:note:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_drink() {
    local -i ret=1
    local -ar arg_specs=(
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Log a drink.'
            'undo:Take back the evening'\''s last drink logged.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|undo)
            "_boxctl_drink_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_boxctl_drink_add() {
    local -i ret=1
    local -ar arg_specs=(
        ':type:'
        '--units[Standard units, if not the type'\''s (0 to 10).]:units:'
        '--at[When it was drunk\: HH\:MM (the last such time, in the box'\''s zone) or an ISO 8601 time. Default\: now.]:at:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_drink_undo() {
    local -i ret=1
    local -ar arg_specs=(
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_presleep() {
    local -i ret=1
    local -ar arg_specs=(
        '--caffeine-cups[Cups of caffeine today (0 to 20).]:caffeine-cups:'
        '--caffeine-cutoff[When the last caffeine was\: HH\:MM (the last such time, in the box'\''s zone) or an ISO 8601 time.]:caffeine-cutoff:'
        '--alcohol-drinks[Alcoholic drinks today (0 to 30).]:alcohol-drinks:'
        '--exercise[Exercise today\: none, light, moderate, intense.]:exercise:'
        '--exercise-minutes[Minutes of exercise (0 to 600).]:exercise-minutes:'
        '--stress[Stress today, 1 (calm) to 10.]:stress:'
        '--note[A note.]:note:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_insights() {
    local -i ret=1
    local -ar arg_specs=(
        '--days[How many nights back, tonight included.]:days:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_plan() {
    local -i ret=1
    local -ar arg_specs=(
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_report() {
    local -i ret=1
    local -ar arg_specs=(
        '--out[The HTML file to write.]:out:'
        '--days[How many nights back, tonight included.]:days:'
        '--force[Replace --out if it exists.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_export() {
    local -i ret=1
    local -ar arg_specs=(
        '--out[Directory to write into (created if missing).]:out:'
        '--from[First session date, YYYY-MM-DD.]:from:'
        '--to[Last session date, YYYY-MM-DD.]:to:'
        '--force[Replace CSV files already in --out.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_forget() {
    local -i ret=1
    local -ar arg_specs=(
        ':night:'
        '--confirm[Delete it.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_prune() {
    local -i ret=1
    local -ar arg_specs=(
        '--before[Keep this night and every later one, YYYY-MM-DD.]:before:'
        '--confirm[Delete them.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_support-bundle() {
    local -i ret=1
    local -ar arg_specs=(
        '--out[The directory to write the bundle into (and, with --pack, the one to pack).]:out:'
        '--days[How many nights of events.]:days:'
        '--journal-lines[How many of boxd'\''s latest journal lines.]:journal-lines:'
        '--pack[Pack the reviewed directory into DIR.tar.gz.]'
        '--force[Replace --out if it exists.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_watch() {
    local -i ret=1
    local -ar arg_specs=(
        '--after[Show every event after this id first (0\: the whole log). Default\: only what happens from now.]:after:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_config() {
    local -i ret=1
    local -ar arg_specs=(
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'show:Every value and where it came from.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        show)
            "_boxctl_config_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_boxctl_config_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_target() {
    local -i ret=1
    local -ar arg_specs=(
        ':minutes:'
        '--confirm[Confirm the change.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_doctor() {
    local -i ret=1
    local -ar arg_specs=(
        '--play[Also play a short tone.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_test() {
    local -i ret=1
    local -ar arg_specs=(
        ':what:'
        ':name:'
        '--in[Sound only\: play after this delay (2s) on the alarm timer and report the onset error.]:in:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_say-status() {
    local -i ret=1
    local -ar arg_specs=(
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_sim() {
    local -i ret=1
    local -ar arg_specs=(
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'press:One clean press; the sim clock moves through it until its gesture is resolved.'
            'double:A double press.'
            'edges:Raw edges at millisecond offsets, e.g. "0:down,12:up,15:down,140:up".'
            'advance:Move the sim clock (150m, 30s, 1h5m); every timer due on the way fires in order.'
            'clock-step:Step the wall clock only, as NTP does (-1h, +1d). Elapsed time does not change.'
            'led:The LED'\''s colour and pattern now.'
            'sounds:The sounds played and sentences said so far: offset, name, level or words.'
            'fault:Simulate a fault: log-readonly, audio-fail, audio-ok.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        press|double|edges|advance|clock-step|led|sounds|fault)
            "_boxctl_sim_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_boxctl_sim_press() {
    local -i ret=1
    local -ar arg_specs=(
        '*:button:'
        '--hold-ms[How long the button is held.]:hold-ms:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_sim_double() {
    local -i ret=1
    local -ar arg_specs=(
        '*:button:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_sim_edges() {
    local -i ret=1
    local -ar arg_specs=(
        '*:button edges:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_sim_advance() {
    local -i ret=1
    local -ar arg_specs=(
        '*:duration:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_sim_clock-step() {
    local -i ret=1
    local -ar arg_specs=(
        '*:step:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_sim_led() {
    local -i ret=1
    local -ar arg_specs=(
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_sim_sounds() {
    local -i ret=1
    local -ar arg_specs=(
        '--clear[Clear the list after printing it.]'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_sim_fault() {
    local -i ret=1
    local -ar arg_specs=(
        '*:name:'
        '--socket[boxd'\''s control socket.]:socket:'
        '--state-dir[boxd'\''s state directory, read directly (history, export, status while boxd is down). Default\: $BOXCTL_STATE_DIR, else the one the boxd behind --socket reports, else /var/lib/boxd.]:state-dir:'
        '--json[Print boxd'\''s reply as JSON.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_boxctl_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _boxctl ]]; then
    _boxctl "${@}"
else
    compdef _boxctl boxctl
fi
