// boxd's executor for Swift concurrency: the runtime's hooks (libswift_Concurrency exports
// them for exactly this), a pool of threads that wait on a condition variable, and one timer
// thread. See CQuietRuntime.h for why.
#define _GNU_SOURCE
#include "CQuietRuntime.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define SWIFTCC __attribute__((swiftcall))

// The runtime's ABI (swift/Runtime/ConcurrencyHooks.def and Concurrency.h): a job is opaque
// here; a hook gets the original implementation as its last argument, which we never call.
typedef SWIFTCC void (*enqueue_original)(void *job);
typedef SWIFTCC void (*delay_original)(unsigned long long delay, void *job);
typedef SWIFTCC void (*deadline_original)(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                          void *job);
extern SWIFTCC void (*swift_task_enqueueGlobal_hook)(void *job, enqueue_original original);
extern SWIFTCC void (*swift_task_enqueueGlobalWithDelay_hook)(unsigned long long delay, void *job,
                                                              delay_original original);
extern SWIFTCC void (*swift_task_enqueueGlobalWithDeadline_hook)(long long sec, long long nsec, long long tsec,
                                                                 long long tnsec, int clock, void *job,
                                                                 deadline_original original);
/// SerialExecutorRef: the generic executor is {NULL, 0}, as libdispatch's global queues run jobs.
typedef struct { void *identity; uintptr_t implementation; } serial_executor_ref;
extern SWIFTCC void swift_job_run(void *job, serial_executor_ref executor);

static int64_t now_on(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t quiet_boottime_now(void) { return now_on(CLOCK_BOOTTIME); }

static int64_t quiet_monotonic_now(void) { return now_on(CLOCK_MONOTONIC); }

// --- the pool: a FIFO of jobs, threads started as they are needed, up to `limit` ---------------

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_ready = PTHREAD_COND_INITIALIZER;
static void **jobs;
static size_t jobs_head, jobs_count, jobs_capacity;
static int threads, idle, limit;

static void *pool_thread(void *unused) {
    (void)unused;
    pthread_setname_np(pthread_self(), "boxd-pool");
    pthread_mutex_lock(&pool_lock);
    for (;;) {
        while (jobs_count == 0) {
            idle++;
            pthread_cond_wait(&pool_ready, &pool_lock);
            idle--;
        }
        void *job = jobs[jobs_head];
        jobs_head = (jobs_head + 1) % jobs_capacity;
        jobs_count--;
        pthread_mutex_unlock(&pool_lock);
        swift_job_run(job, (serial_executor_ref){NULL, 0});
        pthread_mutex_lock(&pool_lock);
    }
    return NULL;
}

static void pool_push(void *job) {
    pthread_mutex_lock(&pool_lock);
    if (jobs_count == jobs_capacity) {
        // Grow, unrolling the ring so that the oldest job stays first. Out of memory there is
        // nothing to fall back to: a lost job is a hung task, so stop loudly instead.
        size_t capacity = jobs_capacity ? jobs_capacity * 2 : 64;
        void **grown = malloc(capacity * sizeof *grown);
        if (grown == NULL) abort();
        for (size_t i = 0; i < jobs_count; i++) grown[i] = jobs[(jobs_head + i) % jobs_capacity];
        free(jobs);
        jobs = grown;
        jobs_head = 0;
        jobs_capacity = capacity;
    }
    jobs[(jobs_head + jobs_count) % jobs_capacity] = job;
    jobs_count++;
    if (idle > 0) pthread_cond_signal(&pool_ready);
    // More jobs than threads waiting (a woken thread counts as idle until it takes the lock):
    // another thread, so that a job never waits behind one that blocks (a commit's fsync).
    if (jobs_count > (size_t)idle && threads < limit) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, pool_thread, NULL) == 0) threads++;
        pthread_attr_destroy(&attr);
        if (threads == 0) abort(); // no thread at all would leave every task waiting forever
    }
    pthread_mutex_unlock(&pool_lock);
}

// --- the timers: a list sorted by deadline, a timerfd set to the first, one thread reading it ---

struct timer {
    int64_t deadline;
    uint64_t id;
    void (*fire)(void *context);
    void *context;
    struct timer *next;
};

static pthread_mutex_t timer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t timer_once = PTHREAD_ONCE_INIT;
static int timer_fd = -1;
static struct timer *timers;
static uint64_t last_id;

/// Sets the timerfd to the first deadline (or disarms it). With timer_lock held.
static void timer_rearm(void) {
    struct itimerspec at = {0};
    if (timers != NULL) {
        int64_t d = timers->deadline > 0 ? timers->deadline : 1; // 0 would disarm
        at.it_value.tv_sec = d / 1000000000;
        at.it_value.tv_nsec = d % 1000000000;
    }
    timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &at, NULL);
}

static void *timer_thread(void *unused) {
    (void)unused;
    pthread_setname_np(pthread_self(), "boxd-timer");
    for (;;) {
        uint64_t expirations;
        if (read(timer_fd, &expirations, sizeof expirations) < 0 && errno != EINTR && errno != EAGAIN) abort();
        pthread_mutex_lock(&timer_lock);
        int64_t now = quiet_boottime_now();
        while (timers != NULL && timers->deadline <= now) {
            struct timer *due = timers;
            timers = due->next;
            pthread_mutex_unlock(&timer_lock);
            due->fire(due->context);
            free(due);
            pthread_mutex_lock(&timer_lock);
        }
        timer_rearm();
        pthread_mutex_unlock(&timer_lock);
    }
    return NULL;
}

static void timer_start(void) {
    // CLOCK_BOOTTIME, as the engine's own times: a wall-clock step moves no deadline, and one
    // that passed during a suspend fires at the resume.
    timer_fd = timerfd_create(CLOCK_BOOTTIME, TFD_CLOEXEC);
    if (timer_fd < 0) abort(); // no timer: every sleep would hang
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, timer_thread, NULL) != 0) abort();
    pthread_attr_destroy(&attr);
}

uint64_t quiet_timer_add(int64_t deadline, void (*fire)(void *context), void *context) {
    pthread_once(&timer_once, timer_start);
    struct timer *t = malloc(sizeof *t);
    if (t == NULL) abort();
    t->deadline = deadline;
    t->fire = fire;
    t->context = context;
    pthread_mutex_lock(&timer_lock);
    t->id = ++last_id;
    struct timer **at = &timers;
    while (*at != NULL && (*at)->deadline <= deadline) at = &(*at)->next;
    t->next = *at;
    *at = t;
    if (timers == t) timer_rearm(); // a new first deadline
    pthread_mutex_unlock(&timer_lock);
    return t->id;
}

int quiet_timer_cancel(uint64_t id) {
    pthread_mutex_lock(&timer_lock);
    for (struct timer **at = &timers; *at != NULL; at = &(*at)->next) {
        if ((*at)->id == id) {
            struct timer *t = *at;
            int first = t == timers;
            *at = t->next;
            if (first) timer_rearm(); // no wake-up for a deadline that is gone
            pthread_mutex_unlock(&timer_lock);
            free(t);
            return 1;
        }
    }
    pthread_mutex_unlock(&timer_lock);
    return 0;
}

// --- the hooks ---------------------------------------------------------------------------------

static SWIFTCC void on_enqueue(void *job, enqueue_original original) {
    (void)original;
    pool_push(job);
}

static void push_job(void *job) { pool_push(job); }

static SWIFTCC void on_delay(unsigned long long delay, void *job, delay_original original) {
    (void)original;
    quiet_timer_add(quiet_boottime_now() + (int64_t)(delay > INT64_MAX / 4 ? INT64_MAX / 4 : delay), push_job, job);
}

static SWIFTCC void on_deadline(long long sec, long long nsec, long long tsec, long long tnsec, int clock, void *job,
                                deadline_original original) {
    (void)original;
    (void)tsec;
    (void)tnsec;
    // The runtime's clocks: 1 continuous (CLOCK_BOOTTIME on Linux, the timers' own), 2 suspending
    // (CLOCK_MONOTONIC): a deadline on the latter becomes the same distance ahead on the former.
    const long long far = INT64_MAX / 4 / 1000000000; // ~73 years: later is never
    int64_t deadline = (int64_t)(sec < far ? sec : far) * 1000000000 + (nsec % 1000000000);
    if (clock != 1) deadline = quiet_boottime_now() + (deadline - quiet_monotonic_now());
    quiet_timer_add(deadline, push_job, job);
}

void quiet_runtime_install(int count) {
    pthread_mutex_lock(&pool_lock);
    limit = count < 2 ? 2 : count;
    pthread_mutex_unlock(&pool_lock);
    swift_task_enqueueGlobal_hook = on_enqueue;
    swift_task_enqueueGlobalWithDelay_hook = on_delay;
    swift_task_enqueueGlobalWithDeadline_hook = on_deadline;
}
