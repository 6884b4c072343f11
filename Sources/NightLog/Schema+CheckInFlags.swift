import DoseCore
import GRDB

extension Schema {
    /// "v15-checkin-narcolepsy-flags": the narcolepsy flags of the morning check-in (#32), by
    /// SSOT 2.4.3's column names and defaults (0: not had); 0 for the check-ins kept before,
    /// which never asked.
    static func registerCheckInFlagsV15(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-checkin-narcolepsy-flags") { db in
            try db.execute(sql: NarcolepsyFlag.allCases.map {
                "ALTER TABLE morning_checkins ADD COLUMN \(checkInFlagColumn($0));"
            }.joined(separator: "\n"))
        }
    }
}
