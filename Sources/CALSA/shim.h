#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

/* alsa-lib prints its own diagnostics to stderr. A player that retries a missing device every
 * few seconds would fill the journal with them, and the useful one ("Cannot get card index
 * for 99") never reaches the fault message. This handler keeps the first message since the
 * last reset, per thread, so the caller can quote it. It is a C variadic function, which
 * Swift cannot define, hence this shim. */
enum { CALSA_ERROR_TEXT_SIZE = 256 };

/* A function-local static, not a file-scope one: Swift emits inline functions it calls, with
 * their local statics, but not free-standing header variables. */
static inline char *calsa_error_buffer(void) {
    static __thread char text[CALSA_ERROR_TEXT_SIZE];
    return text;
}

static inline void calsa_error_handler(const char *file, int line, const char *function, int err,
                                       const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    char *text = calsa_error_buffer();
    if (text[0] != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, CALSA_ERROR_TEXT_SIZE, fmt, ap);
    va_end(ap);
}

/* Installs the handler for the whole process (alsa-lib has one handler). */
static inline int calsa_capture_errors(void) { return snd_lib_error_set_handler(calsa_error_handler); }

static inline void calsa_error_reset(void) { calsa_error_buffer()[0] = 0; }

/* The first alsa-lib message on this thread since the last reset; "" if none. */
static inline const char *calsa_error_text(void) { return calsa_error_buffer(); }
