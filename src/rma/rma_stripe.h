/* rma_stripe.h -- how the two ways of updating a target element atomically
 * keep out of each other's way.
 *
 * Plain-loop updates (rma_acc.c: large accumulates, memory reached by
 * single-copy syscalls, elements the machine cannot swap whole) take the
 * striped locks of the target's memory: every stripe their byte range
 * touches, in increasing stripe order, held only while they read, combine
 * and write back -- they wait for nothing else meanwhile, so the stripes
 * cannot deadlock.  A stripe lock is a word: 0 free, 1 held, taken with
 * one exchange and released with a plain store.  Stripes of 64 KB
 * (rma_ctl.h): most accumulates take one lock, one atomic instruction in
 * all, as Open MPI's osc/sm takes its one lock per target.  (Stripes of
 * 4 KB as bits of one word, taken with one compare-and-swap, needed a
 * second atomic to release: an accumulate+flush of 256 bytes 35 ns
 * against 31 now, of 16 KB 0.165 us against 0.137.)
 *
 * Hardware-atomic updates (small accumulates and single-element atomics on
 * memory every rank maps) do not take the stripes: they are atomic against
 * each other already.  Against plain loops they use a per-origin counter,
 * hw_busy[target] in the origin's control block, odd while an update is in
 * progress: the update raises it, then checks the stripes it touches and
 * backs off (to the plain-loop path) if one is held.  A plain loop on mapped
 * memory, once it holds its stripes, waits for every origin's counter to be
 * even or to have moved on.  Both sides store, then load the other's word,
 * sequentially consistent (Dekker), so at least one sees the other.  The
 * counter lives on a line only its origin writes, and the stripes are only
 * read by hardware updates, so a contended fetch-and-op moves no extra
 * cache line between cores; a plain loop waits for at most one update per
 * origin.
 *
 * Under ORMA_THREAD_MULTIPLE an origin has several updaters, and one
 * counter per target would have several writers.  So its threads do not
 * use hw_busy: each takes one of RMA_HW_THREADS slots of the process
 * (rma_mt_hw_take), and in each window a counter of its own, on a pair of
 * lines of its own (rma_ctl.h hw_threads), odd while it updates any target; the
 * threads past RMA_HW_THREADS take the stripes.  A plain loop waits for
 * the used slots of every origin that said at window creation it runs
 * threads (rma_target.threads): it may wait for an update of another
 * target, never for more than one update per slot.  The count of used
 * slots is raised before a slot is first used, sequentially consistent,
 * so a plain loop that reads it after locking its stripes sees every slot
 * whose update did not see the stripes. */
#ifndef ORMA_RMA_STRIPE_H
#define ORMA_RMA_STRIPE_H

#include "rma_ctl.h"
#include "util_wait.h"

#include <stddef.h>
#include <stdint.h>

/* The stripes [lo, lo+len) touches, one bit each (all when the range wraps
 * around the stripe table). */
static inline uint64_t rma_stripe_mask(uint64_t lo, size_t len)
{
    uint64_t first = lo >> RMA_STRIPE_SHIFT, last = (lo + len - 1) >> RMA_STRIPE_SHIFT;
    if (last - first >= RMA_STRIPES - 1)
        return ~UINT64_C(0);
    uint64_t mask = 0;
    for (uint64_t s = first; s <= last; s++)
        mask |= UINT64_C(1) << (s % RMA_STRIPES);
    return mask;
}

/* Both visit only the stripes of mask, lowest first (a loop over all 64
 * cost 30 ns of a 65 ns accumulate).  Locking says whether it had to wait. */
static inline int rma_stripe_lock(_Atomic uint32_t *stripes, uint64_t mask)
{
    int waited = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        /* quiet: lower stripes may be ours already, and the net transport's
         * target side (the hook) takes stripes */
        struct util_backoff backoff = {.quiet = 1};
        while (atomic_exchange_explicit(&stripes[s], 1, memory_order_seq_cst)) {
            waited = 1;
            while (atomic_load_explicit(&stripes[s], memory_order_relaxed))
                util_backoff_pause(&backoff);
        }
    }
    return waited;
}

static inline void rma_stripe_unlock(_Atomic uint32_t *stripes, uint64_t mask)
{
    for (uint64_t m = mask; m; m &= m - 1)
        atomic_store_explicit(&stripes[__builtin_ctzll(m)], 0, memory_order_release);
}

/* Begin a hardware-atomic update of [lo, lo+len) (at most two stripes):
 * 1 when it may proceed (end it with rma_hw_leave), 0 when a plain loop
 * holds one of its stripes. */
static inline int rma_hw_enter(_Atomic uint32_t *busy, _Atomic uint32_t *stripes, uint64_t lo, size_t len)
{
    uint32_t v = atomic_load_explicit(busy, memory_order_relaxed);
    atomic_exchange_explicit(busy, v + 1, memory_order_seq_cst);
    uint64_t first = lo >> RMA_STRIPE_SHIFT, last = (lo + len - 1) >> RMA_STRIPE_SHIFT;
    if (!atomic_load_explicit(&stripes[first % RMA_STRIPES], memory_order_seq_cst) &&
        (last == first || !atomic_load_explicit(&stripes[last % RMA_STRIPES], memory_order_seq_cst)))
        return 1;
    atomic_store_explicit(busy, v + 2, memory_order_release);
    return 0;
}

static inline void rma_hw_leave(_Atomic uint32_t *busy)
{
    atomic_store_explicit(busy, atomic_load_explicit(busy, memory_order_relaxed) + 1, memory_order_release);
}

/* Holding stripes: wait until busy is even or has moved on; whether it
 * was odd. */
static inline int rma_hw_wait(_Atomic uint32_t *busy)
{
    uint32_t v = atomic_load_explicit(busy, memory_order_seq_cst);
    if (__builtin_expect(!(v & 1), 1))
        return 0;
    struct util_backoff backoff = {.quiet = 1}; /* we hold stripes */
    while (atomic_load_explicit(busy, memory_order_acquire) == v)
        util_backoff_pause(&backoff);
    return 1;
}

/* ... and for the slots of an origin's threads (hw_threads: rma_ctl.h). */
static inline int rma_hw_wait_threads(_Atomic uint32_t *hw_threads)
{
    int busy_seen = 0;
    uint32_t n = atomic_load_explicit(hw_threads, memory_order_seq_cst);
    for (uint32_t k = 0; k < n && k < RMA_HW_THREADS; k++)
        busy_seen |= rma_hw_wait(rma_ctl_hw_thread(hw_threads, (int)k));
    return busy_seen;
}

#endif
