import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real mosquitto broker on 127.0.0.1 for one test: a free port, a password file made by
/// `mosquitto_passwd`, and (with `tls`) a TLS listener whose CA and certificate `openssl`
/// makes here. Ready when the broker says it is running (its log, read with a deadline).
public final class TestBroker: @unchecked Sendable {
    public static let user = "caregiver"
    public static let password = "s3cret-night"

    public let dir: URL
    public let port: Int
    public let tls: Bool
    private var process: Process?

    public var caFile: String { dir.appendingPathComponent("ca.crt").path }
    /// A CA that signed nothing this broker shows: a client trusting it must refuse the broker.
    public var otherCAFile: String { dir.appendingPathComponent("other-ca.crt").path }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// `persistent`: the broker keeps sessions and queued messages across a clean `stop()`
    /// (a broker restarted for maintenance), so a subscriber with a session misses nothing.
    /// `acl`: the text of an acl_file (what each user may read and write), or nil: anything goes.
    public init(tls: Bool, persistent: Bool = false, acl: String? = nil) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        port = try Self.freePort()
        self.tls = tls
        try run("/usr/bin/mosquitto_passwd", ["-b", "-c", dir.appendingPathComponent("passwd").path, Self.user, Self.password])
        if tls { try makeCertificates() }
        var conf = """
            per_listener_settings false
            allow_anonymous false
            password_file \(dir.appendingPathComponent("passwd").path)
            persistence \(persistent)
            persistence_location \(dir.path)/
            log_dest stderr
            log_type error
            log_type warning
            log_type notice
            log_type information
            listener \(port) 127.0.0.1

            """
        if let acl {
            try acl.write(to: dir.appendingPathComponent("acl"), atomically: true, encoding: .utf8)
            conf += "acl_file \(dir.appendingPathComponent("acl").path)\n"
        }
        if getuid() == 0 { conf += "user root\n" } // as root it would switch to user mosquitto, who cannot read these files
        if tls {
            conf += "cafile \(caFile)\ncertfile \(dir.appendingPathComponent("server.crt").path)\nkeyfile \(dir.appendingPathComponent("server.key").path)\n"
        }
        try conf.write(to: dir.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts (or starts again, on the same port) and returns once the broker is running.
    public func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        p.arguments = ["-c", dir.appendingPathComponent("mosquitto.conf").path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try Self.withSignalsUnblocked { try p.run() }
        process = p
        let log = LineReader(fd: err.fileHandleForReading.fileDescriptor)
        var seen: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while !(seen.last?.contains(" running") ?? false) {
            let left = deadline - ContinuousClock.now
            guard left > .zero, let line = log.line(within: Double(left.components.seconds) + 0.5) else {
                throw Failure(description: "mosquitto did not say it was running within 10 s: \(seen.joined(separator: "\n"))")
            }
            seen.append(line)
        }
        // Keep draining its log so the broker never blocks on a full pipe.
        err.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
    }

    /// Runs `body` (a spawn) with SIGTERM, SIGINT, SIGHUP and SIGALRM unblocked on this thread:
    /// the test runner blocks them and a child inherits the mask, so without this the broker
    /// could not be stopped cleanly or reloaded, and `mosquitto_sub -W` (an alarm) would wait for ever.
    static func withSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        var unblock = sigset_t(), saved = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTERM)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGHUP)
        sigaddset(&unblock, SIGALRM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        return try body()
    }

    /// Replaces the ACL and has the running broker read it again (SIGHUP).
    public func reload(acl: String) throws {
        try acl.write(to: dir.appendingPathComponent("acl"), atomically: true, encoding: .utf8)
        if let p = process { Glibc.kill(p.processIdentifier, SIGHUP) }
    }

    /// Stops the broker cleanly (SIGTERM): it saves its sessions when persistent.
    public func stop() { end(SIGTERM) }

    /// Stops the broker (SIGKILL: an outage, not a goodbye).
    public func kill() { end(SIGKILL) }

    private func end(_ signal: Int32) {
        guard let p = process else { return }
        Glibc.kill(p.processIdentifier, signal)
        p.waitUntilExit()
        (p.standardError as? Pipe)?.fileHandleForReading.readabilityHandler = nil
        process = nil
    }

    public func cleanup() {
        kill()
        try? FileManager.default.removeItem(at: dir)
    }

    /// The retained messages under `filter` as `mosquitto_sub -v` prints them ("topic payload"),
    /// read by a real subscriber that leaves once it has `count`.
    public func retained(_ filter: String, count: Int) throws -> [String] {
        var args = ["-h", "127.0.0.1", "-p", String(port), "-u", Self.user, "-P", Self.password, "-t", filter, "-v",
                    "-C", String(count), "-W", "10"]
        if tls { args += ["--cafile", caFile] }
        let out = try run("/usr/bin/mosquitto_sub", args)
        return out.split(separator: "\n").map(String.init).sorted()
    }

    /// Publishes one message as another client would (`mosquitto_pub`, QoS 1); `payload` nil
    /// with `retain` clears the topic's retained message.
    public func publish(_ topic: String, _ payload: String?, retain: Bool = false) throws {
        var args = ["-h", "127.0.0.1", "-p", String(port), "-u", Self.user, "-P", Self.password, "-t", topic, "-q", "1"]
        args += payload.map { ["-m", $0] } ?? ["-n"]
        if retain { args.append("-r") }
        if tls { args += ["--cafile", caFile] }
        try run("/usr/bin/mosquitto_pub", args)
    }

    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw Failure(description: "no free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    private func makeCertificates() throws {
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for ca in ["ca", "other-ca"] {
            try run("/usr/bin/openssl", ["req", "-x509"] + ec + ["-keyout", path("\(ca).key"), "-out", path("\(ca).crt"),
                                          "-days", "2", "-subj", "/CN=DoseTap test \(ca)"])
        }
        try run("/usr/bin/openssl", ["req"] + ec + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=localhost"])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: path("san.ext"), atomically: true, encoding: .utf8)
        try run("/usr/bin/openssl", ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
                                     "-CAcreateserial", "-out", path("server.crt"), "-days", "2", "-extfile", path("san.ext")])
    }

    @discardableResult
    private func run(_ exe: String, _ args: [String]) throws -> String {
        let r = try Self.withSignalsUnblocked { try ChildProcess.run(URL(fileURLWithPath: exe), args) }
        guard r.exit == 0 else { throw Failure(description: "\(exe) \(args.joined(separator: " ")) exited \(r.exit): \(r.err)") }
        return r.out
    }
}
