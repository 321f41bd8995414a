/* rma_lock.h -- the window lock word of a target (see struct rma_ctl_rank):
 * taken and released with atomic operations by the origins alone. */
#ifndef ORMA_RMA_LOCK_H
#define ORMA_RMA_LOCK_H

#include "rma_ctl.h"
#include "util_wait.h"

#include <orma.h>

#define RMA_LOCK_EXCL_ONE (UINT64_C(1) << 32)

static inline int rma_lock_granted(struct rma_ctl_rank *c, int type, uint64_t ticket)
{
    uint64_t done = atomic_load_explicit(&c->lock_done, memory_order_acquire);
    return type == ORMA_LOCK_EXCLUSIVE ? done == ticket : (done >> 32) == (ticket >> 32);
}

static inline void rma_lock_acquire(struct rma_ctl_rank *c, int type)
{
    uint64_t ticket = atomic_fetch_add_explicit(&c->lock_req, type == ORMA_LOCK_EXCLUSIVE ? RMA_LOCK_EXCL_ONE : 1,
                                                memory_order_relaxed);
    for (;;) {
        uint32_t seen = atomic_load_explicit(&c->lock_released.value, memory_order_acquire);
        if (rma_lock_granted(c, type, ticket))
            return;
        util_wait_geq(&c->lock_released, seen + 1);
    }
}

/* Releasing also publishes every store made under the lock. */
static inline void rma_lock_release(struct rma_ctl_rank *c, int type)
{
    atomic_fetch_add_explicit(&c->lock_done, type == ORMA_LOCK_EXCLUSIVE ? RMA_LOCK_EXCL_ONE : 1,
                              memory_order_release);
    util_wake_add(&c->lock_released, 1);
}

#endif
