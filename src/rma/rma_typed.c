/* rma_typed.c -- typed put and get: one pass from the origin's layout
 * straight into the target's (mapped memory), or one batch of paired
 * iovecs per system call (memory reached by single-copy syscalls) -- never
 * pack, copy, unpack.  The idea of the single copy between two layouts is
 * the partitioned-address-space result of [001]. */
#include "rma_acc.h"
#include "rma_comm.h"
#include "dtype_iter.h"
#include "dtype_type.h"
#include "shm_cma.h"

#include <stdlib.h>
#include <string.h>

#include <stdint.h>
#include <sys/uio.h>

/* Paired iovecs per system call (IOV_MAX is 1024). */
#define RMA_TYPED_BATCH 256

static int rma_typed_cma(struct rma_win *win, const struct rma_op *op, uintptr_t rorigin, int write)
{
    struct iovec l[RMA_TYPED_BATCH], r[RMA_TYPED_BATCH];
    struct dtype_pair pair;
    dtype_pair_init(&pair, op->otype, op->ocount, op->ttype, op->tcount);
    pid_t pid = win->targets[op->target].pid;
    int status = ORMA_SUCCESS;
    size_t n;
    while (!status && (n = dtype_pair_iov(&pair, op->origin, (char *)rorigin, l, r, RMA_TYPED_BATCH)))
        status = shm_cma_vec(pid, l, r, n, write);
    return status;
}

/* A typed get from memory reached by syscalls pays about as much per run
 * (remote iovec) as reading a kilobyte: when the target layout has runs
 * that short on average, read every byte it reaches in one call and copy
 * from there.  Reading the bytes between runs changes nothing.  Puts have
 * no such way out: writing the gaps back could undo others' updates. */
#define RMA_TYPED_STAGE_PER_RUN 1024
#define RMA_TYPED_STAGE_MAX ((size_t)16 << 20)

static int rma_typed_get_staged(struct rma_win *win, const struct rma_op *op, uintptr_t raddr)
{
    char *stage = malloc(op->len);
    if (!stage) /* the iovecs, then */
        return rma_typed_cma(win, op, raddr + (uintptr_t)op->torigin, 0);
    int status = shm_cma_read(win->targets[op->target].pid, raddr, stage, op->len);
    if (!status)
        dtype_copy(op->origin, op->ocount, op->otype, stage + op->torigin, op->tcount, op->ttype);
    free(stage);
    return status;
}

static int rma_typed_copy(struct rma_win *win, const struct rma_op *op, const struct rma_where *w)
{
    int put = op->kind == RMA_OP_PUT;
    if (w->path == RMA_PATH_DIRECT) {
        char *tbase = w->ptr + op->torigin;
        if (put)
            dtype_copy(tbase, op->tcount, op->ttype, op->origin, op->ocount, op->otype);
        else
            dtype_copy(op->origin, op->ocount, op->otype, tbase, op->tcount, op->ttype);
        return ORMA_SUCCESS;
    }
    if (!put && op->len <= RMA_TYPED_STAGE_MAX &&
        op->len / RMA_TYPED_STAGE_PER_RUN < dtype_runs_at_least(op->ttype, op->tcount))
        return rma_typed_get_staged(win, op, w->raddr);
    return rma_typed_cma(win, op, w->raddr + (uintptr_t)op->torigin, put);
}

/* A typed accumulate: the pieces where an origin run, a target run and a
 * result run (get_accumulate) all meet, each an accumulate of whole
 * elements of the one basic type, made atomic per element as any other
 * (rma_acc.c).  The target is walked once beside the origin and once
 * beside the result, and the two streams of pieces cut where either
 * ends; both walk the target in the same order, so they agree on it. */
struct rma_typed_side {
    struct dtype_pair pair; /* (this side, target) */
    int used;
    ptrdiff_t off, toff;
    size_t len;
};

static void rma_typed_side_init(struct rma_typed_side *s, const struct rma_op *op, orma_type t, size_t count)
{
    s->used = t != NULL;
    s->len = 0;
    s->off = s->toff = 0;
    if (s->used)
        dtype_pair_init(&s->pair, t, count, op->ttype, op->tcount);
}

/* Refill s if empty; 0 when its layout is exhausted. */
static int rma_typed_side_fill(struct rma_typed_side *s)
{
    return !s->used || s->len || dtype_pair_next(&s->pair, &s->off, &s->toff, &s->len);
}

static void rma_typed_side_take(struct rma_typed_side *s, size_t len)
{
    if (s->used) {
        s->off += (ptrdiff_t)len;
        s->toff += (ptrdiff_t)len;
        s->len -= len;
    }
}

/* n data bytes between the layout walked by it (over base: memory of
 * ours when direct, else the target's, by syscalls) and the dense data. */
static int rma_pairs_move(struct dtype_iter *it, int direct, char *base, uintptr_t raddr, pid_t pid, char *data,
                          size_t n, int to_layout)
{
    ptrdiff_t off;
    size_t len;
    while (n && dtype_iter_next(it, n, &off, &len)) {
        int status = ORMA_SUCCESS;
        if (direct)
            util_copy(to_layout ? base + off : data, to_layout ? data : base + off, len);
        else if (to_layout)
            status = shm_cma_write(pid, raddr + (uintptr_t)off, data, len);
        else
            status = shm_cma_read(pid, raddr + (uintptr_t)off, data, len);
        if (status)
            return status;
        data += len;
        n -= len;
    }
    return ORMA_SUCCESS;
}

/* A typed accumulate of a pair type whose elements hold padding
 * (ORMA_DOUBLE_INT, ORMA_SHORT_INT, ...): runs need not hold whole
 * elements, so element by element -- gathered from each layout, combined
 * by the kernel in an aligned element, scattered back -- with the whole
 * reach kept from everybody else's accumulates (rma_acc_locked). */
static int rma_typed_pairs(struct rma_win *win, const struct rma_op *op, const struct rma_where *w,
                           const struct rma_acc_plan *plan)
{
    orma_type pt = &orma_predefined_types.types[op->typeid_];
    size_t size = pt->size, n = op->tcount * op->ttype->size / size;
    int direct = w->path == RMA_PATH_DIRECT;
    char *tbase = direct ? w->ptr + op->torigin : NULL;
    uintptr_t raddr = direct ? 0 : w->raddr + (uintptr_t)op->torigin;
    pid_t pid = win->targets[op->target].pid;
    int writes = plan->writes && op->otype;
    struct dtype_iter io, ir, tr, tw;
    if (op->otype)
        dtype_iter_init(&io, op->otype, op->ocount);
    if (op->rtype)
        dtype_iter_init(&ir, op->rtype, op->rcount);
    dtype_iter_init(&tr, op->ttype, op->tcount);
    tw = tr;
    char od[64], td[64];
    _Alignas(64) char oe[64], te[64];
    int status = ORMA_SUCCESS;
    for (size_t e = 0; e < n && !status; e++) {
        if (writes)
            rma_pairs_move(&io, 1, op->origin, 0, 0, od, size, 0);
        if ((status = rma_pairs_move(&tr, direct, tbase, raddr, pid, td, size, 0)))
            break;
        if (op->rtype)
            rma_pairs_move(&ir, 1, op->result, 0, 0, td, size, 1);
        if (!writes)
            continue;
        dtype_unpack(oe, 1, pt, 0, size, od);
        dtype_unpack(te, 1, pt, 0, size, td);
        plan->kernel(te, oe, 1);
        dtype_pack(te, 1, pt, 0, size, td);
        status = rma_pairs_move(&tw, direct, tbase, raddr, pid, td, size, 1);
    }
    return status;
}

static int rma_typed_acc(struct rma_win *win, const struct rma_op *op, const struct rma_where *w)
{
    struct rma_typed_side o, r;
    rma_typed_side_init(&o, op, op->otype, op->ocount);
    rma_typed_side_init(&r, op, op->rtype, op->rcount);
    int status = ORMA_SUCCESS;
    if (!o.used && !r.used) /* NO_OP without result: nothing to do */
        return status;
    if (!orma_predefined_types.types[op->typeid_].contiguous)
        return rma_acc_locked(win, op, w, rma_typed_pairs);
    while (!status && rma_typed_side_fill(&o) && rma_typed_side_fill(&r)) {
        size_t len = !o.used ? r.len : !r.used || o.len < r.len ? o.len : r.len;
        ptrdiff_t at = op->torigin + (o.used ? o.toff : r.toff); /* from the start of the reached bytes */
        struct rma_op piece = {.kind = RMA_OP_ACC, .op = op->op, .typeid_ = op->typeid_, .target = op->target,
                               .origin = o.used ? (char *)op->origin + o.off : NULL,
                               .result = r.used ? (char *)op->result + r.off : NULL, .len = len,
                               .offset = op->offset + (size_t)at};
        struct rma_where pw = *w;
        if (pw.path == RMA_PATH_DIRECT)
            pw.ptr += at;
        else
            pw.raddr += (uintptr_t)at;
        status = rma_acc_execute(win, &piece, &pw);
        rma_typed_side_take(&o, len);
        rma_typed_side_take(&r, len);
    }
    return status;
}

int rma_typed_execute(struct rma_win *win, const struct rma_op *op, const struct rma_where *w)
{
    if (op->kind == RMA_OP_ACC)
        return rma_typed_acc(win, op, w);
    return rma_typed_copy(win, op, w);
}
