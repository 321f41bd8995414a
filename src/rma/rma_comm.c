/* rma_comm.c -- the slow paths of put and get, and the queue of operations
 * whose target has not opened the epoch yet (deferred, as in [004]). */
#include "rma_acc.h"
#include "rma_comm.h"
#include "rma_lock.h"
#include "rma_net.h"
#include "dtype_derived.h"
#include "shm_cma.h"
#include "util_config.h"
#include "util_status.h"
#include "util_wait.h"

#include <stdlib.h>

void rma_copy_chunked(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    for (size_t done = 0; done < len; done += RMA_COPY_CHUNK)
        util_copy(d + done, s + done, len - done < RMA_COPY_CHUNK ? len - done : RMA_COPY_CHUNK);
}

int rma_where_resolve(struct rma_win *win, int target, size_t len, size_t offset, struct rma_where *w)
{
    struct rma_target *t = &win->targets[target];
    w->outside = 0;
    switch (t->path) {
    case RMA_PATH_DIRECT:
        w->path = RMA_PATH_DIRECT;
        w->shared = t->shared;
        w->hw = t->hw;
        w->ptr = t->base + offset;
        return ORMA_SUCCESS;
    case RMA_PATH_CMA:
        w->path = RMA_PATH_CMA;
        w->shared = 0;
        w->hw = 0;
        w->raddr = t->raddr + offset;
        return ORMA_SUCCESS;
    case RMA_PATH_PART:
        w->hw = 1;
        /* Inside the adopted pages: mapped here.  Elsewhere, or across
         * their edge, the system calls, which reach the adopted pages as
         * well: the owner's addresses are unchanged. */
        if (offset >= t->lo && offset <= t->hi && len <= t->hi - offset) {
            w->path = RMA_PATH_DIRECT;
            w->shared = 1;
            w->ptr = t->base + offset;
        } else {
            w->path = RMA_PATH_CMA;
            w->shared = 0;
            w->raddr = t->raddr + offset;
        }
        return ORMA_SUCCESS;
    case RMA_PATH_DYNAMIC:
        return rma_dyn_resolve(win, target, (uint64_t)offset, len, w);
    default:
        return util_error(ORMA_ERR_RANGE, "rank %d exposes no memory in this window", target);
    }
}

/* A put or get across an edge of a target's adopted pages (RMA_PATH_PART)
 * meeting at least this many of them: those bytes copied directly, the
 * rest by system calls.  A put of 1 MB at displacement 0 of a malloc'd
 * window is then a system call for the head page's few KB and a memcpy,
 * not 1 MB through the kernel (about 2 GB/s here against 20-30); a
 * smaller share is not worth a second system call (about 1.5 us). */
#define RMA_PART_SPLIT_MIN 8192

/* len bytes of put or get op by system call: at the target's address
 * remote, skip bytes into the origin buffer. */
static int rma_cma_copy(struct rma_win *win, const struct rma_op *op, uintptr_t remote, size_t skip, size_t len)
{
    pid_t pid = win->targets[op->target].pid;
    char *o = (char *)op->origin + skip;
    return op->kind == RMA_OP_PUT ? shm_cma_write(pid, remote, o, len) : shm_cma_read(pid, remote, o, len);
}

/* len bytes of put or get op at p, mapped here, skip bytes into the origin
 * buffer. */
static void rma_mapped_copy(const struct rma_op *op, char *p, size_t skip, size_t len)
{
    char *o = (char *)op->origin + skip;
    if (op->kind == RMA_OP_PUT)
        rma_copy(p, o, len);
    else
        rma_copy(o, p, len);
}

static int rma_copy_part(struct rma_win *win, const struct rma_op *op)
{
    const struct rma_target *t = &win->targets[op->target];
    size_t off = op->offset, end = op->offset + op->len;
    size_t lo = off > t->lo ? off : t->lo, hi = end < t->hi ? end : t->hi;
    if (lo >= hi || hi - lo < RMA_PART_SPLIT_MIN)
        return rma_cma_copy(win, op, t->raddr + off, 0, op->len);
    int status = lo > off ? rma_cma_copy(win, op, t->raddr + off, 0, lo - off) : ORMA_SUCCESS;
    if (status)
        return status;
    rma_mapped_copy(op, t->base + lo, lo - off, hi - lo);
    return end > hi ? rma_cma_copy(win, op, t->raddr + hi, hi - off, end - hi) : ORMA_SUCCESS;
}

static int rma_op_execute(struct rma_win *win, const struct rma_op *op, const struct rma_where *w)
{
    if (op->ttype)
        return rma_typed_execute(win, op, w);
    if (op->kind == RMA_OP_ACC || op->kind == RMA_OP_CAS)
        return rma_acc_execute(win, op, w);
    if (w->path == RMA_PATH_DIRECT) {
        rma_mapped_copy(op, w->ptr, 0, op->len);
        return ORMA_SUCCESS;
    }
    if (win->targets[op->target].path == RMA_PATH_PART)
        return rma_copy_part(win, op);
    return rma_cma_copy(win, op, w->raddr, 0, op->len);
}

int rma_copy_far(struct rma_win *win, int put, int target, size_t off, void *origin, size_t len, int next,
                 int *status_p)
{
    struct rma_where w;
    if (rma_where_resolve(win, target, len, off, &w) != ORMA_SUCCESS)
        return 0; /* the checked path says why */
    struct rma_op op = {.kind = put ? RMA_OP_PUT : RMA_OP_GET, .target = target, .origin = origin, .len = len,
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
    if (t->ready == win->access_gen)
        return;
    if (acc == RMA_ACC_FENCE || acc == RMA_ACC_FENCE_MAYBE)
        util_wait_geq(&t->ctl->fence_seq, win->fence_epoch);
    else if (acc == RMA_ACC_START && !win->nocheck)
        util_wait_geq(&rma_ctl_post_from(win->ctl, win->my_ctl)[target], t->post_expected);
    t->ready = win->access_gen;
}

/* fn (hold or release) on each datatype a typed operation names. */
static void rma_op_types(const struct rma_op *op, void (*fn)(orma_type))
{
    orma_type types[3] = {op->otype, op->ttype, op->rtype};
    for (int i = 0; i < 3; i++)
        if (types[i])
            fn(types[i]);
}

static int rma_queue_push(struct rma_win *win, const struct rma_op *op)
{
    if (win->nqueued == win->queue_cap) {
        size_t cap = win->queue_cap ? 2 * win->queue_cap : 64;
        struct rma_op *q = realloc(win->queue, cap * sizeof *q);
        if (!q)
            return util_error(ORMA_ERR_NOMEM, "out of memory queueing operation %zu of the epoch", cap);
        win->queue = q;
        win->queue_cap = cap;
    }
    win->queue[win->nqueued++] = *op;
    win->targets[op->target].queued++;
    if (op->ttype) /* the user may free the types before the epoch closes */
        rma_op_types(op, dtype_hold);
    return ORMA_SUCCESS;
}

/* Perform a queued operation and let go of what the queue held for it. */
static int rma_op_perform(struct rma_win *win, const struct rma_op *op)
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
    win->targets[target].queued = 0;
    return status;
}

int rma_comm_slow(struct rma_win *win, const struct rma_op *op)
{
    int target = op->target;
    struct rma_target *t = &win->targets[target];
    if (op->len == 0)
        return ORMA_SUCCESS;
    if (t->path == RMA_PATH_NET) {
        int status = win->flavor == ORMA_WIN_FLAVOR_DYNAMIC
                         ? rma_net_dyn_check(win, target, (uint64_t)op->offset, op->len)
                         : ORMA_SUCCESS;
        return status ? status : rma_net_queue(win, op);
    }
    /* Resolve now, so a bad address of a dynamic window is reported by the
     * call that made it, not by the closing synchronization. */
    struct rma_where w;
    int status = rma_where_resolve(win, target, op->len, op->offset, &w);
    if (status)
        return status;
    if (!rma_target_open(win, target))
        return rma_queue_push(win, op);
    status = t->queued ? rma_queue_flush_target(win, target) : ORMA_SUCCESS;
    int rc = rma_op_execute(win, op, &w);
    return status ? status : rc;
}

int rma_comm_drain(struct rma_win *win, int acc)
{
    int status = ORMA_SUCCESS;
    for (size_t i = 0; i < win->nqueued; i++) {
        struct rma_op *op = &win->queue[i];
        rma_target_wait_ready(win, op->target, acc);
        int rc = rma_op_perform(win, op);
        if (!status)
            status = rc;
    }
    for (size_t i = 0; i < win->nqueued; i++)
        win->targets[win->queue[i].target].queued = 0;
    win->nqueued = 0;
    return status;
}
