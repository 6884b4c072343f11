#include <alsa/asoundlib.h>
