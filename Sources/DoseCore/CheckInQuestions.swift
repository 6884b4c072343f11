import Foundation

/// The morning check-in asked by the voice and answered by the button (#32): the seed's Quick
/// Mode (SSOT 2.4.3 "Morning Check-In": sleep quality, feel rested, grogginess, mental clarity,
/// mood), then the narcolepsy flags. Every answer is a count of presses.
public enum CheckInQuestion: Int, Sendable, Hashable, CaseIterable, Comparable {
    case sleepQuality, feelRested, grogginess, mentalClarity, mood
    case sleepParalysis, hallucinations, automaticBehavior, fellOutOfBed, confusionOnWaking

    /// The press counts that answer it: 1 to 5 (the scales, worst or least first, in the seed's
    /// order), 1 to 10 for mental clarity; a flag is 1 for no, 2 for yes.
    public var presses: ClosedRange<Int> {
        switch self {
        case .mentalClarity: CheckInAnswers.clarityRange
        case .sleepQuality, .feelRested, .grogginess, .mood: CheckInAnswers.qualityRange
        default: 1...2
        }
    }

    /// The flag a yes/no question asks about.
    public var flag: NarcolepsyFlag? {
        switch self {
        case .sleepParalysis: .sleepParalysis
        case .hallucinations: .hallucinations
        case .automaticBehavior: .automaticBehavior
        case .fellOutOfBed: .fellOutOfBed
        case .confusionOnWaking: .confusionOnWaking
        default: nil
        }
    }

    public var next: CheckInQuestion? { Self(rawValue: rawValue + 1) }
    public var previous: CheckInQuestion? { Self(rawValue: rawValue - 1) }
    public var number: Int { rawValue + 1 }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The answers given as counts, the seed's defaults for the rest (only when the person
    /// said "done": an abandoned check-in saves nothing).
    public static func answers(_ counts: [CheckInQuestion: Int]) -> CheckInAnswers {
        var a = CheckInAnswers()
        func pick<E: CaseIterable>(_ q: CheckInQuestion, _ current: E) -> E where E.AllCases.Index == Int {
            guard let n = counts[q], E.allCases.indices.contains(n - 1) else { return current }
            return E.allCases[n - 1]
        }
        a.sleepQuality = counts[.sleepQuality] ?? a.sleepQuality
        a.feelRested = pick(.feelRested, a.feelRested)
        a.grogginess = pick(.grogginess, a.grogginess)
        a.mentalClarity = counts[.mentalClarity] ?? a.mentalClarity
        a.mood = pick(.mood, a.mood)
        a.flags = Set(allCases.compactMap { q in q.flag.flatMap { counts[q] == 2 ? $0 : nil } })
        return a
    }
}

/// A check-in by the button in progress. It lives in memory only: one abandoned (a restart,
/// a stop, the wait run out) saves nothing.
public struct CheckInProgress: Sendable, Hashable {
    public var button: String
    public var question: CheckInQuestion = .sleepQuality
    /// The answers given, as press counts.
    public var counts: [CheckInQuestion: Int] = [:]
    /// Presses of the answer being given, and when the last went down.
    public var presses = 0
    public var lastPress: Moment?
    /// When the question now waiting was asked: the wait runs from here.
    public var asked: Moment
    /// A hold is down: on its release it goes back, unless it became the long hold ("done").
    var holding = false
    /// The hold that started the check-in is still down: nothing it does counts.
    var startingHoldDown = true

    public init(button: String, asked: Moment) {
        self.button = button
        self.asked = asked
    }
}

/// One step of a check-in by the button, for the voice and the LED.
public enum CheckInStep: Sendable, Hashable {
    /// The morning hold: the night's summary, then the first question.
    case started(CheckInQuestion)
    /// An answer counted (its echo), and the question now asked.
    case answered(CheckInQuestion, presses: Int, next: CheckInQuestion)
    /// A count out of the question's range: asked again.
    case outOfRange(CheckInQuestion, presses: Int)
    /// A hold went back to this question.
    case back(CheckInQuestion)
    /// Stopped (a hold at the first question, or no press within the wait): nothing saved.
    case stopped(answered: Int)
    /// Saved: after the last question (its echo), or early by the long hold ("done").
    case saved(last: CheckInQuestion?, presses: Int?, early: Bool)
    /// A press just after the check-in was saved: an answer pressed once too often, never a
    /// new night's Dose 1 (`CheckInSaved`).
    case alreadySaved
}

/// A check-in by the button just saved: for `checkin.question_wait_s` its button's clicks are
/// answered "already saved", so that a press too many is not taken for tomorrow's Dose 1.
struct CheckInSaved: Sendable, Hashable {
    var button: String
    var at: Moment
}
