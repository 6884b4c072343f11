import Foundation

/// Invalid TOML the bundled parser (toml++ inside TOMLKit) does not refuse cleanly,
/// found by fuzzing (Tests/Fuzz), refused here first with line and column:
/// - a table header whose name does not start with a key character or a quote (`[=]`, `[#box]`,
///   `[[[a]]]`, `[é]`, a line with only `[`): toml++ 3 fails an assertion and aborts the whole
///   process (boxd died at start instead of naming the line; built with NDEBUG it would be
///   undefined behaviour). toml++ fixed the `[[[` case upstream (marzer/tomlplusplus#301); the
///   TOMLKit release we use bundles an older toml++.
/// - a `}` where an array's next value should be (`x = [}`, `x = [1, }`): an assertion again.
/// - a malformed date-time (`1979-05-27Te:32:00Z`, `1979-05-27 7#`): an assertion again. No key
///   in boxd.toml takes a date or time, so a value that starts as a date (a digit, later a '-') is
///   refused, and so is any ':' outside strings and comments (in TOML only a time has one).
/// - a control character other than tab, newline or carriage return, which TOML allows nowhere
///   (not even in a comment or a string): TOMLKit hands the text over as a C string, so a NUL
///   silently cut the file short, and anything after it was never read.
enum TOMLPrecheck {
    struct Problem: Error, Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// Bare key characters (A-Za-z0-9_-) and the quotes that start a quoted key.
    static func startsKey(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-", "\"", "'": true
        default: false
        }
    }

    static func isForbiddenControl(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || c.value == 0x7F
    }

    /// Walks the text as TOML's lexer would, only far enough to know where a line starts a
    /// statement (outside strings and multi-line arrays), which is where a `[` opens a header.
    static func check(_ text: String) throws(Problem) {
        let s = Array(text.unicodeScalars)
        var i = 0, line = 1, lineStart = 0
        if s.first == "\u{FEFF}" { i = 1; lineStart = 1 } // toml++ skips a byte-order mark that starts the text
        var open: [Unicode.Scalar] = [] // the [ and { of the value being read
        var expectElement = false // after an array's [ or a comma in it: a value or ] must come
        var atStatement = true // only whitespace so far on a line at depth 0
        func peek(_ k: Int) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }
        func problem(_ message: String) -> Problem { Problem(line: line, column: i - lineStart + 1, message: message) }
        // A string from its opening quote(s) to past its closing ones; newlines only when multi-line.
        func skipString(_ quote: Unicode.Scalar) throws(Problem) {
            let multi = peek(1) == quote && peek(2) == quote
            i += multi ? 3 : 1
            while i < s.count {
                let c = s[i]
                if isForbiddenControl(c) { throw problem(controlMessage(c)) }
                if c == "\n" {
                    guard multi else { return } // unterminated: the parser says so
                    i += 1; line += 1; lineStart = i
                    continue
                }
                if quote == "\"" && c == "\\" { // an escape: the next character is never the closing quote
                    i += 1
                    if let e = peek(0), e != "\n" {
                        if isForbiddenControl(e) { throw problem(controlMessage(e)) }
                        i += 1
                    }
                    continue
                }
                if c == quote {
                    if !multi { i += 1; return }
                    if peek(1) == quote && peek(2) == quote {
                        i += 3
                        while i < s.count && s[i] == quote { i += 1 } // up to two quotes may end the content
                        return
                    }
                }
                i += 1
            }
        }
        while i < s.count {
            let c = s[i]
            if isForbiddenControl(c) { throw problem(controlMessage(c)) }
            switch c {
            case "\n":
                line += 1; i += 1; lineStart = i
                if open.isEmpty { atStatement = true }
                continue
            case " ", "\t", "\r":
                i += 1
                continue
            case "#":
                while i < s.count && s[i] != "\n" {
                    if isForbiddenControl(s[i]) { throw problem(controlMessage(s[i])) }
                    i += 1
                }
                continue
            case "\"", "'":
                try skipString(c)
                expectElement = false
            case "[" where atStatement:
                i += 1
                if peek(0) == "[" { i += 1 }
                while let w = peek(0), w == " " || w == "\t" { i += 1 }
                if let k = peek(0), k != "]", !startsKey(k) {
                    throw problem(k == "\n" || k == "\r" ? "a table header needs a name before the end of the line"
                        : "a table name must start with a letter, a digit, _, - or a quote, not \(shown(k))")
                }
                // The rest of the header line is the parser's to judge; it has no multi-line parts.
                while i < s.count && s[i] != "\n" {
                    if isForbiddenControl(s[i]) { throw problem(controlMessage(s[i])) }
                    i += 1
                }
                continue
            case "[", "{":
                open.append(c); i += 1
                expectElement = c == "["
            case "]", "}":
                if c == "}" && expectElement { throw problem("expected a value or ']' in an array, saw '}'") }
                _ = open.popLast(); i += 1
                expectElement = false
            case ",":
                i += 1
                expectElement = open.last == "["
            case ":":
                throw problem("':' outside a string: in TOML only a time has one, and boxd.toml takes no dates or times (quote text)")
            case "0"..."9" where isDate(at: i, in: s):
                throw problem("a date: boxd.toml takes no dates or times (quote text)")
            default:
                i += 1
                expectElement = false
            }
            atStatement = false
        }
    }

    /// A value that starts with a digit and has a '-' after it (not an exponent's, 1e-5): a date to
    /// toml++ (1979-05-27), which scans the whole value, whatever its characters; no number has that shape.
    static func isDate(at i: Int, in s: [Unicode.Scalar]) -> Bool {
        if i > 0, startsKey(s[i - 1]) || s[i - 1] == "." || s[i - 1] == "+" { return false } // inside a word or number
        var j = i + 1 // to the value's end as toml++ scans it: any character up to a terminator
        while j < s.count, !" \t\r\n,]}#=\"'".unicodeScalars.contains(s[j]) {
            if s[j] == "-" && s[j - 1] != "e" && s[j - 1] != "E" { return true }
            j += 1
        }
        return false
    }

    static func controlMessage(_ c: Unicode.Scalar) -> String {
        "control character \(shown(c)) (TOML allows only tab and line breaks; write it as an escape inside a string)"
    }

    static func shown(_ c: Unicode.Scalar) -> String {
        c.properties.generalCategory == .control || c == " " ? String(format: "U+%04X", c.value) : "'\(c)'"
    }
}
