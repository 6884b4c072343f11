// boxd on its own, for development (`swift run boxd`) and the tests; the package ships
// the multi-call dosetap-box instead (Sources/dosetap-box).
import BoxdCommand

Boxd.start()
