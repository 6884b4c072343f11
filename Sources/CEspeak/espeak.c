// espeak-ng's functions that BoxVoice calls, each loading libespeak-ng.so.1 on first use
// (dlopen) instead of being linked: boxd, boxctl and boxd-mqtt are one program (#34), and only
// boxd speaks. Linked, the library and the 30-odd it loads (PulseAudio's client, X11, codecs)
// would be mapped and relocated at every `boxctl status`.
#include "CBoxSys.h"
#include <pthread.h>
// Hidden, from here: the program exports its symbols (--export-dynamic), and the library's own
// calls of its exported functions must reach the library, not these. (pthread_once, above, is libc's.)
#pragma GCC visibility push(hidden)
#include "CEspeak.h"

#define FUNCTIONS(X) X(espeak_Initialize) X(espeak_ListVoices) X(espeak_SetSynthCallback) \
    X(espeak_SetVoiceByName) X(espeak_Synchronize) X(espeak_Synth) X(espeak_TextToPhonemes)
BOX_LIBRARY("libespeak-ng.so.1", FUNCTIONS)
const char *box_espeak_unavailable(void) { return loaded() ? NULL : failure; }

int espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options) {
    return BOX_CALL(espeak_Initialize, EE_INTERNAL_ERROR, output, buflength, path, options);
}
const espeak_VOICE **espeak_ListVoices(espeak_VOICE *voice_spec) {
    return BOX_CALL(espeak_ListVoices, NULL, voice_spec);
}
void espeak_SetSynthCallback(t_espeak_callback *callback) {
    if (loaded()) lib.fn.espeak_SetSynthCallback(callback);
}
espeak_ERROR espeak_SetVoiceByName(const char *name) {
    return BOX_CALL(espeak_SetVoiceByName, EE_INTERNAL_ERROR, name);
}
espeak_ERROR espeak_Synchronize(void) {
    return BOX_CALL(espeak_Synchronize, EE_INTERNAL_ERROR);
}
espeak_ERROR espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,
                          unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data) {
    return BOX_CALL(espeak_Synth, EE_INTERNAL_ERROR, text, size, position, position_type, end_position, flags, unique_identifier, user_data);
}
const char *espeak_TextToPhonemes(const void **textptr, int textmode, int phonememode) {
    return BOX_CALL(espeak_TextToPhonemes, NULL, textptr, textmode, phonememode);
}

#pragma GCC visibility pop
