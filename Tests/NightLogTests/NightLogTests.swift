import Testing
@testable import NightLog
