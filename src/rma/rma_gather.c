/* rma_gather.c -- puts and gets of passive epochs, gathered at the origin
 * (rma_gather.h). */
#include "rma_gather.h"
#include "rma_comm.h"

#include <stdlib.h>
#include <string.h>

void rma_gather_free(struct rma_gather *g)
{
    if (g)
        free(g->keep);
    free(g);
}

int rma_gather_complete(struct rma_win *win, int target)
{
    struct rma_gather *g = win->targets[target].gather;
    size_t n = g->n;
    g->n = g->used = g->borrowed = g->kept = 0;
    RMA_ADD(win->ngathered, -1);
    return rma_far_pieces(win, target, g->put, g->p, n);
}

int rma_gather_add(struct rma_win *win, const struct xport_op *op)
{
    struct rma_target *t = &win->targets[op->target];
    int put = op->kind == XPORT_OP_PUT, copy = put && op->len <= RMA_GATHER_COPY;
    if (!t->gather) {
        if (!(t->gather = calloc(1, sizeof *t->gather))) { /* no room to wait in: now */
            struct xport_piece now = {op->origin, op->offset, op->len};
            return rma_far_pieces(win, op->target, put, &now, 1);
        }
    }
    struct rma_gather *g = t->gather;
    if (g->n && (g->put != put || g->n == RMA_GATHER_PIECES || (copy && op->len > sizeof g->data - g->used))) {
        int status = rma_gather_complete(win, op->target); /* the other way, or full */
        if (status)
            return status;
    }
    if (!g->n) {
        g->put = put;
        RMA_ADD(win->ngathered, 1);
    }
    void *buf = op->origin;
    if (copy) {
        buf = memcpy(g->data + g->used, op->origin, op->len);
        g->used += op->len;
    } else {
        g->borrowed += put;
    }
    g->p[g->n++] = (struct xport_piece){buf, op->offset, op->len};
    return ORMA_SUCCESS;
}

/* Whether a piece's bytes are g's own (copied in), not a caller's. */
static int rma_gather_owns(const struct rma_gather *g, const void *buf)
{
    uintptr_t b = (uintptr_t)buf;
    return b - (uintptr_t)g->data < sizeof g->data || (g->keep && b - (uintptr_t)g->keep < RMA_GATHER_KEEP);
}

/* flush_local: the borrowed puts of g copied into its keep, if they fit
 * (1), so that the callers' buffers are free while the puts still wait. */
static int rma_gather_keep(struct rma_gather *g)
{
    size_t need = 0;
    for (size_t i = 0; i < g->n; i++)
        if (!rma_gather_owns(g, g->p[i].buf))
            need += g->p[i].len;
    if (need > RMA_GATHER_KEEP - g->kept || (!g->keep && !(g->keep = malloc(RMA_GATHER_KEEP))))
        return 0;
    for (size_t i = 0; i < g->n; i++) {
        if (rma_gather_owns(g, g->p[i].buf))
            continue;
        g->p[i].buf = memcpy(g->keep + g->kept, g->p[i].buf, g->p[i].len);
        g->kept += g->p[i].len;
    }
    g->borrowed = 0;
    return 1;
}

int rma_gather_sync(struct rma_win *win, int target, int local)
{
    int status = ORMA_SUCCESS;
    int lo = target < 0 ? 0 : target, hi = target < 0 ? win->nranks : target + 1;
    for (int r = lo; r < hi && win->ngathered; r++) {
        struct rma_target *t = &win->targets[r];
        if (!rma_gathered(t) || (local && t->gather->put && (!t->gather->borrowed || rma_gather_keep(t->gather))))
            continue; /* copied puts: the caller's buffers are free */
        int rc = rma_gather_complete(win, r);
        if (!status)
            status = rc;
    }
    return status;
}
