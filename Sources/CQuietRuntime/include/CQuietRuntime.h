#ifndef CQUIETRUNTIME_H
#define CQUIETRUNTIME_H

#include <stdint.h>

/// boxd's own executor for Swift concurrency (#34, "a quiet process"). libdispatch's global
/// pool, which Swift uses by default on Linux, starts a monitor that wakes the process once a
/// second for as long as it lives. These hooks send the runtime's global jobs to threads of our
/// own that sleep on a condition variable until a job comes, and its delayed jobs to one timer
/// thread that sleeps until the earliest deadline: nothing wakes while nothing is due.
///
/// Swift 6.2 and later schedule `Task.sleep` on libdispatch directly, past the delay hooks
/// (they serve Swift 6.0 and 6.1): boxd sleeps through QuietRuntime.sleep, never Task.sleep.
/// What still calls Task.sleep (swift-service-lifecycle's shutdown timeouts) starts libdispatch's
/// pool only then.
///
/// Installs the hooks; from the first line of main, before any task runs. Once only.
void quiet_runtime_install(int threads);

/// Calls `fire(context)` on the timer thread at `deadline` (CLOCK_BOOTTIME, ns). Returns the
/// timer's id (never 0), for `quiet_timer_cancel`. `fire` must not block.
uint64_t quiet_timer_add(int64_t deadline, void (*fire)(void *context), void *context);

/// Takes a timer back: 1 when it had not fired (`fire` will never be called), 0 when it had
/// fired or is firing.
int quiet_timer_cancel(uint64_t id);

#endif
