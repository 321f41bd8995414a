/* rma_stripe.h -- the striped locks that make accumulates atomic where
 * hardware atomics cannot: memory reached by single-copy syscalls (and that
 * memory's owner, who reaches it directly), elements wider than the
 * machine's compare-and-swap, misaligned elements.
 *
 * An update takes every stripe its byte range touches, in increasing stripe
 * order, and holds them only while it reads, combines and writes back; it
 * waits for nothing else meanwhile, so the stripes cannot deadlock.  A lock
 * is a word: 0 free, 1 held. */
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

static inline void rma_stripe_lock(_Atomic uint32_t *stripes, uint64_t mask)
{
    for (unsigned s = 0; s < RMA_STRIPES; s++) {
        if (!(mask & (UINT64_C(1) << s)))
            continue;
        struct util_backoff backoff = {0};
        while (atomic_exchange_explicit(&stripes[s], 1, memory_order_acquire))
            while (atomic_load_explicit(&stripes[s], memory_order_relaxed))
                util_backoff_pause(&backoff);
    }
}

static inline void rma_stripe_unlock(_Atomic uint32_t *stripes, uint64_t mask)
{
    for (unsigned s = 0; s < RMA_STRIPES; s++)
        if (mask & (UINT64_C(1) << s))
            atomic_store_explicit(&stripes[s], 0, memory_order_release);
}

#endif
