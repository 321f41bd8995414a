/* flag.h -- flags between ranks 0 and 1 through cache lines of a shared
 * window, for the floors that synchronize without orma.
 *
 * A flag only grows: a rank stores 1, 2, 3, ... into its own line and the
 * other waits until the value reaches the one it expects, so a waiter that
 * looks late and finds a later value still passes.  The wait and raise are
 * inline: the cache-line floor times ~100 ns round trips of exactly these. */
#ifndef BENCH_FLAG_H
#define BENCH_FLAG_H

#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <orma.h>

/* Polls before yielding (~8 us with a 30 ns pause): a peer on another core
 * answers in well under 1 us, while a peer sharing this core (the machine
 * is busy) cannot answer at all until this rank yields. */
#define BENCH_FLAG_SPINS 256

static inline void bench_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Waits (acquire) until *p >= v. */
static inline void bench_flag_wait(_Atomic uint64_t *p, uint64_t v)
{
    unsigned spins = 0;
    while (atomic_load_explicit(p, memory_order_acquire) < v) {
        if (++spins > BENCH_FLAG_SPINS)
            sched_yield();
        else
            bench_cpu_relax();
    }
}

/* Raises this rank's flag to v (release): what was written before is
 * visible to whoever sees v. */
static inline void bench_flag_raise(_Atomic uint64_t *p, uint64_t v)
{
    atomic_store_explicit(p, v, memory_order_release);
}

/* One orma_win_allocate_shared window holding, for ranks 0 and 1, a flag
 * (alone on its cache line, set to 0) and a page-aligned buffer of bytes
 * bytes (NULL when bytes is 0) that its owner has touched. */
typedef struct bench_flag_win {
    orma_win win;
    _Atomic uint64_t *flag[2];
    unsigned char *buf[2];
} bench_flag_win;

/* Collective (every rank); ranks above 1 get NULL pointers. */
void bench_flag_win_open(size_t bytes, bench_flag_win *fw);
void bench_flag_win_close(bench_flag_win *fw); /* collective */

#endif
