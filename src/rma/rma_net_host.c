/* rma_net_host.c -- a window as the net transport (xport_net.h) sees it:
 * the targets it reaches, and the calls a target makes there on its own
 * memory, lock and attached regions for a remote origin. */
#include "rma_acc.h"
#include "rma_comm.h"
#include "rma_epoch.h"
#include "rma_lock.h"
#include "rma_notify.h"
#include "rma_win.h"
#include "xport_net.h"
#include "util_status.h"

#include <stdlib.h>

/* Where [offset, offset + len) of our own window is, as an address here;
 * NULL outside it -- outside our attached regions too: the origin refused
 * that already (xport_net_dyn_check), and we would reach it by a plain
 * copy, not a system call that fails where nothing is mapped. */
static char *rma_net_host_where(struct rma_win *win, uint64_t offset, uint64_t len, struct rma_where *w)
{
    if (len > SIZE_MAX || offset > SIZE_MAX ||
        (win->flavor != ORMA_WIN_FLAVOR_DYNAMIC && (offset > win->size || len > win->size - offset)) ||
        rma_where_resolve(win, win->rank, (size_t)len, (size_t)offset, w) != ORMA_SUCCESS || w->outside)
        return NULL;
    if (!w->at.ops->mapped) /* our own private memory: our address */
        xport_set_here(&w->at, (void *)w->at.addr);
    return xport_ptr(&w->at);
}

static char *rma_net_host_local(void *ctx, uint64_t offset, uint64_t len)
{
    struct rma_where w;
    return rma_net_host_where(ctx, offset, len, &w);
}

/* With the rules of our own origins (stripes: rma_acc.c) -- as if our rank
 * were the origin -- but never on the hw_busy slots our rank's own
 * accumulates write (rma_acc_for_peer). */
int rma_acc_host(struct rma_win *win, const struct xport_op *op)
{
    struct rma_where w;
    if (!rma_net_host_where(win, op->offset, op->len, &w))
        return util_error(ORMA_ERR_RANGE, "window %u: an accumulate of %zu bytes at %zu lies outside rank %d's window",
                          win->id, op->len, op->offset, win->rank);
    rma_acc_for_peer = 1;
    int status = op->ttype ? rma_typed_execute(win, op, &w) : rma_acc_execute_plain(win, op, &w);
    rma_acc_for_peer = 0;
    return status;
}

static int rma_net_host_apply(void *ctx, const struct xport_op *op)
{
    struct rma_win *win = ctx;
    if (op->kind == XPORT_OP_NOTIFY) /* op->target: the origin */
        return rma_notify_host(win, op, op->target);
    if (!rma_acc_plan_peer(op))
        return util_error(ORMA_ERR_PEER, "window %u: rank %d was asked for an accumulate it cannot apply (kind %u, "
                          "op %u, type %u, %zu bytes)", win->id, win->rank, op->kind, op->op, op->typeid_, op->len);
    return rma_acc_host(win, op);
}

static size_t rma_net_host_regions(void *ctx, uint64_t *pairs, size_t max)
{
    return rma_dyn_regions(ctx, pairs, max);
}

static uint64_t rma_net_host_lock_ask(void *ctx, int type)
{
    return rma_lock_ask(((struct rma_win *)ctx)->my_ctl, type);
}

static int rma_net_host_lock_granted(void *ctx, int type, uint64_t ticket)
{
    return rma_lock_granted(((struct rma_win *)ctx)->my_ctl, type, ticket);
}

static void rma_net_host_lock_release(void *ctx, int type)
{
    rma_lock_release(((struct rma_win *)ctx)->my_ctl, type);
}

static void rma_net_host_peer(void *ctx, int rank, struct xport_net_peer_view *v)
{
    struct rma_win *win = ctx;
    const struct rma_target *t = &win->targets[rank];
    int acc = RMA_EPOCH_ACCESS(win->epoch_state), all = acc == RMA_ACC_LOCK_ALL;
    v->access = acc == RMA_ACC_FENCE || acc == RMA_ACC_FENCE_MAYBE ? XPORT_NET_ACCESS_FENCE
                : acc == RMA_ACC_START                           ? XPORT_NET_ACCESS_START
                : all || acc == RMA_ACC_LOCK                     ? XPORT_NET_ACCESS_PASSIVE
                                                                 : XPORT_NET_ACCESS_NONE;
    v->in_access = t->in_access;
    v->in_exposure = t->in_exposure;
    v->lock = (uint8_t)(all ? (win->nocheck ? 0 : ORMA_LOCK_SHARED) : (t->lock_held ? t->lock_type : 0));
    v->complete_expected = t->complete_expected;
}

int rma_net_open(struct rma_win *win, const struct net_ops *ops, const void *comm, int all)
{
    unsigned char *is_net = calloc((size_t)win->nranks, 1);
    if (!is_net)
        return util_error(ORMA_ERR_NOMEM, "window %u: out of memory for the net transport", win->id);
    for (int r = 0; r < win->nranks; r++)
        is_net[r] = r != win->rank && (all || win->targets[r].off_node);
    struct xport_net_host host = {
        .ctx = win, .id = win->id, .rank = win->rank, .nranks = win->nranks,
        .local = rma_net_host_local, .apply = rma_net_host_apply,
        .regions = win->flavor == ORMA_WIN_FLAVOR_DYNAMIC ? rma_net_host_regions : NULL,
        .lock_ask = rma_net_host_lock_ask, .lock_granted = rma_net_host_lock_granted,
        .lock_release = rma_net_host_lock_release, .peer = rma_net_host_peer};
    int status = xport_net_open(&win->net, &host, ops, comm, is_net);
    for (int r = 0; r < win->nranks && !status; r++)
        if (is_net[r]) {
            struct rma_target *t = &win->targets[r];
            t->net = 1; /* no other transport reaches it any more */
            t->direct = 0;
            t->lo = t->hi = 0;
            t->box = NULL;
        }
    free(is_net);
    return status;
}
