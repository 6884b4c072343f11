import DoseCore
import Foundation

/// What the voice says in the morning check-in by the button (#32): the night's summary, each
/// question with the presses that answer it, and each answer said back.
public enum CheckInWords {
    static func step(_ step: CheckInStep, state: BoxState, at now: Moment) -> String {
        switch step {
        // Short: a groggy person waits for it to end before pressing (16.5 s in the virtual box
        // for 52 words; the card and the guide tell the rest: the 3 s hold saves early).
        case .started(let q):
            return "\(summary(state, at: now)) Morning check-in. Press each answer's number; hold to go back. \(question(q))"
        case .answered(let q, let n, let next): return "\(echo(q, n)) \(question(next))"
        case .outOfRange(let q, let n): return "\(n) presses is not an answer. \(question(q))"
        case .back(let q): return "Back. \(question(q))"
        case .stopped: return "Check-in stopped. Nothing saved. Hold the button to start again."
        case .alreadySaved: return "The check-in is already saved. Nothing changed."
        case .saved(let q, let n, let early):
            if early { return "Check-in saved; questions not answered keep their usual answers. Good morning." }
            let said = q.flatMap { q in n.map { echo(q, $0) + " " } } ?? ""
            return "\(said)Check-in saved. Good morning."
        }
    }

    /// The night in a sentence or two, as the morning hold says it.
    public static func summary(_ state: BoxState, at now: Moment) -> String {
        let zone = state.settings.timeZone, style = state.settings.voice.clock
        func at(_ m: Moment) -> String { Speech.time(now.wall.addingTimeInterval(-now.elapsed(since: m).seconds), in: zone, style) }
        let night = state.night
        guard let d1 = night.dose1 else { return "Good morning." }
        let second: String
        if let d2 = night.dose2 {
            second = "Dose 2 at \(at(d2.at))."
        } else if let skip = night.skip {
            let reason = skip.metadata.reason.flatMap(SkipReason.init(rawValue:)).map { $0 == .other ? "" : " (\(Speech.skipReason($0)))" }
            second = "Dose 2 skipped\(reason ?? "")."
        } else {
            second = "Dose 2 was not taken."
        }
        return "Good morning. Dose 1 at \(at(d1.at)); \(second)"
    }

    /// A question with the presses that answer it.
    public static func question(_ q: CheckInQuestion) -> String {
        let n = "Question \(q.number):", top = q.presses.upperBound
        switch q {
        case .sleepQuality: return "\(n) how well did you sleep? Press 1 to \(top) times; \(top) is best."
        case .feelRested: return "\(n) how rested do you feel? 1 not at all, \(top) very well."
        case .grogginess: return "\(n) how groggy are you? 1 not at all, \(top) you cannot function."
        case .mentalClarity: return "\(n) how clear is your mind? 1 to \(top); \(top) is clearest."
        case .mood: return "\(n) your mood? 1 very low, \(top) great."
        default: return "\(n) \(flagName(q.flag!).capitalizedFirst)? Once for no, twice for yes."
        }
    }

    /// An answer said back: "Sleep 4 of 5.", "Mood: good.", "Hallucinations: no."
    public static func echo(_ q: CheckInQuestion, _ presses: Int) -> String {
        let a = CheckInQuestion.answers([q: presses])
        switch q {
        case .sleepQuality: return "Sleep \(presses) of \(q.presses.upperBound)."
        case .feelRested: return "Rested: \(rested(a.feelRested))."
        case .grogginess: return "Groggy: \(groggy(a.grogginess))."
        case .mentalClarity: return "Clarity \(presses) of \(q.presses.upperBound)."
        case .mood: return "Mood: \(mood(a.mood))."
        default: return "\(flagName(q.flag!).capitalizedFirst): \(presses == 2 ? "yes" : "no")."
        }
    }

    public static func flagName(_ f: NarcolepsyFlag) -> String {
        switch f {
        case .sleepParalysis: "sleep paralysis"
        case .hallucinations: "hallucinations"
        case .automaticBehavior: "automatic behaviour"
        case .fellOutOfBed: "fell out of bed"
        case .confusionOnWaking: "confusion on waking"
        }
    }

    public static func rested(_ r: CheckInAnswers.FeelRested) -> String {
        switch r {
        case .notAtAll: "not at all"
        case .slightly: "slightly"
        case .moderate: "moderately"
        case .well: "well"
        case .veryWell: "very well"
        }
    }

    public static func groggy(_ g: CheckInAnswers.Grogginess) -> String {
        switch g {
        case .none: "not at all"
        case .mild: "mild"
        case .moderate: "moderate"
        case .severe: "severe"
        case .cantFunction: "cannot function"
        }
    }

    public static func mood(_ m: CheckInAnswers.Mood) -> String {
        switch m {
        case .veryLow: "very low"
        case .low: "low"
        case .neutral: "neutral"
        case .good: "good"
        case .great: "great"
        }
    }
}
