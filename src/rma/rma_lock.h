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
    uint64_t done = atomic_load_explicit(&c->lock_done, memory_order_seq_cst);
    return type == ORMA_LOCK_EXCLUSIVE ? done == ticket : (done >> 32) == (ticket >> 32);
}

/* Waiting for a lock not granted at once (rma_passive.c).  A waiter counts
 * itself in lock_waiters before it looks at lock_done, and a release looks
 * at lock_waiters after it raised lock_done, both sequentially consistent:
 * either the release comes first in their order and the waiter sees it, or
 * the release sees the waiter and bumps lock_released, which the waiter
 * sleeps on.  So an uncontended release costs one atomic instruction, not
 * two. */
struct rma_win;
/* let_go: the window's lock is let go of meanwhile (rma_mt.h; orma_win_lock
 * only: lock_all's lazy locks keep it, lest another thread take the same
 * shared lock twice or use it before it is granted). */
void rma_lock_wait(struct rma_win *win, struct rma_ctl_rank *c, int type, uint64_t ticket, int let_go);

/* A ticket in the queue of the lock: granted when rma_lock_granted says. */
static inline uint64_t rma_lock_ask(struct rma_ctl_rank *c, int type)
{
    return atomic_fetch_add_explicit(&c->lock_req, type == ORMA_LOCK_EXCLUSIVE ? RMA_LOCK_EXCL_ONE : 1,
                                     memory_order_seq_cst);
}

static inline void rma_lock_acquire(struct rma_win *win, struct rma_ctl_rank *c, int type, int let_go)
{
    uint64_t ticket = rma_lock_ask(c, type);
    if (__builtin_expect(!rma_lock_granted(c, type, ticket), 0))
        rma_lock_wait(win, c, type, ticket, let_go);
}

/* Releasing also publishes every store made under the lock. */
static inline void rma_lock_release(struct rma_ctl_rank *c, int type)
{
    atomic_fetch_add_explicit(&c->lock_done, type == ORMA_LOCK_EXCLUSIVE ? RMA_LOCK_EXCL_ONE : 1,
                              memory_order_seq_cst);
    if (__builtin_expect(atomic_load_explicit(&c->lock_waiters, memory_order_seq_cst) != 0, 0))
        util_wake_add(&c->lock_released, 1);
}

#endif
