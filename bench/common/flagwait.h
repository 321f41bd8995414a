/* flagwait.h -- waiting for a flag of another process, the same way in
 * every program of the benchmark (orma-bench's floors and notifications,
 * the MPI program's notifications), so that a row measures the library
 * and not the notification.  The policy has the shape of orma's own
 * (util_wait.c), with a quicker trigger (3 lost yields of 16 and 500 ms
 * of sleeping, where orma takes 8 and 100 ms: a rank of orma that sleeps
 * too readily slows other jobs beside it, a benchmark flag only its row).
 *
 * A flag is a uint64 that only grows, alone on a cache line of memory
 * shared by both processes; the 32-bit word after it counts the processes
 * asleep on it, the next one holds 1 + the CPU its owner last waited on.
 * A waiter polls BENCH_FLAG_SPINS times (~8 us: a peer on another core
 * answers in well under 1 us), then yields -- a peer sharing this core
 * cannot answer until it does.  Beside a peer on its own CPU it keeps the
 * outcome of its last 16 yields (kept off the core for over 200 us, or
 * not); when 3 of them were, a task that never yields shares the core (a
 * busy machine), yielding to it hands it a whole time slice each time,
 * and for 500 ms the waiter sleeps on a futex instead: the peer's store
 * wakes a sleeper, which, having slept, gets the core at once.  That state
 * is kept by each file that waits.  The raiser calls the kernel only when
 * someone sleeps.  The futex is the flag's first 32-bit half, its low
 * half on the little-endian machines this runs on. */
#ifndef BENCH_FLAGWAIT_H
#define BENCH_FLAGWAIT_H

#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BENCH_FLAG_SPINS 256
#define BENCH_FLAG_LOST_NS UINT64_C(200000)
#define BENCH_FLAG_LOST 3
#define BENCH_FLAG_CONTENDED_NS UINT64_C(500000000)

static inline void bench_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline uint64_t bench_flag_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* The count of sleepers beside flag p, and its owner's last CPU. */
static inline _Atomic uint32_t *bench_flag_sleepers(_Atomic uint64_t *p)
{
    return (_Atomic uint32_t *)(void *)(p + 1);
}

static inline _Atomic uint32_t *bench_flag_cpu(_Atomic uint64_t *p)
{
    return bench_flag_sleepers(p) + 1;
}

/* Zeroes flag p, its count of sleepers and its CPU; its owner calls it
 * before the barrier that publishes the flag. */
static inline void bench_flag_init(_Atomic uint64_t *p)
{
    atomic_store_explicit(p, 0, memory_order_relaxed);
    atomic_store_explicit(bench_flag_cpu(p), 0, memory_order_relaxed);
    atomic_store_explicit(bench_flag_sleepers(p), 0, memory_order_release);
}

/* Raises flag p to v (release): what was written before is visible to
 * whoever sees v. */
static inline void bench_flag_raise(_Atomic uint64_t *p, uint64_t v)
{
    atomic_store_explicit(p, v, memory_order_seq_cst);
    if (atomic_load_explicit(bench_flag_sleepers(p), memory_order_seq_cst))
        syscall(SYS_futex, (uint32_t *)(void *)p, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}

/* Per file: the last 16 yields beside a peer on this CPU (1 bits: lost
 * the core), and until when (ns) the waits beside one sleep. */
static _Atomic uint32_t bench_flag_lost_hist;
static _Atomic uint64_t bench_flag_contended_until;

/* The state of one wait: the caller zeroes it.  mine: the waiter's own
 * flag (its CPU is noted there), or NULL: the peer's CPU is not known,
 * and the waiter yields. */
typedef struct bench_flag_waiter {
    _Atomic uint64_t *mine;
    unsigned n;  /* polls and yields so far */
    int shared;  /* the peer last waited on this CPU */
} bench_flag_waiter;

/* Whether peer p last waited on the CPU this one runs on, noting this
 * one's in w->mine. */
static inline int bench_flag_shared(bench_flag_waiter *w, _Atomic uint64_t *p)
{
    int cpu = sched_getcpu();
    if (!w->mine || cpu < 0)
        return 0;
    uint32_t me = (uint32_t)cpu + 1;
    if (atomic_load_explicit(bench_flag_cpu(w->mine), memory_order_relaxed) != me)
        atomic_store_explicit(bench_flag_cpu(w->mine), me, memory_order_relaxed);
    return atomic_load_explicit(bench_flag_cpu(p), memory_order_relaxed) == me;
}

static inline void bench_flag_note_yield(uint64_t before, uint64_t after)
{
    uint32_t h = atomic_load_explicit(&bench_flag_lost_hist, memory_order_relaxed);
    h = ((h << 1) | (after - before > BENCH_FLAG_LOST_NS)) & 0xffffu;
    if (__builtin_popcount(h) >= BENCH_FLAG_LOST) {
        h = 0;
        atomic_store_explicit(&bench_flag_contended_until, after + BENCH_FLAG_CONTENDED_NS,
                              memory_order_relaxed);
    }
    atomic_store_explicit(&bench_flag_lost_hist, h, memory_order_relaxed);
}

/* One step of waiting for p >= v: a pause, a yield, or a sleep of at most
 * sleep_us (so a waiter that must also call its library between polls
 * still does). */
static inline void bench_flag_pause(bench_flag_waiter *w, _Atomic uint64_t *p, uint64_t v,
                                    unsigned sleep_us)
{
    unsigned n = ++w->n;
    if (n <= BENCH_FLAG_SPINS) {
        bench_cpu_relax();
        return;
    }
    if ((n - BENCH_FLAG_SPINS) % 64 == 1)
        w->shared = bench_flag_shared(w, p);
    if (!w->shared) {
        sched_yield();
        return;
    }
    uint64_t now = bench_flag_now_ns();
    if (now >= atomic_load_explicit(&bench_flag_contended_until, memory_order_relaxed)) {
        sched_yield();
        bench_flag_note_yield(now, bench_flag_now_ns());
        return;
    }
    _Atomic uint32_t *sleepers = bench_flag_sleepers(p);
    atomic_fetch_add_explicit(sleepers, 1, memory_order_seq_cst);
    uint64_t seen = atomic_load_explicit(p, memory_order_seq_cst);
    if (seen < v) {
        struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)sleep_us * 1000};
        syscall(SYS_futex, (uint32_t *)(void *)p, FUTEX_WAIT, (uint32_t)seen, &ts, NULL, 0);
    }
    atomic_fetch_sub_explicit(sleepers, 1, memory_order_relaxed);
}

/* Waits (acquire) until *p >= v asleep on p's futex from the first look
 * on, neither spinning nor yielding: for a rank that leaves the cores to
 * other processes meanwhile (the notify suite's ranks while MPI jobs take
 * their turns, turns.h).  bench_flag_raise wakes it; a sleep lasts 100 ms
 * at most, so a lost wake-up costs a delay, not a hang. */
static inline void bench_flag_sleep(_Atomic uint64_t *p, uint64_t v)
{
    _Atomic uint32_t *sleepers = bench_flag_sleepers(p);
    while (atomic_load_explicit(p, memory_order_acquire) < v) {
        atomic_fetch_add_explicit(sleepers, 1, memory_order_seq_cst);
        uint64_t seen = atomic_load_explicit(p, memory_order_seq_cst);
        if (seen < v) {
            struct timespec ts = {.tv_sec = 0, .tv_nsec = 100000000};
            syscall(SYS_futex, (uint32_t *)(void *)p, FUTEX_WAIT, (uint32_t)seen, &ts, NULL, 0);
        }
        atomic_fetch_sub_explicit(sleepers, 1, memory_order_relaxed);
    }
}

#endif
