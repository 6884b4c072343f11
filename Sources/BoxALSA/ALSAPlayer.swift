import CALSA
import BoxHardware
