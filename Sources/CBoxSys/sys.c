// Small Linux calls that Swift's Glibc module does not import.
#define _GNU_SOURCE
#include "CBoxSys.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
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

const char *box_library_open(const char *soname, const char *const names[], void *slots[], int count,
                             char *error, size_t size) {
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(error, size, "%s", dlerror());
        return error;
    }
    for (int i = 0; i < count; i++) {
        slots[i] = dlsym(lib, names[i]);
        if (!slots[i]) {
            snprintf(error, size, "%s has no %s", soname, names[i]);
            dlclose(lib);
            return error;
        }
    }
    return NULL;
}
