/* xport_net_sync.c -- the synchronizations over the net transport, as
 * xport_net.h and [004] section 4 say. */
#include "xport_net_impl.h"
#include "util_status.h"
#include "util_wait.h"

#include <stdlib.h>
#include <string.h>

int xport_net_replies_in(struct xport_net *n, long arg)
{
    (void)arg;
    return n->replies_pending == 0;
}

static int xport_net_acks_in(struct xport_net *n, long t)
{
    return n->replies_pending == 0 && util_seq_geq(n->peer[t].acks_in, n->peer[t].acks_want);
}

static int xport_net_fenced(struct xport_net *n, long arg)
{
    (void)arg;
    return n->fence_in >= n->fence_expect && n->replies_pending == 0;
}

/* The first error a target reported, once. */
int xport_net_take_status(struct xport_net *n, int status)
{
    int s = n->status;
    n->status = ORMA_SUCCESS;
    return status ? status : s;
}

/* [004]'s closing fence: one reduce-scatter of "who has operations for
 * whom", then each origin's operations, the last to each target flagged. */
static int xport_net_fence_summed(struct xport_net *n)
{
    uint32_t *counts = calloc((size_t)n->host.nranks, sizeof *counts), mine = 0;
    if (!counts)
        return util_error(ORMA_ERR_NOMEM, "window %u: fence: out of memory", n->host.id);
    for (size_t i = 0; i < n->nqueued; i++)
        counts[n->queue[i].target] = 1;
    for (int r = 0; r < n->host.nranks; r++)
        counts[r] |= n->peer[r].fence_sent; /* what went at once is flagged too */
    int status = n->ops->sum_scatter(n->ep, counts, &mine);
    n->fence_expect += mine;
    for (int r = 0; r < n->host.nranks; r++) {
        if (!counts[r])
            continue;
        int rc = xport_net_send_target(n, r, XPORT_NET_F_FENCE, 0, 0, NULL);
        if (!status)
            status = rc;
    }
    free(counts);
    return status;
}

/* A small window's closing fence: every origin sends each of its net
 * targets its operations, the last flagged -- or the flag alone -- and
 * each target counts one flag from every net peer.  No collective: the
 * flags travel as the reduce-scatter's sums would have, one trip instead of
 * that collective's rounds and then the operations'.  A window of p ranks
 * sends p - 1 flags per rank, so large windows sum instead. */
static int xport_net_fence_direct(struct xport_net *n)
{
    int status = ORMA_SUCCESS;
    for (int r = 0; r < n->host.nranks; r++) {
        if (!n->peer[r].net)
            continue;
        n->fence_expect++;
        int rc = xport_net_send_target(n, r, XPORT_NET_F_FENCE, 0, 0, NULL);
        if (!status)
            status = rc;
    }
    return status;
}

/* Every fence is counted, closing or not, and every request carries the
 * count its origin had reached: a target handles it only once it has made
 * as many fences (xport_net_fenced_to).  Without that a quick origin, out of
 * a fence once its own operations are in, could reach a target still
 * handling the epoch before -- a third rank's get would read the new data. */
int xport_net_fence_(struct xport_net *n, int closes)
{
    int status = ORMA_SUCCESS;
    if (closes) { /* opening: nothing at all ([004] 4.1) */
        status = n->host.nranks <= XPORT_NET_DIRECT_FENCE ? xport_net_fence_direct(n) : xport_net_fence_summed(n);
        for (int r = 0; r < n->host.nranks; r++)
            n->peer[r].fence_sent = 0;
        xport_net_wait(n, xport_net_fenced, 0);
        int rc = xport_net_flush_sends(n);
        status = xport_net_take_status(n, status ? status : rc);
    }
    xport_net_fenced_to(n, n->fences + 1);
    return status;
}

/* NOCHECK saves nothing here: nothing is sent */
int xport_net_post_(struct xport_net *n, const int *ranks, int count)
{
    for (int i = 0; i < count; i++)
        if (n->peer[ranks[i]].net)
            n->peer[ranks[i]].posts_out++;
    xport_net_unpark(n); /* requests of the epochs now posted */
    return ORMA_SUCCESS;
}

int xport_net_complete_(struct xport_net *n)
{
    int status = ORMA_SUCCESS;
    for (int r = 0; r < n->host.nranks; r++) {
        struct xport_net_peer_view v;
        if (!n->peer[r].net || (n->host.peer(n->host.ctx, r, &v), !v.in_access))
            continue;
        n->start_round = ++n->peer[r].starts_out;
        int rc = xport_net_send_target(n, r, XPORT_NET_F_DONE, 0, 0, NULL);
        n->start_round = 0;
        if (!status)
            status = rc;
    }
    xport_net_wait(n, xport_net_replies_in, 0);
    int rc = xport_net_flush_sends(n);
    return xport_net_take_status(n, status ? status : rc);
}

int xport_net_exposure_done_(struct xport_net *n)
{
    for (int r = 0; r < n->host.nranks; r++) {
        struct xport_net_peer_view v;
        if (!n->peer[r].net)
            continue;
        n->host.peer(n->host.ctx, r, &v);
        if (v.in_exposure && !util_seq_geq(n->peer[r].done_in, v.complete_expected))
            return 0;
    }
    xport_net_flush_sends(n); /* our replies' data out before the user may change it */
    return 1;
}

/* The operations queued for target in a passive epoch, sent, to be waited
 * for (xport_net_passive_wait): local, until they are complete here (the
 * gets' data in, our buffers free to reuse); else complete there too (its
 * acknowledgement, or the data of a last get: the target handles a
 * source's requests in order).  lock: the type held in this epoch, 0 with
 * NOCHECK.
 *
 * [004] 4.3 asks for the lock and waits for the grant before sending the
 * operations, except for a lone operation, which travels inside the
 * request.  Here the lone operation does so too, and otherwise the request
 * goes first in the same stream, the operations right behind it: the
 * target keeps them until the lock is granted ([004]'s "additional
 * queuing at the target"), which saves the grant's round trip. */
static int xport_net_passive_post(struct xport_net *n, int target, int lock, uint32_t flags, int local)
{
    struct xport_net_peer *p = &n->peer[target];
    int status = ORMA_SUCCESS;
    size_t idx = SIZE_MAX, count = 0;
    for (size_t i = 0; i < n->nqueued; i++)
        if (n->queue[i].target == target)
            idx = i, count++;
    if (!lock)
        flags &= ~XPORT_NET_F_RELEASE;
    if (lock && !p->asked) {
        if (!count && (local || !p->unacked))
            return ORMA_SUCCESS; /* nothing was done there: nothing to do */
        const struct xport_op *op = &n->queue[idx];
        if (count == 1 && (flags & XPORT_NET_F_RELEASE) && !op->ttype && op->len <= n->ops->eager - 64) {
            int get = op->kind == XPORT_OP_GET || op->result, ack = !get && !local;
            p->acks_want += (uint32_t)ack;
            p->unacked += (uint64_t)(!get && local);
            status = xport_net_send_op(n, op, lock, flags | (ack ? XPORT_NET_F_ACK : 0));
            xport_net_op_sent(n, op);
            n->nqueued--;
            memmove(n->queue + idx, n->queue + idx + 1, (n->nqueued - idx) * sizeof *n->queue);
            return status;
        }
        status = xport_net_send_sync(n, target, lock, 0);
        p->asked = 1;
    }
    int acked = 0, rc = ORMA_SUCCESS;
    if (count) {
        rc = xport_net_send_target(n, target, flags, 1, !local, &acked);
        p->unacked = local ? p->unacked + count : 0;
    } else if (flags || (!local && p->unacked)) {
        /* an unlock or flush after flush_local: what was sent must be done there */
        acked = !local && p->unacked;
        rc = xport_net_send_sync(n, target, 0, flags | (acked ? XPORT_NET_F_ACK : 0));
        if (!local)
            p->unacked = 0;
    }
    if (acked)
        p->acks_want++;
    if (!status)
        status = rc;
    if (flags & XPORT_NET_F_RELEASE)
        p->asked = 0;
    return status;
}

/* Until what xport_net_passive_post sent to target (< 0: to every rank) is
 * complete: here only (local), or there too. */
static int xport_net_acks_all_in(struct xport_net *n, long arg)
{
    (void)arg;
    for (int r = 0; r < n->host.nranks; r++)
        if (!util_seq_geq(n->peer[r].acks_in, n->peer[r].acks_want))
            return 0;
    return n->replies_pending == 0;
}

static void xport_net_passive_wait(struct xport_net *n, int target, int local)
{
    if (local)
        xport_net_wait(n, xport_net_replies_in, 0);
    else if (target >= 0)
        xport_net_wait(n, xport_net_acks_in, target);
    else
        xport_net_wait(n, xport_net_acks_all_in, 0);
}

/* target < 0: every net target, each released first, then one wait for
 * them all: the round trips overlap.
 *
 * With the window's orma_unlock_local, unlock waits for local completion
 * only ([004] section 6's weaker unlock): the release goes behind the
 * operations, so the target carries them out before it grants its lock
 * again, but no acknowledgement comes back; a later flush, an unlock of a
 * window without the key, or the window's free waits for them. */
int xport_net_unlock_(struct xport_net *n, int target, int lock, int local)
{
    int status = ORMA_SUCCESS;
    for (int r = target < 0 ? 0 : target; r < (target < 0 ? n->host.nranks : target + 1); r++) {
        if (!n->peer[r].net)
            continue;
        int rc = xport_net_passive_post(n, r, lock, XPORT_NET_F_RELEASE, local);
        if (!status)
            status = rc;
    }
    xport_net_passive_wait(n, target, local);
    int rc = xport_net_flush_sends(n);
    return xport_net_take_status(n, status ? status : rc);
}

int xport_net_ask_(struct xport_net *n, int target, int lock)
{
    struct xport_net_peer *p = &n->peer[target];
    if (p->asked)
        return ORMA_SUCCESS;
    /* granted when the target handles it: requests wait there for the lock */
    int status = xport_net_send_sync(n, target, lock, XPORT_NET_F_ACK);
    p->asked = 1;
    p->grant_ack = ++p->acks_want;
    return status;
}

/* The acknowledgement of the lock request to t is in: a target answers a
 * source's requests in order, so acks_in passed it.  Only that: another
 * thread's operations meanwhile (xport_net_granted) are not waited for. */
static int xport_net_grant_in(struct xport_net *n, long t)
{
    return util_seq_geq(n->peer[t].acks_in, n->peer[t].grant_ack);
}

int xport_net_granted_(struct xport_net *n, int target)
{
    xport_net_wait(n, xport_net_grant_in, target);
    return xport_net_take_status(n, ORMA_SUCCESS);
}

int xport_net_flush_(struct xport_net *n, int target, int local)
{
    int status = ORMA_SUCCESS;
    for (int r = target < 0 ? 0 : target; r < (target < 0 ? n->host.nranks : target + 1); r++) {
        if (!n->peer[r].net || (!xport_net_has_ops(n, r) && (local || !n->peer[r].unacked)))
            continue;
        struct xport_net_peer_view v;
        n->host.peer(n->host.ctx, r, &v);
        int rc = xport_net_passive_post(n, r, v.lock, 0, local);
        if (!status)
            status = rc;
    }
    xport_net_passive_wait(n, target, local);
    int rc = xport_net_flush_sends(n);
    return xport_net_take_status(n, status ? status : rc);
}

/* A notification is queued behind the operations issued to its target
 * before it, then everything queued for that target goes at once, without
 * waiting for an acknowledgement: a target waiting on its counter must not
 * wait for our next synchronization, which may come only after we have
 * waited for it in turn (a producer waiting for its consumer's reply).  The
 * closing synchronization completes them as it completes the rest:
 *
 * - passive: sent as flush_local sends them, behind the lock request when
 *   the epoch has not sent it yet -- asked for as xport_net_ask asks, so
 *   that a lock of another target later in the epoch, which takes the locks
 *   held in order first (rma_lock), waits for this grant as well.  flush
 *   and unlock ask for the acknowledgement of what went (unacked);
 * - fence: they carry this epoch's round, and a target holds them until it
 *   has made that fence.  The closing fence flags the target even when
 *   nothing is left for it (fence_sent), so that it counts these in;
 * - PSCW: marked as the access epoch they belong to (XPORT_NET_F_START),
 *   and a target holds them until it has posted it; complete flags every
 *   target of the epoch anyway. */
int xport_net_notify_(struct xport_net *n, const struct xport_op *op)
{
    int target = op->target, status = xport_net_queue_(n, op);
    if (status)
        return status;
    struct xport_net_peer *p = &n->peer[target];
    struct xport_net_peer_view v;
    n->host.peer(n->host.ctx, target, &v);
    uint64_t before = p->ops_out;
    switch (v.access) {
    case XPORT_NET_ACCESS_PASSIVE:
        if (v.lock && !p->asked && (status = xport_net_ask_(n, target, v.lock)))
            return status;
        status = xport_net_send_target(n, target, 0, 0, 0, NULL);
        p->unacked += p->ops_out - before;
        return status;
    case XPORT_NET_ACCESS_FENCE:
        p->fence_sent = 1;
        return xport_net_send_target(n, target, 0, 0, 0, NULL);
    case XPORT_NET_ACCESS_START:
        n->start_round = p->starts_out + 1; /* complete's number for this epoch */
        status = xport_net_send_target(n, target, 0, 0, 0, NULL);
        n->start_round = 0;
        return status;
    default: /* no access epoch (the face refuses that): with the next synchronization */
        return ORMA_SUCCESS;
    }
}
