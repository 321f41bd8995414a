/* rma_typed.c -- typed operations: put and get handed whole to the
 * target's transport (xport.h: one pass between the two layouts in mapped
 * memory, batches of paired iovecs by system calls), accumulates cut into
 * the pieces where the layouts meet. */
#include "rma_acc.h"
#include "rma_box.h"
#include "rma_comm.h"
#include "dtype_iter.h"
#include "dtype_type.h"

#include <string.h>

#include <stdint.h>

/* A typed put to a cma target whose whole pages are mapped here too (a
 * window on malloc'd memory adopted but for its partial pages,
 * shm_adopt.h), reaching across their edge: rather than every run by
 * system calls, as the transport would (a 1 MB FFT transpose: 65536 runs,
 * 2 ms), the runs inside the mapped pages are stored directly, in the
 * datatype engine's own loops clipped to them (dtype_copy_clipped), and
 * only the others, at most a page's worth at either end, gathered into
 * the transport's pieces.  Short runs there, and every run of a target layout
 * of short runs on memory not mapped at all (the kernel takes 0.3-0.8 us
 * for each remote iovec), go into our box at the target where the epoch
 * lets puts use it (rma_box.h): the target stores them when it empties
 * the box, a few ns each. */
#define RMA_TYPED_PIECES 256
/* A typed put of runs of at most RMA_TYPED_PACKED_RUN_MAX bytes on
 * average is packed into the box rather than sent run by run -- the kernel
 * pins a page for each remote iovec (0.15-0.8 us), packing and unpacking a
 * few KB take less -- unless it has fewer than RMA_TYPED_PACKED_RUNS runs
 * short enough to go as runs (no layout for the target to learn). */
#define RMA_TYPED_PACKED_RUNS 32
#define RMA_TYPED_PACKED_RUN_MAX 2048

/* What the runs outside the mapped pages become (dtype_clip's spill). */
struct rma_typed_spill {
    struct rma_win *win;
    const struct xport_op *op;
    const struct rma_where *w;
    char *base; /* where the window's offset 0 would be mapped */
    int boxed;
    size_t box_run, n;
    struct xport_piece p[RMA_TYPED_PIECES];
};

static int rma_typed_spill(void *ctx, char *dst, const char *src, size_t len)
{
    struct rma_typed_spill *sp = ctx;
    size_t woff = (size_t)(dst - sp->base); /* in the window */
    if (sp->boxed && len <= sp->box_run)
        return rma_box_run(sp->win, sp->op->target, woff, src, len);
    size_t off = woff - sp->op->offset, n = sp->n; /* past the first reached byte */
    struct xport_piece *p = sp->p;
    if (n && p[n - 1].off + p[n - 1].len == off && (const char *)p[n - 1].buf + p[n - 1].len == src) {
        p[n - 1].len += len;
        return ORMA_SUCCESS;
    }
    if (n == RMA_TYPED_PIECES) {
        int status = sp->w->at.ops->put_pieces(&sp->w->at, p, n);
        sp->n = n = 0;
        if (status)
            return status;
    }
    p[n] = (struct xport_piece){(void *)src, off, len};
    sp->n = n + 1;
    return ORMA_SUCCESS;
}

static int rma_typed_put_part(struct rma_win *win, const struct xport_op *op, const struct rma_where *w)
{
    const struct rma_target *t = &win->targets[op->target];
    static _Thread_local struct rma_typed_spill sp;
    sp.win = win;
    sp.op = op;
    sp.w = w;
    sp.n = 0;
    sp.boxed = rma_box_takes(win, t, 1, 1);
    sp.box_run = util_config.box_max < RMA_BOX_RUN_MAX ? util_config.box_max : RMA_BOX_RUN_MAX;
    /* the runs' places as if the whole window were mapped at base: the
     * ones outside [lo, hi) are only compared, never touched (nothing is
     * mapped when t->base is NULL: any other address serves) */
    sp.base = t->base ? t->base : (char *)(uintptr_t)4096;
    struct dtype_clip clip = {(uintptr_t)(sp.base + t->lo), (uintptr_t)(sp.base + t->hi), rma_typed_spill, &sp, 0};
    int status = dtype_copy_clipped(sp.base + op->offset + op->torigin, op->tcount, op->ttype, op->origin,
                                    op->ocount, op->otype, &clip);
    if (!status && sp.n)
        status = w->at.ops->put_pieces(&w->at, sp.p, sp.n);
    return status;
}

/* How a typed put to t, mapped nowhere here, goes by its box: not at all
 * (0: its runs are long enough for the transport), as runs (1), or
 * packed, for the target to unpack (2: many runs, rma_box_typed.c). */
static int rma_typed_boxes(const struct rma_win *win, const struct rma_target *t, const struct xport_op *op)
{
    if (!rma_box_takes(win, t, 1, 1))
        return 0;
    size_t runs = dtype_runs_at_least(op->ttype, op->tcount), avg = runs ? op->tcount * op->ttype->size / runs : 0;
    if (runs <= 1 || avg > RMA_TYPED_PACKED_RUN_MAX)
        return 0;
    return runs < RMA_TYPED_PACKED_RUNS && avg <= RMA_BOX_RUN_MAX ? 1 : 2;
}

static int rma_typed_copy(struct rma_win *win, const struct xport_op *op, const struct rma_where *w)
{
    if (op->kind == XPORT_OP_PUT && !w->at.ops->mapped && w->at.ops->put_pieces && op->target >= 0) {
        const struct rma_target *t = &win->targets[op->target];
        if (t->xp && !t->direct) {
            if (t->lo < t->hi && op->offset < t->hi && op->offset + op->len > t->lo)
                return rma_typed_put_part(win, op, w);
            int boxes = rma_typed_boxes(win, t, op);
            if (boxes == 2) {
                int status = rma_box_typed_put(win, op);
                if (status != ORMA_ERR_COUNT) /* the window names too many layouts so: as runs */
                    return status;
            }
            if (boxes)
                return rma_typed_put_part(win, op, w);
        }
    }
    struct xport_typed x = {.origin = op->origin, .otype = op->otype, .ocount = op->ocount, .ttype = op->ttype,
                            .tcount = op->tcount, .torigin = op->torigin, .reach = op->len};
    return op->kind == XPORT_OP_PUT ? w->at.ops->put_typed(&w->at, &x) : w->at.ops->get_typed(&w->at, &x);
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

static void rma_typed_side_init(struct rma_typed_side *s, const struct xport_op *op, orma_type t, size_t count)
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

/* n data bytes between the layout walked by it (over at) and the dense
 * data. */
static int rma_pairs_move(struct dtype_iter *it, const struct xport_at *at, char *data, size_t n, int to_layout)
{
    ptrdiff_t off;
    size_t len;
    while (n && dtype_iter_next(it, n, &off, &len)) {
        int status = to_layout ? at->ops->put(at, (size_t)off, data, len) : at->ops->get(at, (size_t)off, data, len);
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
static int rma_typed_pairs(struct rma_win *win, const struct xport_op *op, const struct rma_where *w,
                           const struct rma_acc_plan *plan)
{
    (void)win; /* an rma_acc_body: the window is the locking's */
    orma_type pt = &orma_predefined_types.types[op->typeid_];
    size_t size = pt->size, n = op->tcount * op->ttype->size / size;
    struct xport_at tat = xport_advance(&w->at, op->torigin), oat = xport_here(op->origin),
                    rat = xport_here(op->result);
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
            rma_pairs_move(&io, &oat, od, size, 0);
        if ((status = rma_pairs_move(&tr, &tat, td, size, 0)))
            break;
        if (op->rtype)
            rma_pairs_move(&ir, &rat, td, size, 1);
        if (!writes)
            continue;
        dtype_unpack(oe, 1, pt, 0, size, od);
        dtype_unpack(te, 1, pt, 0, size, td);
        plan->kernel(te, oe, 1);
        dtype_pack(te, 1, pt, 0, size, td);
        status = rma_pairs_move(&tw, &tat, td, size, 1);
    }
    return status;
}

static int rma_typed_acc(struct rma_win *win, const struct xport_op *op, const struct rma_where *w)
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
        struct xport_op piece = {.kind = XPORT_OP_ACC, .op = op->op, .typeid_ = op->typeid_, .target = op->target,
                               .origin = o.used ? (char *)op->origin + o.off : NULL,
                               .result = r.used ? (char *)op->result + r.off : NULL, .len = len,
                               .offset = op->offset + (size_t)at};
        struct rma_where pw = *w;
        pw.at = xport_advance(&w->at, at);
        status = rma_acc_execute(win, &piece, &pw);
        rma_typed_side_take(&o, len);
        rma_typed_side_take(&r, len);
    }
    return status;
}

int rma_typed_execute(struct rma_win *win, const struct xport_op *op, const struct rma_where *w)
{
    if (op->kind == XPORT_OP_ACC)
        return rma_typed_acc(win, op, w);
    return rma_typed_copy(win, op, w);
}
