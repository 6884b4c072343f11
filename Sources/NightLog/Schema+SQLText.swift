import DoseCore

// SQL text the migrations and the queries share, built from DoseCore's enums so a case added
// there reaches the SQL too.
extension Schema {
    /// A dose event that counts as a dose taken (`countsAsDose`) and is not undone: the
    /// partial index's condition and the query's, the same text so SQLite uses the index.
    static let doseTakenCondition = "undone_at IS NULL AND event_type IN ("
        + sqlList(DoseEventType.allCases.filter(\.countsAsDose).map(\.rawValue)) + ")"

    /// Quoted SQL string literals, comma separated: `'a', 'b'` (CHECK lists built from an enum's cases).
    static func sqlList(_ values: [String]) -> String {
        values.map { "'" + $0.replacingEvery("'", with: "''") + "'" }.joined(separator: ", ")
    }

    /// The seed's integer feeling_rested (1-5) from the box's answer, in SQL.
    static func feelingRestedSQL(_ column: String) -> String {
        let cases = CheckInAnswers.FeelRested.allCases.map { "WHEN '\($0.rawValue)' THEN \($0.scale)" }
        return "CASE \(column) \(cases.joined(separator: " ")) END"
    }

    /// A check-in's wake_count: the wake_temp events logged in its night, in SQL.
    static func wakeCountSQL(_ sessionIDColumn: String) -> String {
        "(SELECT count(*) FROM sleep_events w WHERE w.session_id = \(sessionIDColumn) AND w.event_type = '\(SleepEventType.wakeTemp.rawValue)')"
    }
}
