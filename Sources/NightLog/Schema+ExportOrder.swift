import GRDB

extension Schema {
    /// "v18-export-order" (#34): the export's timelines in index order. events.csv,
    /// sleep_events.csv and the box's dose and sleep files are ordered by (timestamp, seq);
    /// with these indexes SQLite reads them in that order (and merges doses with sleep
    /// events for events.csv) instead of sorting ten years of rows in a temporary b-tree,
    /// which was half of a ten-year export's time. The schema seed's index on the sleep
    /// events' timestamp keeps its name and takes seq after the timestamp: it serves every
    /// query the seed's did.
    static func registerExportOrder(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v18-export-order") { db in
            try db.execute(sql: """
                DROP INDEX idx_sleep_events_timestamp;
                CREATE INDEX idx_sleep_events_timestamp ON sleep_events(timestamp, seq);
                CREATE INDEX idx_dose_events_kept_time_seq ON dose_events(timestamp, seq) WHERE undone_at IS NULL;
                """)
        }
    }
}
