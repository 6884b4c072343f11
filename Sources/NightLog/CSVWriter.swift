import GRDB
import DoseCore
import Foundation
import GRDBSQLite

/// RFC 4180 output: fields separated by commas, records ended by CRLF, a field quoted
/// (with quotes doubled) when it holds a comma, a quote, CR or LF.
///
/// Built as UTF-8 bytes: the event files copy SQLite's column text straight into the
/// buffer, with no String or DatabaseValue per field (that halved the sleep_events time).
struct CSVWriter {
    private(set) var bytes: [UInt8] = []
    private var atRowStart = true
    /// The column of free text, neutralised against formula injection (see `ExportFile`).
    private let freeText: Int32?
    /// For each of the file's columns, the query's column it is written from (`addRows`).
    private let picks: [Int32]
    /// Only the rows whose text in this column is this (one query feeding several files).
    private let onlyRowsOf: (column: Int32, text: String)?

    /// `picks` defaults to the query's first columns, one for each of `columns`: a query may
    /// select more (a sort key, another file's columns), which are not written.
    init(columns: [String], freeText: Int32? = nil, picks: [Int32]? = nil, onlyRowsOf: (column: Int32, text: String)? = nil) {
        self.freeText = freeText
        self.picks = picks ?? Array(0 ..< Int32(columns.count))
        self.onlyRowsOf = onlyRowsOf
        precondition(self.picks.count == columns.count, "a pick for each column")
        bytes.reserveCapacity(1 << 20)
        for c in columns { add(c) }
        endRow()
    }

    mutating func add(_ field: String?) {
        separate()
        guard var field else { return }
        field.withUTF8 { appendField($0) }
    }

    mutating func endRow() {
        bytes.append(0x0D) // CR
        bytes.append(0x0A) // LF
        atRowStart = true
    }

    /// Every row of one query into each of `writers`, each its own columns (`picks`) as
    /// SQLite's text for them; NULL becomes an empty field. Several files from one query
    /// read the log once.
    static func addRows(_ db: Database, sql: String, arguments: StatementArguments, to writers: inout [CSVWriter]) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let columns = Int32(statement.columnCount)
        precondition(writers.allSatisfy { w in (w.picks + [w.onlyRowsOf?.column ?? 0]).allSatisfy { $0 < columns } },
                     "picks within the query's columns")
        let rows = try Row.fetchCursor(statement)
        while try rows.next() != nil {
            // The cursor has just stepped this statement: read its current row directly.
            for w in writers.indices { writers[w].addRow(statement.sqliteStatement) }
        }
    }

    private mutating func addRow(_ raw: SQLiteStatement) {
        if let only = onlyRowsOf {
            guard let text = sqlite3_column_text(raw, only.column),
                  strcmp(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self), only.text) == 0 else { return }
        }
        for (position, column) in zip(Int32(0)..., picks) {
            separate()
            // NULL text is SQL NULL (an empty field); SQLite's text ends in a NUL, for strcspn.
            guard let text = sqlite3_column_text(raw, column) else { continue }
            let field = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, column)))
            let plain = text.withMemoryRebound(to: CChar.self, capacity: field.count + 1) { strcspn($0, ",\"\r\n") } == field.count
            appendField(field, neutralise: position == freeText && startsLikeFormula(field), plain: plain)
        }
        endRow()
    }

    private mutating func separate() {
        if !atRowStart { bytes.append(0x2C) } // ,
        atRowStart = false
    }

    /// `neutralise` puts a single quote in front, so a spreadsheet shows the text instead of
    /// running it. `plain`: the caller knows the field needs no quotes (C's strcspn saw
    /// none of `needsQuoting`'s bytes, faster than a byte loop on ten years of events).
    private mutating func appendField(_ utf8: UnsafeBufferPointer<UInt8>, neutralise: Bool = false, plain: Bool = false) {
        guard !plain && utf8.contains(where: needsQuoting) else {
            if neutralise { bytes.append(0x27) } // '
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(0x22)
        if neutralise { bytes.append(0x27) }
        for byte in utf8 {
            if byte == 0x22 { bytes.append(0x22) }
            bytes.append(byte)
        }
        bytes.append(0x22)
    }
}

/// Text a spreadsheet would take for a formula: it starts with `=`, `+`, `-`, `@`, a tab or a CR.
func startsLikeFormula(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = utf8.first else { return false }
    return first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09 || first == 0x0D
}

/// A comma, a quote, LF or CR.
private func needsQuoting(_ byte: UInt8) -> Bool {
    byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D
}

/// Quotes one CSV field if RFC 4180 requires it (the same rule `CSVWriter` applies).
func csvField(_ field: String) -> String {
    guard field.utf8.contains(where: needsQuoting) else { return field }
    return "\"" + field.replacingEvery("\"", with: "\"\"") + "\""
}
