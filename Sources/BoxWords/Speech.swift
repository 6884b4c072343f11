import DoseCore
import Foundation

/// What the box says (#15, SSOT 2.4.3 "Accessibility": VoiceOver announcements at window
/// open, −30, −15, −5, −1 and close; state changes such as "Dose 1 taken at 10:30 PM";
/// warnings such as "Dose window closing in 5 minutes"). Every sentence is made here, from
/// the state and the time, so they can be read and tested as strings. The reducer decides when
/// and about what (`Effect.speak(Utterance)`, after the sound); the shell synthesises them
/// (espeak-ng) and plays them through the tones' player.
public enum Speech {
    /// What the voice says for what the core asked it to say.
    public static func words(_ utterance: Utterance) -> String {
        switch utterance {
        case .accepted(let a, let state, let now): answer(a, state: state, at: now)
        case .refused(let r, let state): refusal(r, in: state.settings.timeZone, style: state.settings.voice.clock)
        case .alert(let kind, let elapsed, let rules): alert(kind, elapsed: elapsed, rules: rules)
        case .fault(let f): fault(f)
        case .pacing(let r): r.message
        }
    }

    /// A time of day as it is said, in the patient's zone.
    public static func time(_ date: Date, in zone: TimeZone, _ style: ClockStyle) -> String {
        let c = SessionRules.calendar(zone).dateComponents([.hour, .minute], from: date)
        return time(ClockTime(hour: c.hour ?? 0, minute: c.minute ?? 0), style)
    }

    /// A time of day as it is said: "7:00 AM" or "07:00".
    public static func time(_ t: ClockTime, _ style: ClockStyle) -> String {
        let h = t.hour, m = t.minute
        switch style {
        case .twentyFourHour: return String(format: "%02d:%02d", h, m)
        case .twelveHour: return String(format: "%d:%02d %@", h % 12 == 0 ? 12 : h % 12, m, h < 12 ? "AM" : "PM")
        }
    }

    /// A duration as it is said, in whole minutes rounded down: "1 hour 12 minutes",
    /// "41 minutes", "1 minute", "less than a minute".
    public static func duration(_ d: Duration) -> String {
        let minutes = Int(max(0, d.seconds) / 60)
        guard minutes > 0 else { return "less than a minute" }
        let h = minutes / 60, m = minutes % 60
        func unit(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        if h == 0 { return unit(m, "minute") }
        return m == 0 ? unit(h, "hour") : "\(unit(h, "hour")) \(unit(m, "minute"))"
    }

    /// The status a hold speaks when no alarm rings and there is nothing to undo.
    public static func status(_ state: BoxState, at now: Moment, style: ClockStyle) -> String {
        let zone = state.settings.timeZone
        let night = state.night
        func at(_ m: Moment) -> String { time(now.wall.addingTimeInterval(-now.elapsed(since: m).seconds), in: zone, style) }
        if state.doubt != nil { return "I could not read tonight's record. If you took a dose tonight, do not take more." }
        switch state.phase(at: now) {
        case .noDose1:
            return "No dose yet tonight. Press once to take Dose 1."
        case .completed:
            if let d2 = night.dose2 { return "Dose 2 taken at \(at(d2.at)). Good night." }
            if night.skip != nil { return "Dose 2 skipped tonight. Good night." }
            return "Tonight is done. Good night."
        case .finalizing:
            // Before the wake time a hold is this status; from it, the hold asks the check-in.
            return "Good morning. From \(time(state.settings.rules.session.wakeTime, style)), hold the button to check in."
        case .beforeWindow, .active, .nearClose, .closed:
            guard let d1 = night.dose1, let elapsed = state.elapsedSinceDose1(at: now) else { return "No dose yet tonight." }
            let window = state.settings.window
            let opens = now.wall.addingTimeInterval((window.opensAfter - elapsed).seconds)
            let first = "Dose 1 at \(at(d1.at))."
            switch state.phase(at: now) {
            case .beforeWindow:
                return "\(first) Dose 2 from \(time(opens, in: zone, style)), in \(duration(window.opensAfter - elapsed))."
            case .closed:
                return "\(first) The Dose 2 window has closed. Do not take Dose 2 without confirming."
            default:
                // The snoozes left, where a double press could still use one (#32).
                let left = state.snoozesRemaining
                let snoozes = state.snoozeRefusal(at: now) != nil ? "" : " \(left) snooze\(left == 1 ? "" : "s") left."
                return "\(first) Window open. Take Dose 2 now; \(duration(window.remaining(elapsed: elapsed))) left.\(snoozes)"
            }
        }
    }

    /// A dose just recorded, said after its chime.
    public static func recorded(_ type: DoseEventType, at date: Date, in zone: TimeZone, style: ClockStyle) -> String {
        let t = time(date, in: zone, style)
        switch type {
        case .dose1: return "Dose 1 taken at \(t)."
        case .dose2: return "Dose 2 taken at \(t). Good night."
        case .extraDose: return "Extra dose recorded at \(t). Do not take more tonight."
        case .dose2Skipped: return "Dose 2 skipped. Good night."
        case .snooze: return "Snoozed for \(DoseConstants.number(DoseConstants.box.snooze.stepMin)) minutes."
        }
    }

    /// `boxctl test voice`: a sentence that proves the voice works, and nothing else.
    public static let voiceTest = "This is your dose box. The voice is working."

    /// What a button just did, said after its sound.
    static func answer(_ a: Acceptance, state: BoxState, at now: Moment) -> String {
        let zone = state.settings.timeZone, style = state.settings.voice.clock
        let hold = holdToConfirm(state.settings.rules).capitalizedFirst
        switch a {
        case .recorded(.dose1):
            var said = recorded(.dose1, at: now.wall, in: zone, style: style)
            if let supply = state.supply, supply.refillDue {
                let left = max(0, supply.remainingDoses - 1)
                said += " Time to refill: \(left) dose\(left == 1 ? "" : "s") left."
            }
            return state.settings.voice.stayInBed ? "\(said) \(stayInBedAfterDose1)" : said
        case .recorded(.dose2), .recordedEarly:
            let said = recorded(.dose2, at: now.wall, in: zone, style: style)
            return state.settings.voice.stayInBed ? "\(said) \(stayInBedAfterDose2)" : said
        case .recorded(.dose2Skipped):
            let reason = state.night.skip?.metadata.reason.flatMap(SkipReason.init(rawValue:))
            let why = reason.map { $0 == .other ? "" : " (\(skipReason($0)))" } ?? ""
            let undo = state.settings.undoWindow
            let within = undo < .seconds(60) ? "\(Int(undo.seconds)) seconds" : duration(undo)
            return "Dose 2 skipped\(why). To undo, hold the button within \(within). Good night."
        case .recorded(let type): return recorded(type, at: now.wall, in: zone, style: style)
        case .repeatCancelled(let type, _): return "\(Written.label(type).capitalizedFirst) is already recorded. Nothing changed."
        case .undone(let type): return "Undone: \(Written.label(type))."
        case .awaitingConfirmation(.early): return "Dose 2 is early. \(hold) to take it now."
        case .awaitingConfirmation(.late): return "The Dose 2 window has closed. \(hold) to take it late."
        case .awaitingConfirmation(.doubt): return "I could not read tonight's record. \(hold) only if you are sure."
        case .awaitingConfirmation(.alcohol):
            let n = state.drinksAsked(now)
            return "You logged \(n) drink\(n == 1 ? "" : "s") today. XYWAV must not be taken with alcohol. \(hold) only if you are sure."
        case .confirmationCancelled: return "Cancelled. Nothing recorded."
        case .skipReasonAsked:
            return "Skipping Dose 2. Why? Press once if drowsy, twice for side effects, or wait. Hold to cancel."
        case .skipCancelled: return "Skip cancelled. Nothing recorded."
        case .loggedSleepEvent(let type): return "Logged: \(type.rawValue.replacingEvery("_", with: " "))."
        case .checkedIn: return "Check-in saved. Good morning."
        case .checkInStep(let step): return CheckInWords.step(step, state: state, at: now)
        case .status, .alarmStopped: return status(state, at: now, style: style)
        case .doubtEntered: return "I could not read tonight's record. If you took a dose tonight, do not take more."
        case .nightRestored: return "Tonight's record can be read again."
        case .targetSet(let m): return "Target set to \(m) minutes."
        case .drinkLogged(let d, let n): return "\(d.type.rawValue.capitalizedFirst) logged." + (n > 0 ? " \(Written.drinks(n)) tonight." : "")
        case .drinkUndone(let d): return "Undone: the \(d.type.rawValue)."
        case .acknowledged, .faultChanged, .supplyChanged, .drinksChanged, .medicationLogged, .supplyLogged, .forgot, .paced,
             .eveningRestored, .preSleepLogged: return "Done."
        }
    }

    /// What an alert says after its tone, `elapsed` after Dose 1 (when it has rung out): the
    /// seed's milestones (window open, closing in 30, 15, 5, 1 min and the hard stops, closed)
    /// and, for the wake alarm, what it wants; the time left is the time left then.
    public static func alert(_ kind: AlertKind, elapsed: Duration, rules: DoseConstants = .box) -> String {
        let left = Duration.minutes(rules.window.closeMin) - elapsed
        if left <= .zero, kind != .windowOpen { return "Dose window closed." }
        switch kind {
        case .windowOpen: return "Dose window open. Take Dose 2 now."
        case .preAlarm, .mainAlarm, .followUp: return "Time for Dose 2. \(duration(left).capitalizedFirst) left."
        case .remainingWarning, .hardStop: return "Dose window closing in \(duration(left))."
        case .expired: return "Dose window closed."
        }
    }

    /// The stay-in-bed protocol after Dose 1, in the seed's words (SSOT, safety: "Remain in bed
    /// between doses for safety"), and after Dose 2.
    public static let stayInBedAfterDose1 = "Remain in bed between doses for safety."
    public static let stayInBedAfterDose2 = "Remain in bed for safety."

    /// A skip's reason as it is said.
    static func skipReason(_ reason: SkipReason) -> String {
        switch reason {
        case .drowsy: "drowsy"
        case .sideEffects: "side effects"
        case .other: "other"
        }
    }

    /// The confirm gesture in words: "hold the button for 2 seconds".
    static func holdToConfirm(_ rules: DoseConstants) -> String {
        "hold the button for \(DoseConstants.number(Double(rules.gestures.confirmHoldMs) / 1000)) seconds"
    }

    /// A refusal as it is said: the seed's text, with a confirmation asked for by the button.
    public static func refusal(_ r: Refusal, in zone: TimeZone, style: ClockStyle = .twelveHour) -> String {
        let hold = holdToConfirm(.box)
        let confirm = ConfirmWords(suffix: "; \(hold) to confirm", anyway: hold, by: "by confirming", confirmIt: "\(hold) to confirm",
                                   endsNight: "confirming", extraDoseOnly: "from the command line")
        return refusalSentence(r, in: zone, clock: { time($0, in: zone, style) }, confirm: confirm)
    }

    /// A fault, said in the words of the room (`Utterance.raised` says which are said).
    public static func fault(_ f: Fault) -> String {
        switch f {
        case .audioUnavailable: "The speaker is not working."
        case .buttonsSimulated: "The buttons are simulated."
        case .clockUnsynced: "The clock is not set."
        case .gpioUnavailable: "Sound is working, but the button is not. Check the cable."
        case .buttonStuck(let name): "The \(name) button seems stuck down. Check it."
        case .logUnwritable: "Doses cannot be saved. Check the memory card."
        case .logRecovered: "The record was damaged and has been repaired. Tell support."
        case .logLostRecords: "The record lost some entries. The doses it could find were put back. Hold the button to confirm a dose."
        case .witnessRebuilt: "The record's check file was made again."
        }
    }
}


extension String {
    /// "the extra dose" → "The extra dose", "41 minutes" → "41 minutes".
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
