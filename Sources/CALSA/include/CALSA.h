// alsa-lib (Debian's libasound2, libasound2t64 on trixie): the tones' and the voice's player.
// The functions BoxALSA calls are alsa.c's, which load the library when first called (dlopen)
// instead of it being linked: boxctl, which never plays a sound, then does not load it.
#include <alsa/asoundlib.h>

/// NULL once libasound.so.2 is loaded; else why it could not be.
const char *calsa_unavailable(void);

/// alsa-lib prints its own diagnostics to stderr. A player that retries a missing device every
/// few seconds would fill the journal with them, and the useful one ("Cannot get card index
/// for 99") never reaches the fault message. This installs, for the whole process (alsa-lib
/// has one handler), one that keeps the first message since the last reset, per thread, so the
/// caller can quote it. 0, or alsa-lib's error (-ELIBACC without the library).
int calsa_capture_errors(void);

void calsa_error_reset(void);

/// The first alsa-lib message on this thread since the last reset; "" if none. Without the
/// library, why it could not be loaded.
const char *calsa_error_text(void);
