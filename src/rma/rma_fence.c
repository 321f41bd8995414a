/* rma_fence.c -- fence synchronization, as [004] and DESIGN section 4 say:
 *
 * - opening an epoch only publishes its number in our control block; an
 *   origin that sees it goes straight to our memory, one that does not
 *   queues its operations;
 * - closing completes the queue (waiting only for targets that have not
 *   opened) and ends in one barrier, so that nobody leaves while others still
 *   access its memory.  With NOPRECEDE there is nothing to close: no barrier.
 *
 * A fence that closes and opens publishes the new epoch before the barrier,
 * so after the barrier every target is known to be open: the operations of
 * the new epoch take the inline path without reading anybody's control
 * block. */
#include "rma_comm.h"
#include "xport_net.h"
#include "util_config.h"

int rma_fence(struct rma_win *win, int assert)
{
    int status = ORMA_SUCCESS;
    int closes = !(assert & ORMA_MODE_NOPRECEDE);
    int opens = !(assert & ORMA_MODE_NOSUCCEED);
    uint32_t closing = win->fence_epoch;
    if (__builtin_expect(win->race != NULL, 0) && closes)
        rma_race_fence_closing(win, "orma_win_fence");
    if (closes && win->nqueued)
        status = rma_comm_drain(win, RMA_ACC_FENCE);
    if (win->ngathered) { /* ours, before the barrier says they are done */
        int rc = rma_gather_sync(win, -1, 0);
        if (!status)
            status = rc;
    }
    if (win->net) {
        int rc = xport_net_fence(win->net, closes);
        if (!status)
            status = rc;
    }
    rma_access_reset(win);
    if (opens) {
        win->fence_epoch++;
        util_wake_store(&win->my_ctl->fence_seq, win->fence_epoch);
    }
    if (closes) {
        win->fence_closes++;
        int lost = rma_win_barrier(win);
        if (lost)
            return lost; /* a rank of another job is gone: the window is no more */
        if (win->box_in) { /* every origin has written its boxes: ours into our memory */
            rma_box_drain(win);
            util_wake_store(&win->my_ctl->box_drained, win->fence_closes);
        }
        if (win->nboxgets) /* and our gets in theirs, once they have */
            rma_box_fence_gets(win);
        if (__builtin_expect(win->race != NULL, 0)) {
            /* every put of the epoch is in place: still there?  (Before
             * the next epoch's plain stores of ranks sharing our memory.) */
            rma_race_fence_closed(win, closing);
            if (win->flavor == ORMA_WIN_FLAVOR_SHARED && (lost = rma_win_barrier(win)))
                return lost;
        }
        if (opens && util_config.eager)
            for (int r = 0; r < win->nranks; r++)
                if (!win->targets[r].box) /* else once it has emptied its boxes (rma_target_open) */
                    RMA_ST(win->targets[r].ready, RMA_LD(win->access_gen));
    }
    return status;
}
