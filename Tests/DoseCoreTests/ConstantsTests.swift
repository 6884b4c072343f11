import Testing
import Foundation
@testable import DoseCore

@Test func embeddedDecodes() {
    #expect(DoseConstants.box.window.openMin == 150)
}
