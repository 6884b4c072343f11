import Foundation

// Undo: the last dose event of the open night, within the undo window (SSOT 2.4.3: 5 s by
// default); the row stays, marked undone.
extension Reduction {
    func undoableNow() -> DoseRecord? {
        guard night.isOpen, let last = night.lastUndoable else { return nil }
        return now.elapsed(since: last.at) < settings.undoWindow ? last : nil
    }

    mutating func undo() -> Outcome {
        guard night.isOpen, night.lastUndoable != nil else { return refuse(.nothingToUndo, sound: .error, flash: .refused) }
        guard let target = undoableNow() else {
            return refuse(.undoExpired(windowSeconds: Int(settings.undoWindow.seconds)), sound: .error, flash: .refused)
        }
        append(.undone(UndoRecord(eventID: target.id, at: now, source: ctx.source)))
        state.pending = nil
        if target.type == .dose1 { stopAlarm() }
        feedback(.warning, flash: .undone)
        return .accepted(.undone(target.type))
    }
}
