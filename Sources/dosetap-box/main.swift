// dosetap-box: boxd, boxctl and boxd-mqtt in one program, chosen by the name it is called by
// (as busybox does). The package installs it once, with the three names as links to it, so
// the Swift runtime, Foundation and ICU are in the package once instead of three times.
// Each program keeps its own code, options, man page and unit; the bridge still depends on
// no module of the daemon's (PackageGraphTests).
import BoxctlCommand
import BoxdCommand
import BridgeCommand

#if canImport(Glibc)
import Glibc
#endif

let called = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
switch called {
case "boxd":
    await Boxd.runAsMain()
case "boxctl":
    Boxctl.main()
case "boxd-mqtt":
    BoxdMQTT.main()
default:
    let text = "dosetap-box: run me as boxd, boxctl or boxd-mqtt (a link of that name), not as \(called.isEmpty ? "nothing" : called)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
