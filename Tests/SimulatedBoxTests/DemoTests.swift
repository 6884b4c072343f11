import Foundation
import Testing

/// Issue 19 item 12: the demo does what the README says.
@Suite(.serialized) struct DemoTests {
    static func run(_ executable: String, _ args: [String], stdin: Data? = nil) throws -> (exit: Int32, out: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        let input = Pipe()
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    /// Without a terminal: Dose 1, a whole night, and the temporary state directory is gone afterwards.
    @Test func aNightWithoutATerminalLeavesNothingBehind() throws {
        let r = try Self.run(BoxRig.boxd.path, ["--demo", "--speed", "100000", "--audio", "wav"])
        #expect(r.exit == 0, "\(r.out)")
        #expect(r.out.contains("sound success"))
        #expect(r.out.contains("Night over"))
        let socket = r.out.components(separatedBy: "Socket: ").dropFirst().first?.split(separator: "\n").first.map(String.init) ?? ""
        let dir = (socket as NSString).deletingLastPathComponent
        #expect(dir.contains("boxd-demo-"), "\(r.out)")
        #expect(!FileManager.default.fileExists(atPath: dir), "\(dir) was left behind")
    }

    /// In a terminal nothing is taken until the person presses space: q quits with no dose.
    @Test func inATerminalTheDemoWaitsForTheButton() throws {
        let cmd = "\(BoxRig.boxd.path) --demo --speed 60 --audio wav"
        let r = try Self.run("/usr/bin/script", ["-qec", cmd, "/dev/null"], stdin: Data("q".utf8))
        #expect(r.out.contains("Keys: space"), "\(r.out)")
        #expect(!r.out.contains("sound success"), "the demo took a dose by itself: \(r.out)")
    }
}
