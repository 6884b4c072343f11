// alsa-lib's functions that BoxALSA calls, each loading libasound.so.2 on first use (dlopen)
// instead of being linked: boxd, boxctl and boxd-mqtt are one program (#34), and only boxd
// plays. Linked, the loader mapped and relocated the library at every `boxctl status` (0.2 ms).
#include "CBoxSys.h"
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
// Hidden, from here: a program that links alsa-lib as well (the tests) must not lend the library
// these for its own calls of its exported functions. (pthread_once, above, is libc's.)
#pragma GCC visibility push(hidden)
#include "CALSA.h"

#define FUNCTIONS(X) X(snd_pcm_open) X(snd_pcm_close) X(snd_pcm_nonblock) X(snd_pcm_set_params) \
    X(snd_pcm_get_params) X(snd_pcm_drop) X(snd_pcm_prepare) X(snd_pcm_recover) X(snd_pcm_state) \
    X(snd_pcm_writei) X(snd_strerror) X(snd_lib_error_set_handler)
BOX_LIBRARY("libasound.so.2", FUNCTIONS)
const char *calsa_unavailable(void) { return loaded() ? NULL : failure; }

enum { CALSA_ERROR_TEXT_SIZE = 256 };
static __thread char error_text[CALSA_ERROR_TEXT_SIZE];

static void error_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    if (error_text[0] != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error_text, CALSA_ERROR_TEXT_SIZE, fmt, ap);
    va_end(ap);
}

int calsa_capture_errors(void) { return BOX_CALL(snd_lib_error_set_handler, -ELIBACC, error_handler); }
void calsa_error_reset(void) { error_text[0] = 0; }
const char *calsa_error_text(void) { return loaded() ? error_text : failure; }

int snd_pcm_open(snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode) {
    return BOX_CALL(snd_pcm_open, -ELIBACC, pcm, name, stream, mode);
}
int snd_pcm_close(snd_pcm_t *pcm) { return BOX_CALL(snd_pcm_close, -ELIBACC, pcm); }
int snd_pcm_nonblock(snd_pcm_t *pcm, int nonblock) { return BOX_CALL(snd_pcm_nonblock, -ELIBACC, pcm, nonblock); }
int snd_pcm_set_params(snd_pcm_t *pcm, snd_pcm_format_t format, snd_pcm_access_t access, unsigned int channels,
                       unsigned int rate, int soft_resample, unsigned int latency) {
    return BOX_CALL(snd_pcm_set_params, -ELIBACC, pcm, format, access, channels, rate, soft_resample, latency);
}
int snd_pcm_get_params(snd_pcm_t *pcm, snd_pcm_uframes_t *buffer_size, snd_pcm_uframes_t *period_size) {
    return BOX_CALL(snd_pcm_get_params, -ELIBACC, pcm, buffer_size, period_size);
}
int snd_pcm_drop(snd_pcm_t *pcm) { return BOX_CALL(snd_pcm_drop, -ELIBACC, pcm); }
int snd_pcm_prepare(snd_pcm_t *pcm) { return BOX_CALL(snd_pcm_prepare, -ELIBACC, pcm); }
int snd_pcm_recover(snd_pcm_t *pcm, int err, int silent) { return BOX_CALL(snd_pcm_recover, -ELIBACC, pcm, err, silent); }
snd_pcm_state_t snd_pcm_state(snd_pcm_t *pcm) { return BOX_CALL(snd_pcm_state, SND_PCM_STATE_DISCONNECTED, pcm); }
snd_pcm_sframes_t snd_pcm_writei(snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size) {
    return BOX_CALL(snd_pcm_writei, -ELIBACC, pcm, buffer, size);
}
// Without the library, the errno's own words: alsa-lib gives the same for errno codes.
const char *snd_strerror(int errnum) { return loaded() ? lib.fn.snd_strerror(errnum) : strerror(errnum < 0 ? -errnum : errnum); }

#pragma GCC visibility pop
