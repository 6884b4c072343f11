/// One character replaced throughout a text, by the standard library alone.
///
/// Foundation's `replacingOccurrences(of:with:)` goes through NSString: a `boxctl status`
/// spent 1.4 M of its 34 M instructions on two of them (#34). Scalars, not Characters, are
/// compared: a quote followed by a combining mark is one Character, yet still a quote to a CSV
/// reader, and must be doubled (Foundation's version, comparing Characters, left it single).
extension StringProtocol {
    public func replacingEvery(_ scalar: Unicode.Scalar, with replacement: String) -> String {
        guard unicodeScalars.contains(scalar) else { return String(self) }
        var out = String.UnicodeScalarView()
        for s in unicodeScalars {
            if s == scalar { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(s) }
        }
        return String(out)
    }
}
