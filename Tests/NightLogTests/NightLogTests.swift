import DoseCore
import Foundation
import Testing
@testable import NightLog

// Shared fixtures for the NightLog tests. Every test works in its own directory under the
// temporary directory and removes it when done. Times are whole milliseconds, because the
// log stores ISO 8601 with milliseconds.

/// A unique, empty directory for one test; removed by `withTempDir`.
func withTempDir<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("NightLogTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

enum Fixture {
    /// 2024-01-15T22:00:00Z, CLOCK_BOOTTIME 1000 s into boot "boot-a".
    static let t0 = Moment(wall: Date(timeIntervalSince1970: 1_705_356_000), boot: "boot-a", monoNanos: 1_000_000_000_000)
    static let date = "2024-01-15"
    static let button = Source.button("main")

    static func at(_ minutes: Double) -> Moment { t0.advanced(by: .minutes(minutes)) }

    static func open(_ id: String = "S1", date: String = date, at minutes: Double = 0) -> LogRecord {
        .sessionOpened(SessionRecord(id: id, date: date, start: at(minutes)))
    }

    static func dose(_ id: String, _ type: DoseEventType, at minutes: Double, session: String = "S1", date: String = date,
                     metadata: DoseMetadata = .init(), source: Source = button, moment: Moment? = nil) -> LogRecord {
        .dose(DoseRecord(id: id, sessionID: session, sessionDate: date, type: type, at: moment ?? at(minutes),
                         metadata: metadata, source: source))
    }

    static func sleepEvent(_ id: String, _ type: SleepEventType, at minutes: Double, session: String = "S1", date: String = date,
                      notes: String? = nil, source: Source = button) -> LogRecord {
        .sleepEvent(SleepEventRecord(id: id, sessionID: session, sessionDate: date, type: type, at: at(minutes),
                                     notes: notes, source: source))
    }

    static func checkIn(_ id: String, at minutes: Double, session: String = "S1", date: String = date,
                        answers: CheckInAnswers = .init()) -> LogRecord {
        .checkIn(CheckInRecord(id: id, sessionID: session, sessionDate: date, at: at(minutes), answers: answers, source: button))
    }

    static func undo(_ eventID: String, at minutes: Double) -> LogRecord {
        .undone(UndoRecord(eventID: eventID, at: at(minutes), source: button))
    }

    static func close(_ session: String = "S1", at minutes: Double, state: TerminalState = .completed,
                      reason: CloseReason = .checkIn) -> LogRecord {
        .sessionClosed(SessionCloseRecord(sessionID: session, at: at(minutes), terminalState: state, reason: reason))
    }

    static func notice(_ id: String, _ kind: NoticeRecord.Kind, at minutes: Double, session: String = "S1", date: String = date,
                       dose1: String = "d1", alert: AlertKind? = nil, level: AlarmLevel? = nil) -> LogRecord {
        .notice(NoticeRecord(id: id, sessionID: session, sessionDate: date, kind: kind, at: at(minutes), dose1ID: dose1,
                             alert: alert, level: level))
    }

    /// A complete, ordinary night: dose2 165 min after dose1, one snooze, a check-in.
    static func night(_ s: String, date: String, startDay: Double, notes: String? = nil, flags: Set<NarcolepsyFlag> = []) -> [LogRecord] {
        let m = startDay * 1440
        return [
            open(s, date: date, at: m),
            sleepEvent("\(s)-lights", .lightsOut, at: m + 10, session: s, date: date, notes: notes),
            dose("\(s)-d1", .dose1, at: m + 30, session: s, date: date),
            dose("\(s)-sn", .snooze, at: m + 30 + 160, session: s, date: date, metadata: DoseMetadata(snoozeNumber: 1)),
            dose("\(s)-d2", .dose2, at: m + 30 + 165, session: s, date: date),
            sleepEvent("\(s)-wake", .wakeFinal, at: m + 500, session: s, date: date),
            checkIn("\(s)-ci", at: m + 520, session: s, date: date, answers: CheckInAnswers(sleepQuality: 4, notes: notes, flags: flags)),
            close(s, at: m + 521),
        ]
    }
}

/// Expects `body` to throw a `NightLogError` and returns it for closer inspection.
func expectNightLogError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> NightLogError? {
    do {
        try body()
        Issue.record("expected a NightLogError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as NightLogError {
        return error
    } catch {
        Issue.record("expected a NightLogError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

func ids(_ records: [LogRecord]) -> [String] {
    records.map { record in
        switch record {
        case .sessionOpened(let s): "open:\(s.id)"
        case .dose(let d): "dose:\(d.id)"
        case .sleepEvent(let e): "sleep:\(e.id)"
        case .checkIn(let c): "checkin:\(c.id)"
        case .undone(let u): "undo:\(u.eventID)"
        case .sessionClosed(let c): "close:\(c.sessionID)"
        case .notice(let n): "notice:\(n.id)"
        case .fault(let f): "fault:\(f.id)"
        case .medication(let m): "medication:\(m.id)"
        case .supply(let x): "supply:\(x.id)"
        case .drink(let d): "drink:\(d.id)"
        case .drinkUndone(let u): "drink-undo:\(u.drinkID)"
        case .pacing(let p): "pacing:\(p.id)"
        case .preSleep(let p): "presleep:\(p.id)"
        }
    }
}
