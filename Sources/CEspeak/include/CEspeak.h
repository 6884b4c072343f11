// espeak-ng 1.51 or later (Debian's libespeak-ng1): the box's voice, synthesised on the box.
// Its functions are espeak.c's, which load the library when first called (boxd only).
#include <espeak-ng/speak_lib.h>

/// NULL once libespeak-ng.so.1 is loaded; else why it could not be.
const char *box_espeak_unavailable(void);
