// SwiftPM gives an executable target a main of its own (on Linux, main is an alias of the
// module's entry point), so libFuzzer's main would never run: run libFuzzer's driver from here.
import BoxDaemon
import CLibFuzzer
import ConfigFile
import Foundation

// As boxd does, the harness parses each input in a child first (TOMLIsolation): itself, run
// again with the child's flag, which parses the text on stdin and exits before libFuzzer starts.
let args = CommandLine.arguments
if let i = args.firstIndex(of: TOMLIsolation.childFlag) {
    TOMLIsolation.runChild(path: i + 1 < args.count ? args[i + 1] : "")
}

var argc = CommandLine.argc
var argv = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    fuzz(data ?? UnsafePointer(bitPattern: 1)!, size)
})
