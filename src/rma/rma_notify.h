/* rma_notify.h -- notification counters (orma_put_notify and kin).
 *
 * Each rank's counters are a shared segment of its own, "m<seq>-r<job
 * rank>" as its orma_alloc_mem blocks (rma_heap.h), named in its control
 * block (notify_seq) while they live: a header line, then one counter per
 * cache line, so that origins raising different counters do not take
 * each other's lines.  An origin on this node maps them at its first
 * notified operation to the rank (and again when the name changed), and
 * raises a counter with one atomic instruction after the operation's data
 * is in place (release: a target that reads the counter with acquire
 * reads the data); over the net transport the notification travels as an
 * operation of its own behind the data (XPORT_OP_NOTIFY), sent at once with
 * every operation queued for its target before it (xport_net_notify), and
 * the target raises its own counter once those are carried out.
 *
 * The owner waits as orma waits (util_wait_cond): polling its counters
 * while it spins and yields, then asleep on the header's word, which a
 * raise bumps only when somebody sleeps -- so an origin pays one load for
 * a waiter that is awake.
 *
 * The counters are kept apart from the window's lines and its epochs: a
 * notified operation's data goes as the plain operation's does, except
 * that it never waits in a queue, a box or a gather for the closing
 * synchronization (win->notify_issuing): it waits instead, if it must, for
 * its target to open the epoch, and the counter is raised behind it. */
#ifndef ORMA_RMA_NOTIFY_H
#define ORMA_RMA_NOTIFY_H

#include "rma_win.h"
#include "util_wait.h"

#include <stdatomic.h>
#include <stdint.h>

struct rma_notify_head {
    uint64_t n;                /* counters; writer: the owner, once */
    struct util_waitword bump; /* writers: raisers finding sleepers */
    char pad[RMA_LINE - 8 - sizeof(struct util_waitword)];
};

struct rma_notify_ctr {
    _Atomic uint64_t value;
    char pad[RMA_LINE - 8];
};

static inline struct rma_notify_ctr *rma_notify_ctrs(struct rma_notify_head *h)
{
    return (struct rma_notify_ctr *)(h + 1);
}

/* Counter id of h raised by nop and value (release), waiters woken. */
static inline void rma_notify_apply(struct rma_notify_head *h, uint32_t id, int nop, uint64_t value)
{
    _Atomic uint64_t *c = &rma_notify_ctrs(h)[id].value;
    if (nop == ORMA_NOTIFY_SET)
        atomic_store_explicit(c, value, memory_order_seq_cst);
    else
        atomic_fetch_add_explicit(c, value, memory_order_seq_cst);
    util_wake_bump(&h->bump);
}

/* counter has reached value: counter - value >= 0 as a signed number. */
static inline int rma_notify_reached(uint64_t counter, uint64_t value)
{
    return (int64_t)(counter - value) >= 0;
}

/* This rank's counters: n new ones (ORMA_ERR_NOTIFY when some exist), or
 * given back. */
int rma_notify_alloc(struct rma_win *win, size_t n);
void rma_notify_free(struct rma_win *win);
/* The window's teardown: ours given back, the others' unmapped. */
void rma_notify_release(struct rma_win *win);

/* Our counter id, or an error naming call (ORMA_ERR_NOTIFY). */
int rma_notify_own(struct rma_win *win, int id, const char *call, _Atomic uint64_t **ctr_p);

/* Target's counter id exists (targets mapped here; net ones are checked
 * by the target): *h_p its counters as mapped here, NULL for a net one. */
int rma_notify_check(struct rma_win *win, int target, int id, const char *call, struct rma_notify_head **h_p);

/* Raise counter id of target, at h (rma_notify_check), by nop and value,
 * behind the operations issued to it before (h NULL, net: sent at once
 * behind them, xport_net_notify). */
int rma_notify_issue(struct rma_win *win, int target, struct rma_notify_head *h, int id, int nop, uint64_t value);

/* The fast path's view: target's counters as mapped here and still
 * current, or NULL (none, not mapped yet, renamed, net).  Single-threaded
 * programs only: the mapping is the locked path's under threads. */
static inline struct rma_notify_head *rma_notify_cached(struct rma_win *win, int target)
{
    if (target == win->rank)
        return atomic_load_explicit(&win->notify, memory_order_acquire);
    const struct rma_target *t = &win->targets[target];
    uint64_t seq = t->notify_seq;
    if (!seq || atomic_load_explicit(&t->ctl->notify_seq, memory_order_acquire) != seq)
        return NULL;
    return t->notify_seg.base;
}

/* The net transport's target side: op (XPORT_OP_NOTIFY) from origin
 * applied to our counters. */
int rma_notify_host(struct rma_win *win, const struct xport_op *op, int origin);

/* Wait until counters ids[i] reached values[i]: any (one of them, its
 * index in *index_p) or all. */
int rma_notify_wait(struct rma_win *win, size_t n, const int *ids, const uint64_t *values, int any,
                    size_t *index_p);

#endif
