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

void util_wake_slow(struct util_waitword *w)
{
    syscall(SYS_futex, (uint32_t *)&w->value, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void util_wait_slow(struct util_waitword *w, uint32_t target)
{
    uint32_t spin = util_config.spin;
    for (uint32_t i = 0; i < spin; i++) {
        if (util_seq_geq(atomic_load_explicit(&w->value, memory_order_acquire), target))
            return;
        util_cpu_relax();
    }
    uint64_t until = util_time_ns() + (uint64_t)util_config.yield_us * 1000;
    for (uint32_t i = 1;; i++) {
        if (util_seq_geq(atomic_load_explicit(&w->value, memory_order_acquire), target))
            return;
        if (i % 16 == 0 && util_time_ns() >= until)
            break;
        sched_yield();
    }
    uint32_t sleep_us = util_config.sleep_us ? util_config.sleep_us : 1;
    for (;;) {
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
    uint32_t spin = util_config.spin;
    uint32_t step = b->step++;
    if (step < spin) {
        util_cpu_relax();
        return;
    }
    if (step == spin)
        b->yield_until = util_time_ns() + (uint64_t)util_config.yield_us * 1000;
    if (b->yield_until) {
        if ((step - spin) % 16 || util_time_ns() < b->yield_until) {
            sched_yield();
            return;
        }
        b->yield_until = 0;
        b->sleep_from = step;
    }
    uint32_t us = (step - b->sleep_from + 1) * 10; /* growing sleeps, up to the cap */
    uint32_t cap = util_config.sleep_us ? util_config.sleep_us : 1;
    if (us > cap) {
        us = cap;
        b->step--; /* stay at the cap without overflowing */
    }
    struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}
