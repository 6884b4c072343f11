@testable import BoxDaemon
import Foundation
import Testing

/// One boxd per state directory, with the lock outside it (#29): a state directory that
/// cannot be written never stops the start, and two boxd on one directory still cannot run.
@Suite struct StateLockTests {
    /// A runtime directory of the test's own, as systemd's RuntimeDirectory= would give.
    static func withRuntimeDir(_ body: ([String: String], URL) throws -> Void) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString.prefix(8))")
        let runtime = base.appendingPathComponent("run")
        let state = base.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try body(["RUNTIME_DIRECTORY": runtime.path], state)
    }

    @Test func aSecondBoxdOnTheSameDirectoryIsRefusedAndNamesTheFirst() throws {
        try Self.withRuntimeDir { env, state in
            let first = try StateDirectoryLock.acquire(state, environment: env)
            #expect(first.path.hasPrefix(env["RUNTIME_DIRECTORY"]!), "the lock lives in the runtime directory: \(first.path)")
            let error = #expect(throws: StateDirectoryLock.Held.self) { try StateDirectoryLock.acquire(state, environment: env) }
            #expect(error?.description.contains("pid \(getpid())") == true, "\(String(describing: error))")
            // Another path to the same directory is the same directory.
            let link = state.deletingLastPathComponent().appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: state)
            #expect(throws: StateDirectoryLock.Held.self) { try StateDirectoryLock.acquire(link, environment: env) }
            // Another directory is not.
            let other = state.deletingLastPathComponent().appendingPathComponent("other")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            _ = try StateDirectoryLock.acquire(other, environment: env)
            withExtendedLifetime(first) {}
        }
    }

    /// A boxd from another environment (its runtime directory elsewhere) still meets the
    /// state directory's own lock wherever that directory can be written, as before.
    @Test func theStateDirectorysOwnLockStillGuardsAcrossRuntimeDirectories() throws {
        try Self.withRuntimeDir { env, state in
            let first = try StateDirectoryLock.acquire(state, environment: env)
            let elsewhere = state.deletingLastPathComponent().appendingPathComponent("run2")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            #expect(throws: StateDirectoryLock.Held.self) {
                try StateDirectoryLock.acquire(state, environment: ["RUNTIME_DIRECTORY": elsewhere.path])
            }
            withExtendedLifetime(first) {}
        }
    }

    /// A state directory where nothing can be created (here a path under /dev/null: no mount
    /// needed, root or not) takes the lock all the same; a second boxd is still refused.
    @Test func anUnwritableStateDirectoryDoesNotStopTheLock() throws {
        try Self.withRuntimeDir { env, _ in
            let unwritable = URL(fileURLWithPath: "/dev/null/state")
            let lock = try StateDirectoryLock.acquire(unwritable, environment: env)
            #expect(lock.fds.count == 1, "only the runtime lock: the directory's own cannot be opened")
            #expect(throws: StateDirectoryLock.Held.self) { try StateDirectoryLock.acquire(unwritable, environment: env) }
        }
    }

    @Test func theLockIsFreedWhenItsHolderGoesAway() throws {
        try Self.withRuntimeDir { env, state in
            do { _ = try StateDirectoryLock.acquire(state, environment: env) }
            _ = try StateDirectoryLock.acquire(state, environment: env)
        }
    }

    /// The name: one per real path, any length fits a file name.
    @Test func theLockNameIsAHashOfTheRealPath() {
        let a = StateDirectoryLock.lockName(forRealPath: "/var/lib/boxd")
        #expect(a == StateDirectoryLock.lockName(forRealPath: "/var/lib/boxd"))
        #expect(a != StateDirectoryLock.lockName(forRealPath: "/var/lib/boxd2"))
        #expect(a.hasPrefix("boxd-state-") && a.hasSuffix(".lock") && a.count == "boxd-state-".count + 16 + 5)
        #expect(StateDirectoryLock.lockName(forRealPath: "/" + String(repeating: "x", count: 4000)).count == a.count)
    }
}
