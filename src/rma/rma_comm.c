/* rma_comm.c -- the slow paths of put and get, and the queue of operations
 * whose target has not opened the epoch yet (deferred, as in [004]). */
#include "rma_acc.h"
#include "rma_comm.h"
#include "rma_lock.h"
#include "xport_net.h"
#include "dtype_derived.h"
#include "util_config.h"
#include "util_status.h"
#include "util_wait.h"
#include "rma_watch.h"

#include <stdlib.h>

int rma_where_resolve(struct rma_win *win, int target, size_t len, size_t offset, struct rma_where *w)
{
    struct rma_target *t = &win->targets[target];
    if (!t->xp)
        return rma_dyn_resolve(win, target, (uint64_t)offset, len, w);
    w->outside = 0;
    w->hw = t->hw;
    /* Inside the pages of a cma target mapped here: those.  Elsewhere, or
     * across their edge, the system calls, which reach the mapped pages as
     * well: the owner's addresses are unchanged. */
    if (rma_target_maps(t, offset, len)) {
        w->shared = t->direct ? t->shared : 1;
        xport_set_here(&w->at, t->base + offset);
        return ORMA_SUCCESS;
    }
    w->shared = 0;
    w->at = rma_target_far(t, target, offset);
    return xport_reach(&w->at);
}

int rma_far_pieces(struct rma_win *win, int target, int put, const struct xport_piece *p, size_t n)
{
    const struct rma_target *t = &win->targets[target];
    struct xport_at at = rma_target_far(t, target, 0);
    int status = (put ? t->xp->put_pieces : t->xp->get_pieces)(&at, p, n);
    if (status)
        return util_error(status, "window %u: the %s of rank %d %s rank %d could not be carried out (%s)", win->id,
                          put ? "puts" : "gets", win->rank, put ? "to" : "from", target, orma_error_message());
    return ORMA_SUCCESS;
}

/* A put or get across an edge of the pages of a cma target mapped here
 * meeting at least this many of them: those bytes copied directly, the
 * rest by system calls.  A put of 1 MB at displacement 0 of a malloc'd
 * window is then a system call for the head page's few KB and a memcpy,
 * not 1 MB through the kernel (about 2 GB/s here against 20-30); a
 * smaller share is not worth a second system call (about 1.5 us). */
#define RMA_PART_SPLIT_MIN 8192

/* len bytes of put or get op at at, skip bytes into the origin buffer. */
static int rma_op_move(const struct xport_op *op, const struct xport_at *at, size_t skip, size_t len)
{
    char *o = (char *)op->origin + skip;
    return op->kind == XPORT_OP_PUT ? at->ops->put(at, 0, o, len) : at->ops->get(at, 0, o, len);
}

/* A put or get to a cma target, the share of its mapped pages copied
 * directly when it is large enough. */
static int rma_copy_part(struct rma_win *win, const struct xport_op *op, const struct rma_where *w)
{
    const struct rma_target *t = &win->targets[op->target];
    size_t off = op->offset, end = op->offset + op->len;
    size_t lo = off > t->lo ? off : t->lo, hi = end < t->hi ? end : t->hi;
    if (lo >= hi || hi - lo < RMA_PART_SPLIT_MIN)
        return rma_op_move(op, &w->at, 0, op->len);
    int status = lo > off ? rma_op_move(op, &w->at, 0, lo - off) : ORMA_SUCCESS;
    if (status)
        return status;
    struct xport_at mapped = xport_here(t->base + lo);
    rma_op_move(op, &mapped, lo - off, hi - lo);
    if (end <= hi)
        return ORMA_SUCCESS;
    struct xport_at tail = xport_advance(&w->at, (ptrdiff_t)(hi - off));
    return rma_op_move(op, &tail, hi - off, end - hi);
}

static int rma_op_execute(struct rma_win *win, const struct xport_op *op, const struct rma_where *w)
{
    struct rma_target *t = &win->targets[op->target];
    int put = op->kind == XPORT_OP_PUT, contig = !op->ttype && (put || op->kind == XPORT_OP_GET);
    /* Our box and our gather at t are never both pending: each is emptied
     * before the other takes an operation, so they land in issue order. */
    int status;
    if (!w->at.ops->mapped && contig && rma_box_takes(win, t, op->len, put)) {
        if (rma_gathered(t) && (status = rma_gather_complete(win, op->target)))
            return status;
        return put ? rma_box_put(win, op->target, op->offset, op->origin, op->len)
                   : rma_box_get(win, op->target, op->offset, op->origin, op->len);
    }
    /* accumulates likewise: the fetching ones as gets, the others as puts */
    if (!w->at.ops->mapped && !op->ttype && (op->kind == XPORT_OP_ACC || op->kind == XPORT_OP_CAS) &&
        rma_box_takes(win, t, op->len, op->kind == XPORT_OP_ACC && !op->result)) {
        if (rma_gathered(t) && (status = rma_gather_complete(win, op->target)))
            return status;
        return rma_box_acc(win, op);
    }
    /* the box's puts land when the target closes its epoch (or serves the
     * box): before anything else of ours, which may land earlier */
    status = rma_box_pending(t) ? rma_box_flush(win, op->target) : ORMA_SUCCESS;
    if (status)
        return status;
    if (!w->at.ops->mapped && contig && rma_gather_takes(win, t, op->len))
        return rma_gather_add(win, op);
    if (rma_gathered(t) && (status = rma_gather_complete(win, op->target)))
        return status;
    if (op->ttype)
        return rma_typed_execute(win, op, w);
    if (op->kind == XPORT_OP_ACC || op->kind == XPORT_OP_CAS)
        return rma_acc_execute(win, op, w);
    if (w->at.ops->mapped) { /* loads and stores, inline rather than through the table's call */
        if (op->kind == XPORT_OP_PUT)
            xport_copy(xport_ptr(&w->at), op->origin, op->len);
        else
            xport_copy(op->origin, xport_ptr(&w->at), op->len);
        return ORMA_SUCCESS;
    }
    if (win->targets[op->target].lo < win->targets[op->target].hi)
        return rma_copy_part(win, op, w);
    return rma_op_move(op, &w->at, 0, op->len);
}

int rma_copy_far(struct rma_win *win, int put, int target, size_t off, void *origin, size_t len, int next,
                 int *status_p)
{
    if (rma_threads) /* system calls, a dynamic window's lookup: the locked path's (rma_mt.h) */
        return 0;
    struct rma_where w;
    if (rma_where_resolve(win, target, len, off, &w) != ORMA_SUCCESS)
        return 0; /* the checked path says why */
    struct xport_op op = {.kind = put ? XPORT_OP_PUT : XPORT_OP_GET, .target = target, .origin = origin, .len = len,
                        .offset = off};
    *status_p = rma_op_execute(win, &op, &w);
    if (*status_p != ORMA_ERR_RANGE)
        rma_epoch_set(win, next);
    return 1;
}

/* Block until target can be accessed in an epoch of kind acc (fence: it
 * has opened the epoch; PSCW: its post is visible). */
static void rma_target_wait_ready(struct rma_win *win, int target, int acc)
{
    struct rma_target *t = &win->targets[target];
    if (RMA_LD(t->ready) == RMA_LD(win->access_gen))
        return;
    rma_box_settle(win, t);
    if (acc == RMA_ACC_FENCE || acc == RMA_ACC_FENCE_MAYBE)
        rma_wait_geq(win, &t->ctl->fence_seq, win->fence_epoch); /* gone: win->peer_lost says */
    else if (acc == RMA_ACC_START && !win->nocheck)
        rma_wait_geq(win, &rma_ctl_post_from(win->ctl, win->my_ctl)[target], t->post_expected);
    RMA_ST(t->ready, RMA_LD(win->access_gen));
}

/* fn (hold or release) on each datatype a typed operation names. */
static void rma_op_types(const struct xport_op *op, void (*fn)(orma_type))
{
    orma_type types[3] = {op->otype, op->ttype, op->rtype};
    for (int i = 0; i < 3; i++)
        if (types[i])
            fn(types[i]);
}

static int rma_queue_push(struct rma_win *win, const struct xport_op *op)
{
    if (win->nqueued == win->queue_cap) {
        size_t cap = win->queue_cap ? 2 * win->queue_cap : 64;
        struct xport_op *q = realloc(win->queue, cap * sizeof *q);
        if (!q)
            return util_error(ORMA_ERR_NOMEM, "out of memory queueing operation %zu of the epoch", cap);
        win->queue = q;
        win->queue_cap = cap;
    }
    win->queue[win->nqueued++] = *op;
    RMA_ADD(win->targets[op->target].queued, 1);
    if (op->ttype) /* the user may free the types before the epoch closes */
        rma_op_types(op, dtype_hold);
    return ORMA_SUCCESS;
}

/* Perform a queued operation and let go of what the queue held for it. */
static int rma_op_perform(struct rma_win *win, const struct xport_op *op)
{
    struct rma_where w;
    int status = rma_where_resolve(win, op->target, op->len, op->offset, &w);
    if (!status)
        status = rma_op_execute(win, op, &w);
    if (op->ttype)
        rma_op_types(op, dtype_release);
    return status;
}

/* Perform, in issue order, the queued operations for one target (which has
 * opened the epoch) and drop them from the queue. */
static int rma_queue_flush_target(struct rma_win *win, int target)
{
    int status = ORMA_SUCCESS;
    size_t keep = 0;
    for (size_t i = 0; i < win->nqueued; i++) {
        if (win->queue[i].target == target) {
            int rc = rma_op_perform(win, &win->queue[i]);
            if (!status)
                status = rc;
        } else {
            win->queue[keep++] = win->queue[i];
        }
    }
    win->nqueued = keep;
    RMA_ST(win->targets[target].queued, 0);
    return status;
}

int rma_comm_slow(struct rma_win *win, const struct xport_op *op)
{
    int target = op->target;
    struct rma_target *t = &win->targets[target];
    if (op->len == 0)
        return ORMA_SUCCESS;
    if (t->net) {
        int status = win->flavor == ORMA_WIN_FLAVOR_DYNAMIC
                         ? xport_net_dyn_check(win->net, target, (uint64_t)op->offset, op->len, win->access_gen)
                         : ORMA_SUCCESS;
        return status ? status : xport_net_queue(win->net, op);
    }
    /* Resolve now, so a bad address of a dynamic window is reported by the
     * call that made it, not by the closing synchronization. */
    struct rma_where w;
    int status = rma_where_resolve(win, target, op->len, op->offset, &w);
    if (status)
        return status;
    if (!rma_target_open(win, target)) {
        if (!win->notify_issuing)
            return rma_queue_push(win, op);
        /* a notified operation goes now, not at the closing synchronization */
        rma_target_wait_ready(win, target, RMA_EPOCH_ACCESS(win->epoch_state));
    }
    status = t->queued ? rma_queue_flush_target(win, target) : ORMA_SUCCESS;
    int rc = rma_op_execute(win, op, &w);
    return status ? status : rc;
}

int rma_comm_drain(struct rma_win *win, int acc)
{
    int status = ORMA_SUCCESS;
    win->drain_acc = acc; /* what the operations were issued in (rma_box.h) */
    for (size_t i = 0; i < win->nqueued; i++) {
        struct xport_op *op = &win->queue[i];
        rma_target_wait_ready(win, op->target, acc);
        int rc = rma_op_perform(win, op);
        if (!status)
            status = rc;
    }
    win->drain_acc = 0;
    for (size_t i = 0; i < win->nqueued; i++)
        RMA_ST(win->targets[win->queue[i].target].queued, 0);
    win->nqueued = 0;
    return status;
}
