// libmosquitto 2.0 (Debian's libmosquitto-dev), the MQTT client the caregiver bridge publishes with.
#include <mosquitto.h>
