import Foundation

// The morning by the button (#32): a hold wakes the box (wake-final), says the night and asks
// the check-in; presses answer, a hold goes back (at the first question it stops), the long
// hold saves what was answered ("done"), and a question left unanswered stops it. Nothing is
// saved until the last answer or "done".
extension Reduction {
    /// The morning hold: wake-final (once a night), the night's summary, the first question.
    mutating func startCheckIn(button: String) -> Outcome {
        if night.wakeFinal == nil, let s = night.session {
            append(.sleepEvent(SleepEventRecord(id: freshID(), sessionID: s.id, sessionDate: s.date, type: .wakeFinal,
                                                at: now, notes: nil, source: ctx.source)))
        }
        state.checkIn = CheckInProgress(button: button, asked: now)
        feedback(.success, flash: nil)
        return .accepted(.checkInStep(.started(.sleepQuality)))
    }

    /// A press of the check-in's button: one more to the answer being given.
    mutating func countCheckInPress() {
        guard var c = state.checkIn else { return }
        c.startingHoldDown = false // a new press: the hold that started it is up
        c.presses += 1
        c.lastPress = now
        state.checkIn = c
    }

    /// Everything but a press, on the check-in's button: clicks are already counted as
    /// presses; a hold acts on its release (back), unless it becomes the long hold (done).
    mutating func checkInGesture(_ g: Gesture) -> Outcome {
        guard var c = state.checkIn else { return .ignored }
        if c.startingHoldDown {
            if g == .releasedAfterHold { c.startingHoldDown = false }
            state.checkIn = c
            return .ignored
        }
        switch g {
        case .hold:
            // The hold's own press is no answer, nor are presses before it: it takes them back.
            c.holding = true
            c.presses = 0
            c.lastPress = nil
            state.checkIn = c
            return .ignored
        case .skipHold:
            c.holding = false
            state.checkIn = c
            return saveCheckIn(byTime: false, early: true)
        case .releasedAfterHold:
            guard c.holding else { return .ignored } // the long hold's release: already saved
            c.holding = false
            guard let previous = c.question.previous else {
                state.checkIn = c
                return stopCheckIn(byTime: false)
            }
            c.question = previous
            c.asked = now
            state.checkIn = c
            feedback(.warning, flash: nil)
            return .accepted(.checkInStep(.back(previous)))
        default:
            return .ignored
        }
    }

    /// A click of the button that just saved a check-in, within the question's wait: one
    /// press too many, answered "already saved"; nothing is recorded.
    mutating func pressAfterCheckIn(_ g: Gesture, button: String) -> Outcome? {
        guard let saved = state.checkInSaved, saved.button == button, g == .single || g == .double else { return nil }
        guard now.elapsed(since: saved.at) < .seconds(rules.checkin.questionWaitS) else {
            state.checkInSaved = nil
            return nil
        }
        feedback(.alreadyRecorded, flash: .alreadyRecorded)
        return .accepted(.checkInStep(.alreadySaved))
    }

    /// Time decides (before every action): the presses became an answer, or the question
    /// waited out. Said here, whatever the action that follows: no button answers for time.
    mutating func passCheckInTime() {
        guard var c = state.checkIn, let d = state.checkInDeadline(c), now.elapsed(since: d.since) >= d.after else { return }
        guard c.presses > 0 else {
            stopCheckIn(byTime: true)
            return
        }
        let q = c.question, n = c.presses
        c.presses = 0
        c.lastPress = nil
        c.asked = now
        guard q.presses.contains(n) else {
            state.checkIn = c
            effects.append(.play(.error))
            speak(.accepted(.checkInStep(.outOfRange(q, presses: n)), state: state, at: now))
            return
        }
        c.counts[q] = n
        effects.append(.flash(.count(n, blinkMs: rules.checkin.countBlinkMs), duration: nil))
        guard let next = q.next else {
            state.checkIn = c
            saveCheckIn(byTime: true, early: false, last: q, presses: n)
            return
        }
        c.question = next
        state.checkIn = c
        speak(.accepted(.checkInStep(.answered(q, presses: n, next: next)), state: state, at: now))
    }

    /// Saves the answers as `boxctl checkin` would (the seed's defaults for the unanswered, only
    /// ever after "done"), and closes the night.
    @discardableResult
    mutating func saveCheckIn(byTime: Bool, early: Bool, last: CheckInQuestion? = nil, presses: Int? = nil) -> Outcome {
        guard let c = state.checkIn else { return .ignored }
        state.checkIn = nil
        guard night.isOpen, let s = night.session else { return .ignored }
        append(.checkIn(CheckInRecord(id: freshID(), sessionID: s.id, sessionDate: s.date, at: now,
                                      answers: CheckInQuestion.answers(c.counts), source: .button(c.button))))
        closeSession(reason: .checkIn)
        state.checkInSaved = CheckInSaved(button: c.button, at: now)
        return checkInSaid(.saved(last: last, presses: presses, early: early), sound: .success, byTime: byTime)
    }

    /// Stops the check-in, saving nothing. One that time stopped before any answer lapses
    /// without a word: nobody was answering, and nothing was half done.
    @discardableResult
    mutating func stopCheckIn(byTime: Bool) -> Outcome {
        guard let c = state.checkIn else { return .ignored }
        state.checkIn = nil
        if byTime, c.counts.isEmpty { return .ignored }
        return checkInSaid(.stopped(answered: c.counts.count), sound: .warning, byTime: byTime)
    }

    /// A step's sound and words: a button's come with its outcome; time's are given here.
    mutating func checkInSaid(_ step: CheckInStep, sound: Sound, byTime: Bool) -> Outcome {
        guard byTime else {
            feedback(sound, flash: nil)
            return .accepted(.checkInStep(step))
        }
        effects.append(.play(sound))
        speak(.accepted(.checkInStep(step), state: state, at: now))
        return .ignored
    }
}
