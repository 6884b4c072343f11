import ClinicianReport
import DoseCore
import Foundation
import Testing

/// The report's page from nights given in process: what a clinician reads in it (times in the
/// patient's zone, on time or not, why a night ended as it did), and that nothing typed by the
/// patient becomes markup. The whole path (a month pressed on boxd, the page opened in
/// Chromium) is SimulatedBoxTests' ClinicianReportTests.
@Suite struct ReportPageTests {
    static let zone = TimeZone(identifier: "America/New_York")!

    /// 22:00 local on the session date (New York, November: UTC-5).
    static func evening(_ date: String) -> Date {
        SessionDate.date(date)!.addingTimeInterval(22 * 3600 + 5 * 3600)
    }

    static func night(_ date: String, dose2After minutes: Double?, skipped: SkipReason? = nil) -> NightFacts {
        let d1 = evening(date)
        let target = DoseConstants.box.window.defaultTargetMin
        return NightFacts(sessionDate: date, targetMinutes: target, dose1: d1,
                          dose2: minutes.map { d1.addingTimeInterval($0 * 60) }, intervalMinutes: minutes,
                          onTime: minutes.map { abs($0 - Double(target)) <= DoseConstants.box.window.onTimeThresholdMin } ?? false,
                          skipped: skipped != nil, skipReason: skipped, terminalState: skipped != nil ? .skipped : .completed)
    }

    static func page(_ nights: [NightFacts], medications: [MedicationRecord] = []) -> String {
        let plan = Planner.suggestNextWeekTarget(nights: nights, currentTarget: DoseConstants.box.window.defaultTargetMin,
                                                 today: nights.last?.sessionDate ?? "2026-11-21")
        return ClinicianReport.html(ReportInput(from: nights.first?.sessionDate ?? "2026-11-21", to: nights.last?.sessionDate ?? "2026-11-21",
                                                zone: zone, generated: evening("2026-11-23"), nights: nights, medications: medications, plan: plan))
    }

    /// The text of the night table's row for `date`, cells joined by "|".
    static func row(_ page: String, _ date: String) throws -> String {
        let start = try #require(page.range(of: "<td>\(date)</td>"))
        let end = try #require(page.range(of: "</tr>", range: start.upperBound..<page.endIndex))
        return page[start.lowerBound..<end.lowerBound]
            .replacingOccurrences(of: "</td>", with: "|")
            .replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"\s+"#, with: "", options: .regularExpression)
    }

    @Test func eachNightReadsInThePatientsZoneWithItsOutcome() throws {
        let page = Self.page([
            Self.night("2026-11-21", dose2After: 165),
            Self.night("2026-11-22", dose2After: 200),
            Self.night("2026-11-23", dose2After: nil, skipped: .drowsy),
        ])
        #expect(try Self.row(page, "2026-11-21") == "2026-11-21|22:00|00:45|165min|165|yes|0||0|—|—|")
        #expect(try Self.row(page, "2026-11-22") == "2026-11-22|22:00|01:20|200min|165|no|0||0|—|—|")
        #expect(try Self.row(page, "2026-11-23") == "2026-11-23|22:00|—|—|165|—|0|skipped(drowsy)|0|—|—|")
        #expect(page.contains("times in America/New_York"))
        // One night on time of the three with Dose 1.
        #expect(page.contains(#"<td id="on-time">33.3% (1 of 3)</td>"#))
    }

    /// #32: every answer of the night's check-in and the flags said yes to, and a skipped
    /// night with its reason beside its own check-in.
    @Test func eachNightShowsItsCheckInAnswersAndFlags() throws {
        var taken = Self.night("2026-11-21", dose2After: 165)
        taken.checkIn = CheckInAnswers(sleepQuality: 4, feelRested: .well, grogginess: .none, mentalClarity: 7, mood: .good,
                                       flags: [.fellOutOfBed, .sleepParalysis])
        var skipped = Self.night("2026-11-22", dose2After: nil, skipped: .sideEffects)
        skipped.checkIn = CheckInAnswers(sleepQuality: 2, feelRested: .notAtAll, grogginess: .cantFunction, mentalClarity: 3, mood: .veryLow)
        let page = Self.page([taken, skipped])
        let cell = try #require(try Self.row(page, "2026-11-21").split(separator: "|").last)
        #expect(cell == "sleep4/5,restedwell,groggynotatall,clarity7/10,moodgood;sleepparalysis,felloutofbed")
        #expect(try Self.row(page, "2026-11-22").contains("|skipped(sideeffects)|0|—|sleep2/5,restednotatall,groggycannotfunction,clarity3/10,moodverylow|"))
        #expect(page.contains("sleep 4/5, rested well, groggy not at all, clarity 7/10, mood good; sleep paralysis, fell out of bed"))
    }

    @Test func aDose2OutsideTheWindowIsMarkedMissed() throws {
        let late = Self.night("2026-11-21", dose2After: DoseConstants.box.window.closeMin + 1)
        let page = Self.page([late])
        #expect(page.contains(#"<tr class="missed">"#))
        let inWindow = Self.page([Self.night("2026-11-21", dose2After: DoseConstants.box.window.closeMin)])
        #expect(!inWindow.contains(#"<tr class="missed">"#))
    }

    @Test func tooFewNightsForTrendsIsSaid() {
        let few = Self.page([Self.night("2026-11-21", dose2After: 165)])
        #expect(few.contains(#"id="insufficient""#))
        let min = DoseConstants.box.insights.minNights
        let nights = (0..<min).map { Self.night(SessionDate.adding(days: $0, to: "2026-11-01")!, dose2After: 170) }
        #expect(!Self.page(nights).contains(#"id="insufficient""#))
    }

    @Test func whatThePatientTypedStaysText() {
        let note = #"<script>alert("x")</script> & <b>bold</b>"#
        let med = MedicationRecord(id: "m1", sessionID: nil, sessionDate: "2026-11-21", medicationID: "custom<img src=x>",
                                   doseValue: 20, doseUnit: "mg", formulation: "tablet", takenAt: Self.evening("2026-11-21"),
                                   localOffsetMinutes: -300, notes: note, confirmedDuplicate: false,
                                   createdAt: Self.evening("2026-11-21"), source: .system)
        let page = Self.page([Self.night("2026-11-21", dose2After: 165)], medications: [med])
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("<b>bold"))
        #expect(page.contains("&lt;script&gt;"))
    }
}

/// #33: the evenings before, in the nights' table and in a chart of their own that sets the
/// nights with alcohol beside those without, and compares nothing.
@Suite struct EveningReportTests {
    @Test func theEveningsStandBesideTheNightsAndNothingIsConcluded() throws {
        var wine = ReportPageTests.night("2026-11-21", dose2After: 165)
        wine.evening = EveningFacts(alcoholicDrinks: 2, units: 2.5, preSleep: PreSleepAnswers(caffeineCups: 1, stressLevel: 7, notes: "<b>"))
        var coffee = ReportPageTests.night("2026-11-22", dose2After: 200)
        coffee.evening = EveningFacts(alcoholicDrinks: 0, units: 0, preSleep: PreSleepAnswers(caffeineCups: 3, exerciseType: .light, exerciseDuration: 20))
        let plain = ReportPageTests.night("2026-11-23", dose2After: 170)
        let page = ReportPageTests.page([wine, coffee, plain])
        #expect(page.contains(#"<td class="evening">2 drinks (2.5 units) · caffeine 1 · stress 7/10</td>"#))
        #expect(page.contains(#"<td class="evening">caffeine 3 · exercise light 20 min</td>"#))
        #expect(page.components(separatedBy: #"<circle class="evening alcohol"#).count - 1 == 1)
        #expect(page.components(separatedBy: #"<circle class="evening none"#).count - 1 == 2)
        #expect(page.contains("1 night, on time 1 of 1 with Dose 2 (100.0%)") && page.contains("2 nights, on time 1 of 2 with Dose 2 (50.0%)"))
        for conclusion in ["worse", "better", "because", "caused", "difference"] {
            #expect(!page.lowercased().contains(conclusion), "the page concludes nothing: \(conclusion)")
        }
    }
}
