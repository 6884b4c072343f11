/*
 * slowsync.so: an SD card's fsync for the gesture tests (Tests/VirtualBox). Preloaded into
 * boxd with LD_PRELOAD, it makes fsync(2) and fdatasync(2) take SLOWSYNC_MS milliseconds
 * longer (default 80) and then do the real thing: a cheap SD card often needs that long to
 * commit, and the qemu disk does not. Nothing is skipped: durability is unchanged. While
 * boxd waits in the commit of a press, the release's contact chatter queues up behind it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void pause_ms(void) {
    static long ms = -1;
    if (ms < 0) {
        const char *e = getenv("SLOWSYNC_MS");
        ms = e ? atol(e) : 80;
    }
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    pause_ms();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    pause_ms();
    return real(fd);
}
