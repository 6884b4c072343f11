import CGPIOD
import BoxHardware
