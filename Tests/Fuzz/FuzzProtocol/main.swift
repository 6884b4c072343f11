// SwiftPM gives an executable target a main of its own (on Linux, main is an alias of the
// module's entry point), so libFuzzer's main would never run: run libFuzzer's driver from here.
import CLibFuzzer
import Foundation

var argc = CommandLine.argc
var argv = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    fuzz(data ?? UnsafePointer(bitPattern: 1)!, size)
})
