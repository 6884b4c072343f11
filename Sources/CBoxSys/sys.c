// Small Linux calls that Swift's Glibc module does not import.
#define _GNU_SOURCE
#include "CBoxSys.h"
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
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

int box_name_this_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int box_thread_nice(void) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    errno = 0;
    return getpriority(PRIO_PROCESS, (id_t)tid);
}

// The CPUs the process had before box_keep_on_one_cpu, for box_widen_this_thread.
static cpu_set_t all_cpus;
static atomic_int all_cpus_saved;

int box_keep_on_one_cpu(void) {
    int cpu = sched_getcpu();
    if (cpu < 0) return -errno;
    if (!atomic_load_explicit(&all_cpus_saved, memory_order_acquire)
        && sched_getaffinity(0, sizeof all_cpus, &all_cpus) == 0)
        atomic_store_explicit(&all_cpus_saved, 1, memory_order_release);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    // A thread that is starting while the directory is read inherits its maker's old set and
    // may be missed: read it again until a pass finds every thread already on the one CPU.
    for (int pass = 0; pass < 8; pass++) {
        DIR *tasks = opendir("/proc/self/task");
        if (!tasks) return -errno;
        int moved = 0, failure = 0;
        struct dirent *entry;
        while ((entry = readdir(tasks)) != NULL) {
            pid_t tid = (pid_t)atoi(entry->d_name);
            if (tid <= 0) continue;
            cpu_set_t now;
            if (sched_getaffinity(tid, sizeof now, &now) == 0 && CPU_EQUAL(&now, &one)) continue;
            if (sched_setaffinity(tid, sizeof one, &one) == 0) moved++;
            else if (errno != ESRCH) failure = errno; // ESRCH: the thread has ended
        }
        closedir(tasks);
        if (failure) return -failure;
        if (moved == 0) return cpu;
    }
    return cpu;
}

int box_widen_this_thread(void) {
    if (!atomic_load_explicit(&all_cpus_saved, memory_order_acquire)) return 0;
    return sched_setaffinity(0, sizeof all_cpus, &all_cpus) == 0 ? 0 : errno;
}

struct box_release { long bytes; int error; };

static int box_release_segments(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct box_release *r = data;
    if (info->dlpi_name != NULL && info->dlpi_name[0] != '\0') return 1; // not the program
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W)) continue;
        // Whole pages inside the segment only: a page shared with a writable neighbour stays.
        uintptr_t lo = (info->dlpi_addr + ph->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
        if (hi <= lo) continue;
        if (madvise((void *)lo, hi - lo, MADV_DONTNEED) != 0) { r->error = errno; return 1; }
        r->bytes += (long)(hi - lo);
    }
    return 1; // the program is the first object
}

long box_release_start_code(void) {
    struct box_release r = {0, 0};
    dl_iterate_phdr(box_release_segments, &r);
    return r.error ? -r.error : r.bytes;
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
