#ifndef CBOXSYS_H
#define CBOXSYS_H

/// 1 when the kernel considers the wall clock synchronised (adjtimex state is not TIME_ERROR), else 0.
int box_clock_synchronized(void);

/// Sets the calling thread's nice value (not the whole process's): 0, or the errno.
int box_nice_this_thread(int nice);

/// The calling thread's nice value.
int box_thread_nice(void);

#endif
