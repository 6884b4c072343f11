// Small Linux calls that Swift's Glibc module does not import.
#define _GNU_SOURCE
#include "CBoxSys.h"
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <unistd.h>

int box_clock_synchronized(void) {
    struct timex tx = {0};
    int state = adjtimex(&tx);
    return state >= 0 && state != TIME_ERROR;
}

int box_nice_this_thread(int nice) {
    // On Linux a nice value belongs to a thread: PRIO_PROCESS with the thread's id.
    pid_t tid = (pid_t)syscall(SYS_gettid);
    return setpriority(PRIO_PROCESS, (id_t)tid, nice) == 0 ? 0 : errno;
}

int box_thread_nice(void) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    errno = 0;
    return getpriority(PRIO_PROCESS, (id_t)tid);
}
