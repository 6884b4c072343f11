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
    /// Where a row is made before it is appended whole: one append a row, not one a byte or
    /// field (each append checks the array's uniqueness: a tenth of a ten-year export's instructions).
    private var scratch = [UInt8](repeating: 0, count: 4096)
    private var atRowStart = true
    /// The column of free text, neutralised against formula injection (see `ExportFile`).
    private let freeText: Int32?
    /// For each of the file's columns, the query's column it is written from (`addRows`).
    private let picks: [Int32]
    /// Only the rows whose text in this column is this (one query feeding several files).
    private let onlyRowsOf: (column: Int32, text: [UInt8])?

    /// `picks` defaults to the query's first columns, one for each of `columns`: a query may
    /// select more (a sort key, another file's columns), which are not written.
    init(columns: [String], freeText: Int32? = nil, picks: [Int32]? = nil, onlyRowsOf: (column: Int32, text: String)? = nil) {
        self.freeText = freeText
        self.picks = picks ?? Array(0 ..< Int32(columns.count))
        self.onlyRowsOf = onlyRowsOf.map { ($0.column, Array($0.text.utf8)) }
        precondition(self.picks.count == columns.count, "a pick for each column")
        bytes.reserveCapacity(1 << 20)
        for c in columns { add(c) }
        endRow()
    }

    mutating func add(_ field: String?) {
        let comma = !atRowStart
        atRowStart = false
        guard var field else { return write(upTo: 1) { out in Self.separate(comma, out) } }
        field.withUTF8 { utf8 in
            write(upTo: 1 + Self.room(utf8.count)) { out in
                let n = Self.separate(comma, out)
                return n + Self.field(utf8, into: out + n)
            }
        }
    }

    mutating func endRow() {
        write(upTo: 2) { out in Self.endRow(out) }
        atRowStart = true
    }

    /// Every row of one query into each of `writers`, each its own columns (`picks`) as
    /// SQLite's text for them; NULL becomes an empty field. Several files from one query
    /// read the log once, and each column of a row is read from SQLite once, however many
    /// files write it (the timeline's rows feed four).
    static func addRows(_ db: Database, sql: String, arguments: StatementArguments, to writers: inout [CSVWriter]) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let columns = Int32(statement.columnCount)
        let used = Set(writers.flatMap { w in w.picks + (w.onlyRowsOf.map { [$0.column] } ?? []) }).sorted()
        precondition(used.allSatisfy { $0 < columns }, "picks within the query's columns")
        var fields = [Field](repeating: Field(), count: Int(columns))
        let raw = statement.sqliteStatement
        let rows = try Row.fetchCursor(statement)
        while try rows.next() != nil {
            // The cursor has just stepped this statement: read its current row directly.
            for column in used { fields[Int(column)] = Field(raw, column) }
            for w in writers.indices { writers[w].addRow(fields) }
        }
    }

    /// One column of the current row: SQLite's text (nil for NULL), valid until the next step.
    struct Field {
        var text: UnsafePointer<UInt8>?
        var count = 0
        /// No byte of it needs quotes (C's strcspn, faster than a byte loop on ten years of events).
        var plain = true

        init() {}

        init(_ raw: SQLiteStatement, _ column: Int32) {
            // SQLite's text ends in a NUL, for strcspn; its length is asked after it, as SQLite advises.
            guard let t = sqlite3_column_text(raw, column) else { return }
            text = t
            count = Int(sqlite3_column_bytes(raw, column))
            plain = t.withMemoryRebound(to: CChar.self, capacity: count + 1) { strcspn($0, ",\"\r\n") } == count
        }

        var utf8: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: text, count: count) }
    }

    private mutating func addRow(_ fields: [Field]) {
        if let only = onlyRowsOf {
            let f = fields[Int(only.column)]
            guard let t = f.text, f.count == only.text.count, memcmp(t, only.text, f.count) == 0 else { return }
        }
        let picks = picks, freeText = freeText // not `self`'s, which `write` changes
        var room = 2
        for column in picks { room += 1 + Self.room(fields[Int(column)].count) }
        write(upTo: room) { out in
            var n = 0
            for (position, column) in zip(Int32(0)..., picks) {
                n += Self.separate(position > 0, out + n)
                let f = fields[Int(column)]
                guard f.text != nil else { continue } // SQL NULL: an empty field
                n += Self.field(f.utf8, neutralise: position == freeText && startsLikeFormula(f.utf8), plain: f.plain, into: out + n)
            }
            return n + Self.endRow(out + n)
        }
        atRowStart = true
    }

    /// `body` writes at most `count` bytes and says how many it wrote; they are appended.
    private mutating func write(upTo count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if scratch.count < count { scratch = [UInt8](repeating: 0, count: 2 * count) }
        scratch.withUnsafeMutableBufferPointer { room in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: room[..<body(room.baseAddress!)]))
        }
    }

    /// The most bytes a field of `count` bytes takes: every byte a doubled quote, the two
    /// quotes around them and the apostrophe in front.
    private static func room(_ count: Int) -> Int { 2 * count + 3 }

    private static func separate(_ comma: Bool, _ out: UnsafeMutablePointer<UInt8>) -> Int {
        if comma { out.pointee = 0x2C } // ,
        return comma ? 1 : 0
    }

    private static func endRow(_ out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x0D // CR
        out[1] = 0x0A // LF
        return 2
    }

    /// Writes one field at `out` and returns its length. `neutralise` puts a single quote in
    /// front, so a spreadsheet shows the text instead of running it. `plain`: the caller knows
    /// the field needs no quotes (C's strcspn saw none of `needsQuoting`'s bytes).
    private static func field(_ utf8: UnsafeBufferPointer<UInt8>, neutralise: Bool = false, plain: Bool = false,
                              into out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        func put(_ byte: UInt8) {
            out[n] = byte
            n += 1
        }
        guard !plain && utf8.contains(where: needsQuoting) else {
            if neutralise { put(0x27) } // '
            if let base = utf8.baseAddress { (out + n).update(from: base, count: utf8.count) }
            return n + utf8.count
        }
        put(0x22)
        if neutralise { put(0x27) }
        for byte in utf8 {
            if byte == 0x22 { put(0x22) }
            put(byte)
        }
        put(0x22)
        return n
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
