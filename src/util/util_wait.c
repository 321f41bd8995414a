/* util_wait.c -- the slow paths of util_wait.h. */
#include "util_wait.h"
#include "util_config.h"
#include "util_time.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void util_futex_wait(_Atomic uint32_t *addr, uint32_t expected, uint32_t usec)
{
    struct timespec ts = {.tv_sec = usec / 1000000, .tv_nsec = (long)(usec % 1000000) * 1000};
    /* Shared (not FUTEX_PRIVATE) because the word lives in memory mapped by
     * several processes. */
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT, expected, &ts, NULL, 0);
}

void (*util_wait_hook)(void);

static uint32_t util_sleep_cap(void)
{
    uint32_t cap = util_config.sleep_us ? util_config.sleep_us : 1;
    return util_wait_hook && cap > UTIL_WAIT_HOOK_US ? UTIL_WAIT_HOOK_US : cap;
}

void util_wake_slow(struct util_waitword *w)
{
    syscall(SYS_futex, (uint32_t *)&w->value, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* The spinning and yielding phases shared by every waiter: 1 while they
 * last, 0 once the yielding budget is spent and the caller should sleep. */
int util_backoff_relax(struct util_backoff *b)
{
    if (util_wait_hook && !b->quiet)
        util_wait_hook();
    if (b->phase == 0) {
        if (b->step < util_config.spin) {
            b->step++;
            util_cpu_relax();
            return 1;
        }
        b->phase = 1;
        b->step = 0;
        b->yield_until = util_time_ns() + (uint64_t)util_config.yield_us * 1000;
    }
    if (b->phase == 1) {
        /* the clock is read every 16 yields only */
        if (b->step++ % 16 || util_time_ns() < b->yield_until) {
            sched_yield();
            return 1;
        }
        b->phase = 2;
        b->step = 0;
    }
    return 0;
}

void util_wait_slow(struct util_waitword *w, uint32_t target)
{
    struct util_backoff b = {0};
    while (util_backoff_relax(&b))
        if (util_seq_geq(atomic_load_explicit(&w->value, memory_order_acquire), target))
            return;
    for (;;) {
        if (util_wait_hook)
            util_wait_hook();
        uint32_t sleep_us = util_sleep_cap();
        atomic_fetch_add_explicit(&w->sleepers, 1, memory_order_seq_cst);
        uint32_t v = atomic_load_explicit(&w->value, memory_order_seq_cst);
        if (util_seq_geq(v, target)) {
            atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
            atomic_thread_fence(memory_order_acquire);
            return;
        }
        util_futex_wait(&w->value, v, sleep_us);
        atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
    }
}

void util_backoff_pause(struct util_backoff *b)
{
    if (util_backoff_relax(b))
        return;
    /* growing sleeps of 10 us steps, up to ORMA_SLEEP_US */
    uint32_t cap = util_sleep_cap();
    if (b->step * 10 < cap)
        b->step++;
    uint32_t us = b->step * 10 < cap ? b->step * 10 : cap;
    struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

void util_wait_tune(int ranks_here)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 0 && ranks_here > cpus && util_config_is_default("ORMA_SPIN"))
        util_config.spin = 0;
}
