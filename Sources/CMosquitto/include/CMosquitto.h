// libmosquitto 2.0 (Debian's libmosquitto1), the MQTT client the caregiver bridge publishes with.
// Its functions are mosquitto.c's, which load the library when first called (boxd-mqtt only).
#include <mosquitto.h>

/// NULL once libmosquitto.so.1 is loaded; else why it could not be.
const char *box_mosquitto_unavailable(void);
