#ifndef CBOXSYS_H
#define CBOXSYS_H

/// 1 when the kernel considers the wall clock synchronised (adjtimex state is not TIME_ERROR), else 0.
int box_clock_synchronized(void);

/// Sets the calling thread's nice value (not the whole process's): 0, or the errno.
int box_nice_this_thread(int nice);

/// The calling thread's nice value.
int box_thread_nice(void);

#include <stddef.h>

/// Opens a shared library by soname (RTLD_NOW | RTLD_LOCAL) and looks up `count` functions into
/// `slots`. NULL when all were found; else `error`, filled with why (the library closed again).
/// The package's one program links espeak-ng and libmosquitto this way, so that only the program
/// that speaks (boxd) or publishes (boxd-mqtt) loads them and what they load (#34).
const char *box_library_open(const char *soname, const char *const names[], void *slots[], int count,
                             char *error, size_t size);

#endif
