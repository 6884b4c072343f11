import Foundation
import Testing
@testable import DoseCore

/// The night log's ids keep their form when boxd makes them without Foundation's text.
@Suite struct UUIDTextTests {
    @Test func aKnownUUIDIsWrittenInLowercaseWithItsFourDashes() throws {
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(id.lowercaseText == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        let edges = try #require(UUID(uuidString: "00000000-0000-0000-0000-00000000000A"))
        #expect(edges.lowercaseText == "00000000-0000-0000-0000-00000000000a")
        let top = try #require(UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"))
        #expect(top.lowercaseText == "ffffffff-ffff-ffff-ffff-ffffffffffff")
    }

    @Test func everyRandomUUIDReadsAsFoundationWritesIt() {
        for _ in 0..<1000 {
            let id = UUID()
            #expect(id.lowercaseText == id.uuidString.lowercased())
            #expect(UUID(uuidString: id.lowercaseText) == id)
        }
    }
}
