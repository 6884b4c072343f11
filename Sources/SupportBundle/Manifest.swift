import Foundation

/// What a bundle holds, shown to the person before it leaves the box (the seed's "required
/// user review"): each file, its size, what was taken out of it, and its first lines.
public struct Manifest: Sendable {
    public struct File: Sendable, Hashable {
        public var name: String
        public var what: String
        public var bytes: Int
        public var redactions: [String: Int]
        public var firstLines: [String]
        public init(name: String, what: String, text: String, redactions: [String: Int], preview: Int = 3) {
            self.name = name
            self.what = what
            bytes = text.utf8.count
            self.redactions = redactions
            firstLines = Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(preview).map(String.init))
        }
    }

    public var files: [File]
    public init(files: [File]) { self.files = files }

    /// The review text: nothing here is sent anywhere; the person reads it and decides.
    public var text: String {
        var lines: [String] = []
        for f in files {
            let taken = f.redactions.isEmpty ? "nothing redacted"
                : "redacted: " + f.redactions.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            lines.append("\(f.name) (\(f.bytes) bytes): \(f.what); \(taken)")
            for l in f.firstLines { lines.append("    | " + (l.count > 110 ? String(l.prefix(110)) + "…" : l)) }
        }
        return lines.joined(separator: "\n")
    }
}
