#ifndef CBOXSYS_H
#define CBOXSYS_H

/// 1 when the kernel considers the wall clock synchronised (adjtimex state is not TIME_ERROR), else 0.
int box_clock_synchronized(void);

#endif
