/* rma_acc.h -- performing accumulate-family operations.
 *
 * Three ways to update the target, chosen per operation:
 *   - hardware atomics, element by element (rma_atomic.h), on memory every
 *     rank maps, for elements the machine can swap whole;
 *   - plain loops under an exclusive lock, when nothing else can touch the
 *     target: the reduction kernels in place (mapped memory), or read,
 *     combine and write back in chunks (single-copy syscalls);
 *   - the same loops under the target's striped locks (rma_stripe.h),
 *     for everything else.
 * The inline fast path is the first, for a target already open; the rest
 * goes through rma_comm_slow like put and get, so accumulates are queued,
 * ordered and drained with them. */
#ifndef ORMA_RMA_ACC_H
#define ORMA_RMA_ACC_H

#include "rma_atomic.h"
#include "rma_comm.h"

/* Perform an ACC or CAS operation at w, its target being open. */
int rma_acc_execute(struct rma_win *win, const struct rma_op *op, const struct rma_where *w);

/* An ACC or CAS operation; op->len > 0. */
static inline int rma_acc(struct rma_win *win, const struct rma_op *op)
{
    struct rma_target *t = &win->targets[op->target];
    if (__builtin_expect(t->path == RMA_PATH_DIRECT && t->shared && rma_target_ready(win, t) &&
                             t->lock_type != ORMA_LOCK_EXCLUSIVE, 1)) {
        char *p = t->base + op->offset;
        const struct rma_acc_plan *plan = rma_acc_plan(op->kind == RMA_OP_CAS ? ORMA_REPLACE : op->op, op->typeid_);
        if (rma_atomic_fits(plan, p)) {
            if (op->kind == RMA_OP_CAS)
                rma_atomic_cas(plan->width, p, op->origin, op->compare, op->result);
            else
                rma_atomic_acc(plan, p, op->origin, op->result, op->len / plan->extent);
            return ORMA_SUCCESS;
        }
    }
    return rma_comm_slow(win, op);
}

#endif
