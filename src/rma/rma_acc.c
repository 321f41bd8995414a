/* rma_acc.c -- accumulate-family operations off the fast path: plain loops
 * under an exclusive lock, striped locks elsewhere (see rma_acc.h). */
#include "rma_acc.h"

#include <stdlib.h>
#include <string.h>

/* Chunks go through aligned buffers when the target is reached by syscalls
 * or either side is misaligned for the kernel: small updates through
 * buffers on the stack, large ones through the window's (RMA_ACC_BIG each),
 * where a chunk amortises its two system calls over enough bytes. */
#define RMA_ACC_CHUNK 8192
#define RMA_ACC_BIG 65536

/* The operation, in chunks through aligned buffers: read the target, hand
 * out the old contents, combine, write back. */
static int rma_acc_bounce(struct rma_win *win, const struct xport_op *op, const struct rma_where *w,
                          const struct rma_acc_plan *plan)
{
    _Alignas(64) char stack_t[RMA_ACC_CHUNK];
    _Alignas(64) char stack_o[RMA_ACC_CHUNK];
    char *tbuf = stack_t, *obuf = stack_o;
    size_t chunk = RMA_ACC_CHUNK;
    if (op->len > RMA_ACC_CHUNK) {
        if (!win->acc_buf)
            win->acc_buf = aligned_alloc(64, 2 * RMA_ACC_BIG);
        if (win->acc_buf) { /* else the stack buffers, slower */
            tbuf = win->acc_buf;
            obuf = tbuf + RMA_ACC_BIG;
            chunk = RMA_ACC_BIG;
        }
    }
    const struct xport_at *at = &w->at;
    size_t ext = plan->extent, per = chunk / ext * ext;
    const char *origin = op->origin;
    char *result = op->result;
    int replace_only = op->kind == XPORT_OP_ACC && op->op == ORMA_REPLACE && !result && plan->native == RMA_NAT_XCHG;
    for (size_t done = 0; done < op->len; done += per) {
        size_t len = op->len - done < per ? op->len - done : per;
        int status = ORMA_SUCCESS;
        if (replace_only) { /* nothing to combine: write the origin */
            if ((status = at->ops->put(at, done, origin + done, len)))
                return status;
            continue;
        }
        if ((status = at->ops->get(at, done, tbuf, len)))
            return status;
        if (result)
            util_copy(result + done, tbuf, len);
        if (!plan->writes)
            continue;
        if (op->kind == XPORT_OP_CAS) {
            if (memcmp(tbuf, op->compare, ext))
                continue;
            memcpy(tbuf, origin, ext);
        } else {
            const char *o = origin + done;
            if (!rma_acc_aligned(o, ext)) {
                util_copy(obuf, o, len);
                o = obuf;
            }
            plan->kernel(tbuf, o, len / ext);
        }
        if ((status = at->ops->put(at, done, tbuf, len)))
            return status;
    }
    return ORMA_SUCCESS;
}

/* The operation as plain loads and stores: the caller keeps everybody else
 * away from the target bytes. */
static int rma_acc_plain(struct rma_win *win, const struct xport_op *op, const struct rma_where *w,
                         const struct rma_acc_plan *plan)
{
    if (!w->at.ops->mapped || op->kind == XPORT_OP_CAS || !rma_acc_aligned(xport_ptr(&w->at), plan->extent) ||
        (plan->writes && !rma_acc_aligned(op->origin, plan->extent)))
        return rma_acc_bounce(win, op, w, plan);
    rma_acc_in_place(op, xport_ptr(&w->at), plan);
    return ORMA_SUCCESS;
}

int rma_acc_locked(struct rma_win *win, const struct xport_op *op, const struct rma_where *w, rma_acc_body body)
{
    struct rma_target *t = &win->targets[op->target];
    const struct rma_acc_plan *plan = rma_acc_plan_of(op);
    if (t->lock_type == ORMA_LOCK_EXCLUSIVE && !rma_threads) /* threads of ours would meet (rma_mt.h) */
        return body(win, op, w, plan);
    uint64_t mask = rma_stripe_mask((uint64_t)op->offset, op->len);
    int met = rma_acc_exclude(win, op->target, mask, w->hw);
    int status = body(win, op, w, plan);
    rma_stripe_unlock(t->stripes, mask);
    if (met)
        t->acc_contended = RMA_ACC_CONTENDED;
    return status;
}

int rma_acc_execute_plain(struct rma_win *win, const struct xport_op *op, const struct rma_where *w)
{
    return rma_acc_locked(win, op, w, rma_acc_plain);
}

_Thread_local int rma_acc_for_peer;

const struct rma_acc_plan *rma_acc_plan_peer(const struct xport_op *op)
{
    int cas = op->kind == XPORT_OP_CAS;
    if ((!cas && (op->kind != XPORT_OP_ACC || op->op >= ORMA_OP_COUNT)) || op->typeid_ >= ORMA_TYPEID_COUNT)
        return NULL;
    const struct rma_acc_plan *plan = rma_acc_plan_of(op);
    if (!plan->extent || (plan->writes && (!plan->kernel || !op->origin)) || (cas && !op->compare) ||
        (!op->ttype && (op->len % plan->extent || (cas && op->len != plan->extent))))
        return NULL;
    return plan;
}

/* The same choice as rma_acc_try's: hardware atomics only once the target
 * was found contended, else the stripes. */
int rma_acc_execute(struct rma_win *win, const struct xport_op *op, const struct rma_where *w)
{
    struct rma_target *t = &win->targets[op->target];
    if (rma_acc_for_peer)
        return rma_acc_execute_plain(win, op, w);
    if (rma_threads) {
        if (w->at.ops->mapped && rma_acc_hw_mt(win, op, xport_ptr(&w->at), w->shared))
            return ORMA_SUCCESS;
    } else if (t->lock_type != ORMA_LOCK_EXCLUSIVE && w->at.ops->mapped && w->shared && t->acc_contended &&
               rma_acc_hw(win, op, xport_ptr(&w->at))) {
        t->acc_contended--;
        return ORMA_SUCCESS;
    }
    return rma_acc_locked(win, op, w, rma_acc_plain);
}

/* rma_acc.h */
int rma_acc_try_mt(struct rma_win *win, int target, int64_t disp, const void *origin, void *result, size_t len,
                   int op, int typeid_, const struct rma_acc_plan *plan, int *status_p)
{
    size_t off;
    int next;
    if (!len || rma_access_legal(win, target, disp, 0, len, 0, NULL, &off, &next))
        return 0;
    struct rma_target *t = &win->targets[target];
    char *p = t->base + off;
    uint64_t stripe = (uint64_t)off >> RMA_STRIPE_SHIFT;
    if (!rma_mt_quiet(win, t, next) || !rma_acc_aligned(p, plan->extent) || !rma_acc_aligned(origin, plan->extent) ||
        stripe != ((uint64_t)off + len - 1) >> RMA_STRIPE_SHIFT)
        return 0;
    struct xport_op rop = {.kind = XPORT_OP_ACC, .op = (uint8_t)op, .typeid_ = (uint16_t)typeid_, .target = target,
                         .origin = (void *)origin, .result = result, .len = len, .offset = off};
    *status_p = ORMA_SUCCESS;
    if (rma_acc_hw_mt(win, &rop, p, t->shared))
        return 1;
    uint64_t mask = UINT64_C(1) << (stripe % RMA_STRIPES);
    rma_acc_exclude(win, target, mask, t->hw);
    rma_acc_in_place(&rop, p, plan);
    rma_stripe_unlock(t->stripes, mask);
    return 1;
}
