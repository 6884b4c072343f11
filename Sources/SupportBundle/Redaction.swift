import Foundation

/// SSOT 2.4.3 (the v2.4.3 fix of the support bundle's claim): "PII minimized with automatic
/// redaction + required user review". What a support bundle's text may not carry, replaced
/// by a placeholder and counted, so the review can say what was taken out.
public struct Redaction: Sendable {
    public struct Result: Sendable, Hashable {
        public var text: String
        /// Replacements by kind ("ip address": 3), for the manifest.
        public var counts: [String: Int]
    }

    /// The machine's own names: its hostname and the users of its home directories.
    public var hostname: String?
    public var users: [String]

    public init(hostname: String?, users: [String]) {
        self.hostname = hostname
        self.users = users
    }

    /// The rules, in order: the names first (an e-mail address may hold one), then patterns.
    public func redact(_ text: String) -> Result {
        var out = text
        var counts: [String: Int] = [:]
        func replace(_ pattern: String, _ placeholder: String, _ kind: String, options: NSRegularExpression.Options = []) {
            guard let re = try? NSRegularExpression(pattern: pattern, options: options) else { return }
            let range = NSRange(out.startIndex..., in: out)
            let n = re.numberOfMatches(in: out, range: range)
            guard n > 0 else { return }
            out = re.stringByReplacingMatches(in: out, range: range, withTemplate: placeholder)
            counts[kind, default: 0] += n
        }
        replace(#"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#, "<email>", "e-mail address")
        replace(#"/home/[^/\s:]+"#, "/home/<user>", "home directory")
        for user in users where user.count >= 3 {
            replace(#"\b"# + NSRegularExpression.escapedPattern(for: user) + #"\b"#, "<user>", "user name")
        }
        // A host name as short as "vm" is still the machine's; a user name that short ("al")
        // is too often a word, and stays.
        if let hostname, hostname.count >= 2 {
            replace(#"\b"# + NSRegularExpression.escapedPattern(for: hostname) + #"\b"#, "<host>", "host name", options: .caseInsensitive)
        }
        replace(#"\b(?:\d{1,3}\.){3}\d{1,3}\b"#, "<ip>", "ip address")
        replace(#"\b(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}\b"#, "<mac>", "hardware address")
        replace(#"(?i)(password|passwd|secret|token)(\s*[=:]\s*)\S+"#, "$1$2<secret>", "secret")
        return Result(text: out, counts: counts)
    }
}
