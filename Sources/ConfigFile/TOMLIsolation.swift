import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a config file's text is parsed first.
///
/// toml++ (bundled in TOMLKit 0.6.0) fails an `assert` and aborts the whole process on some
/// malformed TOML. Fuzzing (Tests/Fuzz) kept finding new shapes; `TOMLPrecheck` names the known
/// ones with line and column, but a list cannot be complete. So boxd parses a file's text in a
/// child process first: if the parser kills the child, boxd refuses the file with a clear error
/// and lives. The parse is deterministic, so text the child parsed to the end (accepted or
/// refused with a line) is then safe to parse again in boxd.
public enum TOMLIsolation: Sendable, Equatable {
    /// Text that cannot stop the parser (the embedded default) or a test: parse here.
    case inProcess
    /// Run `executable --vet-config-stdin PATH` with the text on stdin: it must exit 0.
    case child(executable: String)
    /// As `.child`, and a text the child got through is noted in the file `stamp` (`VettedStamp`):
    /// the same text read again by the same program (a restart, a reboot) is not vetted again,
    /// which takes a whole process start (some 10 ms) off boxd's. The note names this program,
    /// whose parser reads the text next: `executable` is this program run again.
    case remembered(executable: String, stamp: String)

    /// This program: it stays this binary while an upgrade replaces /usr/bin/boxd.
    static let thisProgram = "/proc/self/exe"
    /// boxd (or the bridge) itself, run again.
    public static let boxd = TOMLIsolation.child(executable: thisProgram)
    /// boxd itself, noting what it got through in `stateDirectory`.
    public static func boxd(rememberingIn stateDirectory: URL) -> TOMLIsolation {
        .remembered(executable: thisProgram, stamp: stateDirectory.appendingPathComponent(VettedStamp.fileName).path)
    }
    /// The child's flag (boxd's hidden option; the config fuzzer looks for it too).
    public static let childFlag = "--vet-config-stdin"
    /// The whole text is written into a pipe before the child starts, so it must fit the
    /// pipe's buffer (64 KiB on Linux); a boxd.toml is a few dozen lines.
    public static let maxBytes = 65_536
    /// How a parser dies by itself (abort, a trap, a bad access); a SIGKILL or SIGTERM came
    /// from outside (the OOM killer, a shutdown) and says nothing about the file.
    static let crashSignals: Set<Int32> = [SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE]
    /// The parser reads a small file in microseconds; a child still running after this is hung.
    /// Wall-clock time, and the child is a fresh process that loads the whole binary, which a
    /// starved machine can take seconds to schedule: a bound too tight refuses a good config.
    static let timeoutSeconds = 30.0

    /// Throws when the parser cannot read `text` to the end without dying. Does nothing `.inProcess`.
    /// `meanwhile` runs once the child is on its way (at once when there is none), so that work
    /// that needs no config does not wait for it; not when the child could not be started.
    ///
    /// Returns whether `voices` was asked for the text's `voice.language` and knew it (or the
    /// voice is off), by a forked child or by the note of one: then this process need not load
    /// espeak-ng (some 5 MB and 11 ms, #34) until it speaks. False when nothing was asked here
    /// (`.inProcess`, a child started anew, espeak-ng missing or the language unknown): the
    /// caller asks `voices` itself, as before, and words its answer.
    @discardableResult
    func vet(_ text: String, path: String?, voices: (any VoiceCatalog)? = nil,
             meanwhile: () -> Void = {}) throws(ConfigError) -> Bool {
        switch self {
        case .inProcess:
            meanwhile()
            return false
        case .child(let executable):
            return try Self.vetInChild(executable, text, path: path, voices: voices, meanwhile: meanwhile).voiceVouched
        case .remembered(let executable, let stamp):
            // A note without the voice (an older boxd's, or espeak-ng could not answer then) is
            // vetted again when there is a voice to ask about: the next note then has it.
            if let note = VettedStamp(text: text).recorded(at: stamp), note.voiceVouched || voices == nil {
                meanwhile()
                return note.voiceVouched
            }
            let (way, vouched) = try Self.vetInChild(executable, text, path: path, voices: voices, meanwhile: meanwhile)
            VettedStamp(text: text, way: way, voiceVouched: vouched).record(at: stamp)
            return vouched
        }
    }

    /// How the child came to be: a fork of this process, or this program started again.
    enum Way: String, CaseIterable {
        case fork
        case exec
    }

    /// The forked child's exit status when `voices` did not know the language, or could not tell.
    static let voiceUnknown: Int32 = 3
    static let voiceUnavailable: Int32 = 4

    private static func vetInChild(_ executable: String, _ text: String, path: String?, voices: (any VoiceCatalog)?,
                                   meanwhile: () -> Void) throws(ConfigError) -> (way: Way, voiceVouched: Bool) {
        let name = path ?? "config"
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maxBytes else {
            throw ConfigError("", "\(name): \(bytes.count) bytes is too large for a config (at most \(Self.maxBytes); a boxd.toml is a few dozen lines)")
        }
        let outcome: Outcome
        let way: Way = executable == thisProgram && isSingleThreaded() ? .fork : .exec
        do {
            let pid = way == .fork ? try Self.forkParsing(text, path: path, voices: voices)
                : try Self.spawn(executable, arguments: [Self.childFlag, path ?? ""], stdin: bytes)
            meanwhile()
            outcome = try Self.wait(for: pid)
        } catch {
            throw ConfigError("", "\(name): cannot check the file: \(error.reason)")
        }
        switch outcome {
        case .exited(0): return (way, voices != nil && way == .fork)
        case .exited(let code) where way == .fork && [voiceUnknown, voiceUnavailable].contains(code): return (way, false)
        case .exited(let code):
            throw ConfigError("", "\(name): cannot check the file: \(executable) \(Self.childFlag) exited with status \(code)")
        case .signalled(let signal) where Self.crashSignals.contains(signal):
            throw ConfigError("", "\(name): not valid TOML: the TOML parser gave up on this file (signal \(signal)) without naming a line; look for a table header, array, inline table or date that is not well formed")
        case .signalled(let signal):
            throw ConfigError("", "\(name): cannot check the file: \(executable) \(Self.childFlag) was killed by signal \(signal)")
        case .hung:
            throw ConfigError("", "\(name): not valid TOML: the TOML parser did not finish within \(Int(Self.timeoutSeconds)) s")
        }
    }

    /// Whether this process has one thread (`Threads:` of /proc/self/status). Only then may it
    /// fork a child that runs Swift: a lock another thread held at the fork would stay held in
    /// the child.
    static func isSingleThreaded() -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return false }
        return status.split(separator: "\n").contains("Threads:\t1")
    }

    /// The child as a fork(2) of this process: this program as it stands, so it parses at once
    /// (about a millisecond; a new process takes a whole start, some 14 ms). It dies as the parser
    /// makes it (the default action for every crash signal) or exits, and says nothing: 0, or
    /// `voiceUnknown` / `voiceUnavailable` when `voices` did not know the parsed config's language
    /// or could not tell (its answer comes with espeak-ng loaded here, never in the parent).
    static func forkParsing(_ text: String, path: String?, voices: (any VoiceCatalog)?) throws(SpawnError) -> pid_t {
        let pid = fork()
        guard pid >= 0 else { throw SpawnError("fork", errno) }
        guard pid == 0 else { return pid }
        for sig in crashSignals { signal(sig, nil) } // SIG_DFL: no handler of the parent's runs here
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, 1)
            dup2(null, 2)
        }
        let config = try? BoxConfig.parsePrechecked(text, path: path)
        guard let voices, let voice = config?.voice, voice.enabled else { _exit(0) }
        switch voices.hasVoice(voice.language) {
        case true?: _exit(0)
        case false?: _exit(voiceUnknown)
        case nil: _exit(voiceUnavailable)
        }
    }

    /// The child's side: parses the text on stdin as `BoxConfig.parse` does after the precheck
    /// (which the parent has run) and exits 0, whatever the verdict. Only dying says something.
    public static func runChild(path: String) -> Never {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        if let text = String(data: data, encoding: .utf8) {
            _ = try? BoxConfig.parsePrechecked(text, path: path.isEmpty ? nil : path)
        }
        exit(0)
    }

    enum Outcome: Equatable {
        case exited(Int32)
        case signalled(Int32)
        case hung
    }

    struct SpawnError: Error {
        var reason: String
        init(_ what: String, _ code: Int32) { reason = "\(what): \(String(cString: strerror(code)).lowercased())" }
    }

    /// posix_spawn with `stdin` fed from a pipe filled beforehand (so a child that dies early
    /// cannot raise SIGPIPE here), stdout and stderr to /dev/null (an assertion's text is not
    /// the user's business; the message above is), and an environment of one variable that
    /// keeps Swift's backtracer out of a crashing child.
    static func run(_ executable: String, arguments: [String], stdin bytes: [UInt8]) throws(SpawnError) -> Outcome {
        try wait(for: try spawn(executable, arguments: arguments, stdin: bytes))
    }

    static func spawn(_ executable: String, arguments: [String], stdin bytes: [UInt8]) throws(SpawnError) -> pid_t {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SpawnError("pipe", errno) }
        defer { close(fds[0]) }
        // Not inherited by anything else boxd starts (the dup2 below gives the child its stdin).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // A pipe smaller than the text must fail the write, not block it forever.
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        let writeErrno = errno
        close(fds[1])
        guard written == bytes.count else { throw SpawnError("pipe write", written < 0 ? writeErrno : EMSGSIZE) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // This program run again keeps the name it was called by: dosetap-box, the package's one
        // program, chooses boxd, boxctl or boxd-mqtt by it.
        let name = executable == thisProgram ? CommandLine.arguments.first ?? executable : executable
        let argv = ([name] + arguments).map { strdup($0) } + [nil]
        let envp = [strdup("SWIFT_BACKTRACE=enable=no"), nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard rc == 0 else { throw SpawnError("cannot start \(executable)", rc) }
        return pid
    }

    /// Until the child ends, or at most `timeoutSeconds` (then it is killed: hung).
    static func wait(for pid: pid_t) throws(SpawnError) -> Outcome {
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0, errno != EINTR { throw SpawnError("waitpid", errno) }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return .hung
            }
            usleep(500)
        }
        // <sys/wait.h>'s macros, which Swift does not import.
        let low = status & 0x7F
        if low == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(low)
    }
}
