import Foundation

// Skipping Dose 2: by boxctl, or at the bedside by the long hold of the dose button and its
// question of why (#32).
extension Reduction {
    mutating func skip(reason: SkipReason?) -> Outcome {
        switch state.doseStage(at: now) {
        case .noDose1: return refuse(.dose1Required, sound: .error, flash: .refused)
        case .beforeWindow: return refuse(.skipBeforeWindow, sound: .error, flash: .refused)
        case .completed:
            if let d2 = night.dose2 { return refuse(.dose2AlreadyTaken(at: d2.at.wall), sound: .stop, flash: .stop) }
            return refuse(.dose2WasSkipped, sound: .error, flash: .refused)
        default:
            recordSkip(reason: reason)
            return .accepted(.recorded(.dose2Skipped))
        }
    }

    /// Dose 2 skipped: silences the alarm, drops a pending confirmation.
    mutating func recordSkip(reason: SkipReason?, sound: Sound = .success) {
        stopAlarm()
        state.pending = nil
        record(dose: .dose2Skipped, metadata: DoseMetadata(reason: reason?.rawValue))
        feedback(sound, flash: nil)
    }

    /// The long hold on the dose button, while the window is open and Dose 2 is owed: the
    /// skip sound at once, then, with the voice on, the question of why (nothing is recorded
    /// until it is answered); with the voice off, the skip is recorded now, reason `other`.
    /// Anywhere else the long hold does nothing: it never skips a night whose Dose 2 is taken.
    mutating func skipByHold(button: String, isDoseButton: Bool) -> Outcome {
        guard isDoseButton, state.skipQuestion == nil, state.skipCancelledBy != button, state.doubt == nil else { return .ignored }
        switch state.doseStage(at: now) {
        case .active, .nearClose: break
        default: return .ignored
        }
        guard settings.voice.enabled else {
            recordSkip(reason: .other, sound: .skipHold)
            return .accepted(.recorded(.dose2Skipped))
        }
        stopAlarm()
        state.pending = nil
        state.skipQuestion = SkipQuestion(since: now, button: button)
        feedback(.skipHold, flash: nil)
        return .accepted(.skipReasonAsked)
    }

    /// The skip's reason came (a press, or the wait ran out): the skip is recorded now, unless
    /// Dose 2 was taken meanwhile (by boxctl: the question then lapses).
    @discardableResult
    mutating func answerSkipQuestion(_ reason: SkipReason, timedOut: Bool = false) -> Outcome {
        state.skipQuestion = nil
        guard state.doseStage(at: now) != .completed, night.dose1 != nil else { return .ignored }
        recordSkip(reason: reason)
        if timedOut {
            // Time passing has no button to answer: the chime and the words are said here.
            effects.append(.play(.success))
            speak(.accepted(.recorded(.dose2Skipped), state: state, at: now))
        }
        return .accepted(.recorded(.dose2Skipped))
    }
}
