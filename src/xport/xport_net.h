/* xport_net.h -- the net transport: a window's targets reached over the
 * wire of net_ops.h: targets on other nodes, or every other rank when
 * ORMA_TRANSPORT=net.  The protocols are those of [004] section 4, where
 * every synchronization does almost nothing when it opens an epoch and
 * everything when it closes it:
 *
 * - an operation to such a target is only queued (rma_target.net);
 * - fence: the closing fence sums, over all ranks, "does rank i have
 *   operations for rank j" (a reduce-scatter: no barrier anywhere), then
 *   every origin sends its operations, the last to each target flagged;
 *   a target returns once as many flagged last operations as the sum said
 *   have been handled.  In a window of up to XPORT_NET_DIRECT_FENCE ranks
 *   every origin flags one message to every net target instead, so that
 *   the flags themselves say how many to count: one trip, no collective.
 *   Every request carries the number of fences its origin had made, and a
 *   target holds it until it has made as many: a quick origin may leave a
 *   fence while its target still handles the epoch before;
 * - PSCW: post and start send nothing; complete sends its operations at
 *   once, the last flagged -- or, to a target it had nothing for, the flag
 *   alone -- each marked with the number of the access epoch it belongs to
 *   (this origin's to this target); a target holds what comes for an epoch
 *   it has not posted yet, with the source's requests behind it, and lets
 *   it in when it posts; wait returns once every origin's flag is in.
 *   [004] has post send each origin a message and complete wait for it
 *   before sending anything.  Over TCP here that message cost 15-17 us of
 *   a 45 us ghost-exchange step (p=2) -- each message costs system calls at
 *   both ends -- and made PSCW slower than Open MPI's own.  The price: a
 *   target that posts late holds what arrived early (as a fence target
 *   holds a quick origin's next epoch), large payloads included; and a get
 *   is answered, so complete returns, only once the target has posted.
 * - lock: nothing until unlock (or a flush), which sends a lock request and
 *   waits for the grant, sends the operations with the gets last, the last
 *   flagged to release the lock; a lone small operation travels inside the
 *   request.  The target queues a conflicting request in the same ticket
 *   lock its own rank and the ranks of its node use (xport_net_host).
 *   An origin holding several locks of a window at once takes them in the
 *   order it called lock, each before the next (xport_net_ask): taken
 *   late, they would be taken out of that order -- its own and its node's
 *   targets' at once, the others' at the flush -- and two origins that each
 *   lock every rank in rank order could hold one each and wait forever.
 *   Under ORMA_THREAD_MULTIPLE every lock is taken so, at orma_win_lock:
 *   unlock and flush wait holding the window, and a wait for a grant must
 *   not (rma_lock).
 *
 * Every flag says "once this many of my operations have been handled
 * here" (upto): a large payload is delivered when it has landed, which may
 * be after the small messages sent behind it (net_am.h).
 *
 * Notifications (orma_put_notify and kin): an operation of their own
 * (XPORT_NET_NOTIFY) whose raise is such an action at its own upto, so the
 * target raises the counter once everything this origin sent it before is
 * handled.  They do not wait for the closing synchronization: a notification
 * and everything queued for its target before it go at once, and the
 * synchronization completes them with the rest (xport_net_notify_ says how,
 * per epoch).  The gets among them are answered from a copy, which the
 * counter's raise cannot change.
 *
 * Unlock and flush wait for the target's acknowledgement (or, when the last
 * operation is a get, for its data): MPI's unified model lets the target
 * read its memory right after the origin's unlock and a barrier, so the
 * operations must be done there, exclusive lock or not.
 *
 * Progress: the target handles what arrives whenever this rank waits in
 * orma (util_wait's hook) and in every synchronization call. */
#ifndef ORMA_XPORT_NET_H
#define ORMA_XPORT_NET_H

#include "net_ops.h"
#include "xport.h"

#include <stddef.h>
#include <stdint.h>

/* The kind of access epoch of ours a peer is in (xport_net_peer_view). */
enum { XPORT_NET_ACCESS_NONE, XPORT_NET_ACCESS_FENCE, XPORT_NET_ACCESS_START, XPORT_NET_ACCESS_PASSIVE };

/* What the synchronizations know of one peer, asked for by the protocol
 * (struct xport_net_host.peer). */
struct xport_net_peer_view {
    uint8_t access;             /* XPORT_NET_ACCESS_*: our access epoch, as it reaches it */
    uint8_t in_access;          /* we are in a PSCW access epoch to it */
    uint8_t in_exposure;        /* it is in our exposure epoch */
    uint8_t lock;               /* the lock type we hold there now, 0 with NOCHECK */
    uint32_t complete_expected; /* its completes an ended exposure waits for */
};

/* The window above, as the protocol reaches it: its numbers, and the calls
 * a target makes on its own memory and lock with ctx (the rma window).
 * Registered at open; called with the transport's lock held. */
struct xport_net_host {
    void *ctx;
    unsigned id; /* for messages */
    int rank, nranks;
    /* The bytes [offset, offset + len) of our window as an address here,
     * or NULL: outside it (the caller says so). */
    char *(*local)(void *ctx, uint64_t offset, uint64_t len);
    /* Carry out an accumulate or compare-and-swap, typed or not, on our
     * memory for another rank, with the atomicity our own origins get. */
    int (*apply)(void *ctx, const struct xport_op *op);
    /* A dynamic window's attached regions as (base, size) pairs, at most
     * max of them; returns how many there are.  NULL: not a dynamic window. */
    size_t (*regions)(void *ctx, uint64_t *pairs, size_t max);
    /* Our lock, in the ticket lock our own rank uses: ask (a ticket), test,
     * release. */
    uint64_t (*lock_ask)(void *ctx, int type);
    int (*lock_granted)(void *ctx, int type, uint64_t ticket);
    void (*lock_release)(void *ctx, int type);
    void (*peer)(void *ctx, int rank, struct xport_net_peer_view *v);
};

struct xport_net;

/* Open the endpoint of a window being created (collective over its
 * ranks); the ranks marked in is_net (host->nranks bytes) are reached
 * through it.  The host is copied. */
int xport_net_open(struct xport_net **n_p, const struct xport_net_host *host, const struct net_ops *ops,
                   const void *comm, const unsigned char *is_net);
/* Collective: everything in flight delivered, then freed. */
int xport_net_close(struct xport_net **n_p);
/* Local: freed at once (orma_finalize, a failed creation). */
void xport_net_abandon(struct xport_net **n_p);

/* Queue an operation to a net target (rma_comm_slow). */
int xport_net_queue(struct xport_net *n, const struct xport_op *op);
/* A notification (XPORT_OP_NOTIFY) to a net target, behind the operations
 * queued for it: sent at once with them (xport_net_notify_). */
int xport_net_notify(struct xport_net *n, const struct xport_op *op);

/* The synchronizations' net parts (rma_fence.c, rma_pscw.c,
 * rma_passive.c call them when the window has an endpoint). */
int xport_net_fence(struct xport_net *n, int closes);
int xport_net_post(struct xport_net *n, const int *ranks, int count);
int xport_net_complete(struct xport_net *n);
int xport_net_exposure_done(struct xport_net *n);
/* lock: the type taken, 0 with NOCHECK; target < 0: every net target's
 * (unlock_all), released together and waited for once.  local: the
 * window's orma_unlock_local (complete here only). */
int xport_net_unlock(struct xport_net *n, int target, int lock, int local);
/* A dynamic window: whether [addr, addr + len) of target is inside a
 * region it has attached -- as it told us in this access epoch (gen, the
 * window's count of them), or, when not, as it tells us now (a round
 * trip): ORMA_ERR_RANGE, said, when it is not.  So a bad address is
 * reported by the call that made it, as on shared memory. */
int xport_net_dyn_check(struct xport_net *n, int target, uint64_t addr, size_t len, uint32_t gen);
/* Take target's lock now: ask for it (unless asked for already), then wait
 * until it is granted.  Two calls, so that a caller may let go of what its
 * other threads need while it waits (rma_lock), yet ask for the lock while
 * it still holds that -- the lock's epoch cannot end between. */
int xport_net_ask(struct xport_net *n, int target, int lock);
int xport_net_granted(struct xport_net *n, int target);
/* target < 0: all; local: flush_local (complete here only) */
int xport_net_flush(struct xport_net *n, int target, int local);

/* Handle what has arrived for every window, without waiting. */
void xport_net_poll(void);
/* Whether any window uses the net transport. */
int xport_net_active(void);

/* Set by a face whose transport may be called from a second thread
 * (liborma-mpi under MPI_THREAD_MULTIPLE): ORMA_PROGRESS_THREAD=1 then
 * starts one with the first net window. */
extern int xport_net_thread_ok;

#endif
