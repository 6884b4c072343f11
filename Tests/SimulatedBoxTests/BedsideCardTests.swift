import Foundation
import Testing
import TestSupport

/// #32: the bedside card is one printable page. `scripts/print-card` renders it (cmark-gfm,
/// docs/print.css) and prints it with headless Chromium, as a user would; the PDF must hold
/// exactly one page.
@Suite struct BedsideCardTests {
    @Test func theCardPrintsOnOnePage() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("card-\(UUID().uuidString.prefix(8)).pdf")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try ChildProcess.run(Repository.root.appendingPathComponent("scripts/print-card"), [out.path])
        #expect(r.exit == 0, "\(r.out)\(r.err)")
        let pdf = try Data(contentsOf: out)
        let text = String(decoding: pdf, as: UTF8.self)
        let pages = try NSRegularExpression(pattern: #"/Type\s*/Page(?!s)"#)
            .numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(pages == 1, "\(pages) pages: the card must fit one page (\(r.out))")
    }

    /// The button's table has a column per gesture the recogniser names, the skip's long hold
    /// included.
    @Test func theButtonTableHasEveryGesture() throws {
        let card = try String(contentsOf: Repository.root.appendingPathComponent("docs/bedside-card.md"), encoding: .utf8)
        #expect(card.contains("| When | Press | Double | Hold 1 s | Hold 2 s | Hold 3 s |"))
        for row in ["No dose yet tonight", "150–240 min (the window)", "After the skip hold", "After 240 min (closed)",
                    "Dose 2 taken or skipped", "Morning, from 07:00", "During the check-in"] {
            #expect(card.contains("| \(row)"), "no row for \(row)")
        }
    }
}
