// dosetap-box: boxd, boxctl and boxd-mqtt in one program, chosen by the name it is called by
// (as busybox does). The package installs it once, with the three names as links to it, so
// the Swift runtime, Foundation and ICU are in the package once instead of three times.
// Each program keeps its own code, options, man page and unit; the bridge still depends on
// no module of the daemon's (PackageGraphTests).
import ArgumentParser
import BoxctlCommand
import BoxdCommand
import BridgeCommand

#if canImport(Glibc)
import Glibc
#endif

/// dosetap-box under any other name, its own included: it says which names it answers to.
/// ArgumentParser's --help and --experimental-dump-help answer too (`swift package
/// generate-manual` runs every program of the package with the latter).
struct OtherName: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dosetap-box",
        abstract: "boxd, boxctl and boxd-mqtt in one program: run it by one of those names.",
        discussion: "The package installs it as /usr/lib/dosetap-box/dosetap-box, with /usr/bin/boxd, /usr/bin/boxctl and /usr/bin/boxd-mqtt as links to it; each runs the program of its name.")

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    static var called: String {
        CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
    }

    func run() throws {
        let text = "dosetap-box: run me as boxd, boxctl or boxd-mqtt (a link of that name), not as \(Self.called.isEmpty ? "nothing" : Self.called)\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        throw ExitCode(2)
    }
}

switch OtherName.called {
case "boxd":
    Boxd.start()
case "boxctl":
    Boxctl.main()
case "boxd-mqtt":
    BoxdMQTT.main()
default:
    OtherName.main()
}
