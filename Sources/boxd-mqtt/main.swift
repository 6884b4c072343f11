// boxd-mqtt on its own, for development (`swift run boxd-mqtt`) and the tests; the package
// ships the multi-call dosetap-box instead (Sources/dosetap-box).
import BridgeCommand

BoxdMQTT.main()
