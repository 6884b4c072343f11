import GRDB
import GRDBSQLite

/// RFC 4180 output: fields separated by commas, records ended by CRLF, a field quoted
/// (with quotes doubled) when it holds a comma, a quote, CR or LF.
///
/// Built as UTF-8 bytes: the event files copy SQLite's column text straight into the
/// buffer, with no String or DatabaseValue per field (that halved the sleep_events time).
struct CSVWriter {
    private var bytes: [UInt8] = []
    private var atRowStart = true
    /// Columns of free text, neutralised against formula injection (see `ExportFile`).
    private let freeText: Set<Int32>

    init(columns: [String], freeText: Set<Int32> = []) {
        self.freeText = freeText
        bytes.reserveCapacity(1 << 20)
        for c in columns { add(c) }
        endRow()
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

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

    /// Every column of every row, as SQLite's text for it; NULL becomes an empty field.
    mutating func addRows(_ db: Database, sql: String, arguments: StatementArguments) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let columns = Int32(statement.columnCount)
        let rows = try Row.fetchCursor(statement)
        while try rows.next() != nil {
            // The cursor has just stepped this statement: read its current row directly.
            let raw = statement.sqliteStatement
            for i in 0..<columns {
                separate()
                guard sqlite3_column_type(raw, i) != SQLITE_NULL, let text = sqlite3_column_text(raw, i) else { continue }
                let field = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, i)))
                appendField(field, neutralise: freeText.contains(i) && startsLikeFormula(field))
            }
            endRow()
        }
    }

    private mutating func separate() {
        if !atRowStart { bytes.append(0x2C) } // ,
        atRowStart = false
    }

    /// `neutralise` puts a single quote in front, so a spreadsheet shows the text instead of
    /// running it.
    private mutating func appendField(_ utf8: UnsafeBufferPointer<UInt8>, neutralise: Bool = false) {
        guard utf8.contains(where: needsQuoting) else {
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
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
