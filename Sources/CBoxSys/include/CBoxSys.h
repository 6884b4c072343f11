#ifndef CBOXSYS_H
#define CBOXSYS_H

/// 1 when the kernel considers the wall clock synchronised (adjtimex state is not TIME_ERROR), else 0.
int box_clock_synchronized(void);

/// Sets the calling thread's nice value (not the whole process's): 0, or the errno.
int box_nice_this_thread(int nice);

/// Names the calling thread as the kernel shows it (at most 15 bytes): 0, or the errno.
int box_name_this_thread(const char *name);

/// The calling thread's nice value.
int box_thread_nice(void);

/// Keeps every thread of this process, and every thread made from now on, on the CPU the calling
/// thread runs on (#34): a hand-over between boxd's threads (an edge's reader to the engine)
/// is then a switch on that CPU instead of waking another one. The CPU (>= 0), or -errno.
int box_keep_on_one_cpu(void);

/// Gives the calling thread back every CPU the process had before box_keep_on_one_cpu (none
/// changed if it was never called): for work too heavy to share the one CPU with the LED and
/// the engine (the voice's synthesis). 0, or the errno.
int box_widen_this_thread(void);

/// Unmaps the program's read-only pages (its code, its metadata), as the kernel frees its
/// __init code once booted: the start runs code a night never runs again (the config, the
/// migrations, the option parser), and the kernel maps code 64 kB around each page faulted in.
/// The pages stay in the page cache; what runs later faults back in from there. Writable pages
/// are never touched (their changes would be lost). The bytes unmapped, or -errno.
long box_release_start_code(void);

#include <stddef.h>

/// Opens a shared library by soname (RTLD_NOW | RTLD_LOCAL) and looks up `count` functions into
/// `slots`. NULL when all were found; else `error`, filled with why (the library closed again).
/// The package's one program links espeak-ng and libmosquitto this way, so that only the program
/// that speaks (boxd) or publishes (boxd-mqtt) loads them and what they load (#34).
const char *box_library_open(const char *soname, const char *const names[], void *slots[], int count,
                             char *error, size_t size);

/// For a library's functions listed as `FUNCTIONS(X)` (X(name) each): `lib.fn.name`, a pointer to
/// each; `loaded()`, which opens `soname` once (thread-safe) and says whether all were found; and
/// `failure`, why not. For a .c file that includes pthread.h.
#define BOX_NAME(f) #f,
#define BOX_SLOT(f) __typeof__(f) *f;
#define BOX_LIBRARY(soname, FUNCTIONS) \
    static const char *const box_names[] = {FUNCTIONS(BOX_NAME)}; \
    static union { \
        struct { FUNCTIONS(BOX_SLOT) } fn; \
        void *slots[sizeof box_names / sizeof box_names[0]]; \
    } lib; \
    static char box_error[256]; \
    static const char *failure; \
    static pthread_once_t box_once = PTHREAD_ONCE_INIT; \
    static void box_load(void) { \
        failure = box_library_open(soname, box_names, lib.slots, (int)(sizeof box_names / sizeof box_names[0]), \
                                   box_error, sizeof box_error); \
    } \
    static int loaded(void) { pthread_once(&box_once, box_load); return failure == NULL; }

/// The library's `f` called with the arguments, or `fallback` (what the library itself returns
/// on failure) when it cannot be loaded. In a file that uses BOX_LIBRARY.
#define BOX_CALL(f, fallback, ...) (loaded() ? lib.fn.f(__VA_ARGS__) : (fallback))

#endif
