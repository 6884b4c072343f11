// boxctl on its own, for development (`swift run boxctl`) and the tests; the package ships
// the multi-call dosetap-box instead (Sources/dosetap-box).
import BoxctlCommand

Boxctl.main()
