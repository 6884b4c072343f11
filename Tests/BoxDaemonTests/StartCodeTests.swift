import CBoxSys
import Foundation
import Testing

/// What boxd and boxd-mqtt do once ready (box_release_start_code): the program's read-only pages
/// unmapped, so that the start's code no longer counts in the night's memory, and nothing the
/// program wrote lost with them.
@Suite struct StartCodeTests {
    struct Mapping { var perms: String; var bytes: Int; var residentKB = 0; var writtenKB = 0 }

    /// This test program's mappings, as /proc/self/smaps lists them.
    static func programMappings() throws -> [Mapping] {
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var rows: [Mapping] = []
        var mine = false
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let first = fields.first else { continue }
            if !first.hasSuffix(":"), first.contains("-"), fields.count >= 5 {
                mine = fields.count >= 6 && fields[5] == exe
                let ends = first.split(separator: "-").compactMap { Int($0, radix: 16) }
                if mine { rows.append(Mapping(perms: String(fields[1]), bytes: ends[1] - ends[0])) }
            } else if mine, fields.count >= 2, let kb = Int(fields[1]) {
                if first == "Rss:" { rows[rows.count - 1].residentKB = kb }
                if first == "Anonymous:" { rows[rows.count - 1].writtenKB = kb } // copied on write
            }
        }
        return rows
    }

    @Test func theCodeIsUnmappedAndEveryPageTheProgramWroteStays() throws {
        let before = try Self.programMappings()
        let code = try #require(before.first { $0.perms == "r-xp" })
        let bytes = box_release_start_code()
        let after = try Self.programMappings()
        // All of the code's mapping but the pages it may share at its ends.
        #expect(bytes >= code.bytes - 2 * sysconf(Int32(_SC_PAGESIZE)))
        #expect(try #require(after.first { $0.perms == "r-xp" }).residentKB < code.residentKB)
        // The pages the loader and the program wrote (relocated pointers, globals): an unmapped
        // one would come back as the file has it. Other tests running meanwhile only add to them.
        #expect(after.map(\.writtenKB).reduce(0, +) >= before.map(\.writtenKB).reduce(0, +))
        #expect(before.contains { $0.writtenKB > 0 })
    }
}
