#!/bin/bash

__boxctl_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__boxctl_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__boxctl_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__boxctl_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_boxctl() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(-h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __boxctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    status|take|skip|snooze|undo|dose|log|checkin|history|med|supply|drink|presleep|insights|plan|report|export|forget|prune|support-bundle|watch|config|target|doctor|test|say-status|sim|help)
        # Offer subcommand argument completions
        "_boxctl_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'status take skip snooze undo dose log checkin history med supply drink presleep insights plan report export forget prune support-bundle watch config target doctor test say-status sim help' -- "${cur}"))
        ;;
    esac
}

_boxctl_status() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_take() {
    repeating_flags=()
    non_repeating_flags=(--confirm --json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_skip() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--reason --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--reason')
        __boxctl_add_completions -W 'drowsy'$'\n''side_effects'$'\n''other'
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_snooze() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_undo() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_dose() {
    repeating_flags=()
    non_repeating_flags=(-h --help)
    repeating_options=()
    non_repeating_options=()
    __boxctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    extra)
        # Offer subcommand argument completions
        "_boxctl_dose_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'extra' -- "${cur}"))
        ;;
    esac
}

_boxctl_dose_extra() {
    repeating_flags=()
    non_repeating_flags=(--confirm --json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_log() {
    repeating_flags=()
    non_repeating_flags=(--confirm --json -h --help)
    repeating_options=()
    non_repeating_options=(--note --socket --state-dir)
    __boxctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--note')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __boxctl_add_completions -W 'bathroom'$'\n''water'$'\n''snack'$'\n''in_bed'$'\n''lights_out'$'\n''wake_final'$'\n''wake_temp'$'\n''anxiety'$'\n''dream'$'\n''heart_racing'$'\n''noise'$'\n''temperature'$'\n''pain'$'\n''nap_start'$'\n''nap_end'
        return
        ;;
    esac
}

_boxctl_checkin() {
    repeating_flags=()
    non_repeating_flags=(--sleep-paralysis --hallucinations --automatic-behavior --fell-out-of-bed --confusion-on-waking --confirm --json -h --help)
    repeating_options=()
    non_repeating_options=(--quality --rested --grogginess --clarity --mood --notes --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--quality')
        return
        ;;
    '--rested')
        __boxctl_add_completions -W 'notAtAll'$'\n''slightly'$'\n''moderate'$'\n''well'$'\n''veryWell'
        return
        ;;
    '--grogginess')
        __boxctl_add_completions -W 'none'$'\n''mild'$'\n''moderate'$'\n''severe'$'\n''cantFunction'
        return
        ;;
    '--clarity')
        return
        ;;
    '--mood')
        __boxctl_add_completions -W 'veryLow'$'\n''low'$'\n''neutral'$'\n''good'$'\n''great'
        return
        ;;
    '--notes')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_history() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--days --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--days')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_med() {
    repeating_flags=()
    non_repeating_flags=(-h --help)
    repeating_options=()
    non_repeating_options=()
    __boxctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list)
        # Offer subcommand argument completions
        "_boxctl_med_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list' -- "${cur}"))
        ;;
    esac
}

_boxctl_med_add() {
    repeating_flags=()
    non_repeating_flags=(--confirm --json -h --help)
    repeating_options=()
    non_repeating_options=(--dose --unit --at --note --socket --state-dir)
    __boxctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--dose')
        return
        ;;
    '--unit')
        return
        ;;
    '--at')
        return
        ;;
    '--note')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_med_list() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--days --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--days')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_supply() {
    repeating_flags=()
    non_repeating_flags=(-h --help)
    repeating_options=()
    non_repeating_options=()
    __boxctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|refill|adjust)
        # Offer subcommand argument completions
        "_boxctl_supply_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show refill adjust' -- "${cur}"))
        ;;
    esac
}

_boxctl_supply_show() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--last --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--last')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_supply_refill() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--doses --note --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--doses')
        return
        ;;
    '--note')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_supply_adjust() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--doses --note --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--doses')
        return
        ;;
    '--note')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_drink() {
    repeating_flags=()
    non_repeating_flags=(-h --help)
    repeating_options=()
    non_repeating_options=()
    __boxctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|undo)
        # Offer subcommand argument completions
        "_boxctl_drink_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add undo' -- "${cur}"))
        ;;
    esac
}

_boxctl_drink_add() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--units --at --socket --state-dir)
    __boxctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--units')
        return
        ;;
    '--at')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_drink_undo() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_presleep() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--caffeine-cups --caffeine-cutoff --alcohol-drinks --exercise --exercise-minutes --stress --note --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--caffeine-cups')
        return
        ;;
    '--caffeine-cutoff')
        return
        ;;
    '--alcohol-drinks')
        return
        ;;
    '--exercise')
        return
        ;;
    '--exercise-minutes')
        return
        ;;
    '--stress')
        return
        ;;
    '--note')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_insights() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--days --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--days')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_plan() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_report() {
    repeating_flags=()
    non_repeating_flags=(--force --json -h --help)
    repeating_options=()
    non_repeating_options=(--out --days --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--out')
        return
        ;;
    '--days')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_export() {
    repeating_flags=()
    non_repeating_flags=(--force --json -h --help)
    repeating_options=()
    non_repeating_options=(--out --from --to --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--out')
        return
        ;;
    '--from')
        return
        ;;
    '--to')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_forget() {
    repeating_flags=()
    non_repeating_flags=(--confirm --json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_prune() {
    repeating_flags=()
    non_repeating_flags=(--confirm --json -h --help)
    repeating_options=()
    non_repeating_options=(--before --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--before')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_support-bundle() {
    repeating_flags=()
    non_repeating_flags=(--pack --force --json -h --help)
    repeating_options=()
    non_repeating_options=(--out --days --journal-lines --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--out')
        return
        ;;
    '--days')
        return
        ;;
    '--journal-lines')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_watch() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--after --socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--after')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_config() {
    repeating_flags=()
    non_repeating_flags=(-h --help)
    repeating_options=()
    non_repeating_options=()
    __boxctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show)
        # Offer subcommand argument completions
        "_boxctl_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show' -- "${cur}"))
        ;;
    esac
}

_boxctl_config_show() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_target() {
    repeating_flags=()
    non_repeating_flags=(--confirm --json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_doctor() {
    repeating_flags=()
    non_repeating_flags=(--play --json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_test() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--in --socket --state-dir)
    __boxctl_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--in')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_say-status() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_sim() {
    repeating_flags=()
    non_repeating_flags=(-h --help)
    repeating_options=()
    non_repeating_options=()
    __boxctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    press|double|edges|advance|clock-step|led|sounds|fault)
        # Offer subcommand argument completions
        "_boxctl_sim_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'press double edges advance clock-step led sounds fault' -- "${cur}"))
        ;;
    esac
}

_boxctl_sim_press() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--hold-ms --socket --state-dir)
    __boxctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--hold-ms')
        return
        ;;
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_sim_double() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_sim_edges() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_sim_advance() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_sim_clock-step() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_sim_led() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_sim_sounds() {
    repeating_flags=()
    non_repeating_flags=(--clear --json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_sim_fault() {
    repeating_flags=()
    non_repeating_flags=(--json -h --help)
    repeating_options=()
    non_repeating_options=(--socket --state-dir)
    __boxctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--state-dir')
        return
        ;;
    esac
}

_boxctl_help() {
    :
}

complete -o filenames -F _boxctl boxctl
