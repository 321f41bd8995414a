/* rma_stripe.h -- how the two ways of updating a target element atomically
 * keep out of each other's way.
 *
 * Plain-loop updates (rma_acc.c: large accumulates, memory reached by
 * single-copy syscalls, elements the machine cannot swap whole) take the
 * striped locks of the target's memory: every stripe their byte range
 * touches, held only while they read, combine and write back -- they wait
 * for nothing else meanwhile.  The stripes are the bits of one 64-bit word
 * (1: held), so that a range takes all its stripes with one atomic when
 * none is held (a 16 KB accumulate took four exchanges, about 70 ns of its
 * 280); when one is, it takes them one by one in increasing order, so the
 * stripes cannot deadlock and a wide range is not starved by narrow ones.
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
 * origin. */
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

static inline void rma_stripe_lock(_Atomic uint64_t *stripes, uint64_t mask)
{
    uint64_t cur = atomic_load_explicit(stripes, memory_order_relaxed);
    while (!(cur & mask))
        if (atomic_compare_exchange_weak_explicit(stripes, &cur, cur | mask, memory_order_seq_cst,
                                                  memory_order_relaxed))
            return;
    for (unsigned s = 0; s < RMA_STRIPES; s++) {
        uint64_t bit = UINT64_C(1) << s;
        if (!(mask & bit))
            continue;
        struct util_backoff backoff = {0};
        while (atomic_fetch_or_explicit(stripes, bit, memory_order_seq_cst) & bit)
            while (atomic_load_explicit(stripes, memory_order_relaxed) & bit)
                util_backoff_pause(&backoff);
    }
}

static inline void rma_stripe_unlock(_Atomic uint64_t *stripes, uint64_t mask)
{
    atomic_fetch_and_explicit(stripes, ~mask, memory_order_release);
}

/* Begin a hardware-atomic update of [lo, lo+len) (at most two stripes):
 * 1 when it may proceed (end it with rma_hw_leave), 0 when a plain loop
 * holds one of its stripes. */
static inline int rma_hw_enter(_Atomic uint32_t *busy, _Atomic uint64_t *stripes, uint64_t lo, size_t len)
{
    uint32_t v = atomic_load_explicit(busy, memory_order_relaxed);
    atomic_exchange_explicit(busy, v + 1, memory_order_seq_cst);
    if (!(atomic_load_explicit(stripes, memory_order_seq_cst) & rma_stripe_mask(lo, len)))
        return 1;
    atomic_store_explicit(busy, v + 2, memory_order_release);
    return 0;
}

static inline void rma_hw_leave(_Atomic uint32_t *busy)
{
    atomic_store_explicit(busy, atomic_load_explicit(busy, memory_order_relaxed) + 1, memory_order_release);
}

#endif
