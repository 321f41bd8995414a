/* rma_net.h -- windows whose targets are reached over the net transport
 * (net_ops.h): targets on other nodes, or every other rank when
 * ORMA_TRANSPORT=net.  The protocols are those of [004] section 4, where
 * every synchronization does almost nothing when it opens an epoch and
 * everything when it closes it:
 *
 * - an operation to such a target is only queued (rma_target.net);
 * - fence: the closing fence sums, over all ranks, "does rank i have
 *   operations for rank j" (a reduce-scatter: no barrier anywhere), then
 *   every origin sends its operations, the last to each target flagged;
 *   a target returns once as many flagged last operations as the sum said
 *   have been handled.  In a window of up to RMA_NET_DIRECT_FENCE ranks
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
 *   lock its own rank and the ranks of its node use (rma_lock.h).
 *   An origin holding several locks of a window at once takes them in the
 *   order it called lock, each before the next (rma_net_acquire): taken
 *   late, they would be taken out of that order -- its own and its node's
 *   targets' at once, the others' at the flush -- and two origins that each
 *   lock every rank in rank order could hold one each and wait forever.
 *
 * Every flag says "once this many of my operations have been handled
 * here" (upto): a large payload is delivered when it has landed, which may
 * be after the small messages sent behind it (net_am.h).
 *
 * Unlock and flush wait for the target's acknowledgement (or, when the last
 * operation is a get, for its data): MPI's unified model lets the target
 * read its memory right after the origin's unlock and a barrier, so the
 * operations must be done there, exclusive lock or not.
 *
 * Progress: the target handles what arrives whenever this rank waits in
 * orma (util_wait's hook) and in every synchronization call. */
#ifndef ORMA_RMA_NET_H
#define ORMA_RMA_NET_H

#include "net_ops.h"
#include "rma_win.h"

/* Open the endpoint of a window being created (collective over its
 * ranks); its targets on other nodes -- all but this rank when all --
 * become net targets (rma_target.net). */
int rma_net_open(struct rma_win *win, const struct net_ops *ops, const void *comm, int all);
/* Collective: everything in flight delivered, then freed. */
int rma_net_close(struct rma_win *win);
/* Local: freed at once (orma_finalize, a failed creation). */
void rma_net_abandon(struct rma_win *win);

/* Queue an operation to a net target (rma_comm_slow). */
int rma_net_queue(struct rma_win *win, const struct rma_op *op);

/* The synchronizations' net parts (rma_fence.c, rma_pscw.c,
 * rma_passive.c call them when win->net is set). */
int rma_net_fence(struct rma_win *win, int closes);
int rma_net_post(struct rma_win *win, const int *ranks, int n, int assert);
int rma_net_complete(struct rma_win *win);
int rma_net_exposure_done(struct rma_win *win);
/* lock: the type taken, 0 with NOCHECK; target < 0: every net target's
 * (unlock_all), released together and waited for once. */
int rma_net_unlock(struct rma_win *win, int target, int lock);
/* A dynamic window: whether [addr, addr + len) of target is inside a
 * region it has attached -- as it told us in this access epoch, or, when
 * not, as it tells us now (a round trip): ORMA_ERR_RANGE, said, when it is not.  So a bad
 * address is reported by the call that made it, as on shared memory. */
int rma_net_dyn_check(struct rma_win *win, int target, uint64_t addr, size_t len);
/* Take target's lock now (unless asked for already) and wait for it. */
int rma_net_acquire(struct rma_win *win, int target, int lock);
/* target < 0: all; local: flush_local (complete here only) */
int rma_net_flush(struct rma_win *win, int target, int local);

/* Handle what has arrived for every window, without waiting. */
void rma_net_poll(void);
/* Whether any window uses the net transport. */
int rma_net_active(void);

/* Set by a face whose transport may be called from a second thread
 * (liborma-mpi under MPI_THREAD_MULTIPLE): ORMA_PROGRESS_THREAD=1 then
 * starts one with the first net window. */
extern int rma_net_thread_ok;

#endif
