/* rma_pscw.c -- post-start-complete-wait with the least synchronization
 * ([004], DESIGN section 4):
 *
 * - post bumps, in each origin's control block, the counter of posts it has
 *   received from us (one writer per counter) -- it never waits;
 * - start only counts the post it now expects from each target and returns;
 *   an operation goes straight to memory once that post is visible, else it
 *   is queued (with NOCHECK the user guarantees every post happened);
 * - complete waits only for the posts its queued operations need, performs
 *   them, then bumps, in each target's control block, our slot of completed
 *   epochs and the target's wake-up word;
 * - wait returns when every origin of the post group has completed as many
 *   epochs as we have posted to it; test never blocks.
 *
 * Completions are counted per origin, not summed: an origin that issued
 * nothing may complete an epoch before the target has even posted it, and
 * a sum would then let the target's previous wait end one origin early. */
#include "rma_comm.h"
#include "rma_watch.h"
#include "xport_net.h"
#include "util_status.h"

int rma_post(struct rma_win *win, const int *ranks, int n, int assert)
{
    /* NOCHECK, NOSTORE and NOPUT save nothing: on shared memory a post is
     * one store, and over the net transport nothing is sent */
    (void)assert;
    if (__builtin_expect(win->race != NULL, 0))
        rma_race_posting(win, ranks, n);
    for (int i = 0; i < n; i++) {
        struct rma_target *o = &win->targets[ranks[i]];
        rma_origin_expose(o);
        if (!o->net)
            util_wake_add(&rma_ctl_post_from(win->ctl, o->ctl)[win->rank], 1);
    }
    return win->net ? xport_net_post(win->net, ranks, n) : ORMA_SUCCESS;
}

int rma_start(struct rma_win *win, const int *ranks, int n, int assert)
{
    rma_access_reset(win);
    win->nocheck = (assert & ORMA_MODE_NOCHECK) != 0;
    if (__builtin_expect(win->race != NULL, 0))
        rma_race_starting(win, ranks, n);
    for (int i = 0; i < n; i++) {
        struct rma_target *t = &win->targets[ranks[i]];
        rma_target_access(t, 1);
        if (!t->net) /* a net target posts nothing (xport_net.h) */
            t->post_expected++;
    }
    return ORMA_SUCCESS;
}

int rma_complete(struct rma_win *win)
{
    if (__builtin_expect(win->race != NULL, 0))
        rma_race_completing(win, "orma_win_complete");
    int status = win->nqueued ? rma_comm_drain(win, RMA_ACC_START) : ORMA_SUCCESS;
    if (win->nboxed) { /* boxes holding gets: offered (rma_box.h) */
        int rc = rma_box_sync(win, -1, 0);
        if (!status)
            status = rc;
    }
    if (win->ngathered) {
        int rc = rma_gather_sync(win, -1, 0);
        if (!status)
            status = rc;
    }
    if (win->net) {
        int rc = xport_net_complete(win->net);
        if (!status)
            status = rc;
    }
    for (int r = 0; r < win->nranks; r++) {
        struct rma_target *t = &win->targets[r];
        if (!t->in_access)
            continue;
        rma_target_access(t, 0);
        if (t->net)
            continue;
        atomic_fetch_add_explicit(&rma_ctl_complete_from(win->ctl, t->ctl)[win->rank], 1, memory_order_release);
        util_wake_add(&t->ctl->complete_any, 1);
    }
    rma_access_reset(win);
    win->nocheck = 0;
    return status;
}

int rma_exposure_done(struct rma_win *win)
{
    _Atomic uint32_t *done = rma_ctl_complete_from(win->ctl, win->my_ctl);
    for (int r = 0; r < win->nranks; r++) {
        struct rma_target *o = &win->targets[r];
        if (o->in_exposure && !o->net &&
            !util_seq_geq(atomic_load_explicit(&done[r], memory_order_acquire), o->complete_expected))
            return 0;
    }
    return win->net ? xport_net_exposure_done(win->net) : 1;
}

void rma_exposure_close(struct rma_win *win)
{
    rma_box_drain(win);
    if (__builtin_expect(win->race != NULL, 0))
        rma_race_wait_closed(win);
    rma_exposure_end(win);
}

void rma_wait(struct rma_win *win)
{
    struct util_backoff b = {0};
    /* boxes an origin's complete offers us: emptied while we spin and
     * yield (it takes an offer back after a few microseconds) */
    while (win->box_in && !rma_exposure_done(win) && util_backoff_relax(&b))
        rma_box_serve(win);
    while (win->net && !rma_exposure_done(win)) /* messages: polled, not woken */
        util_backoff_pause(&b);
    for (;;) {
        uint32_t seen = atomic_load_explicit(&win->my_ctl->complete_any.value, memory_order_acquire);
        if (rma_exposure_done(win))
            break;
        if (rma_wait_geq(win, &win->my_ctl->complete_any, seen + 1))
            return; /* a rank of another job is gone (win->peer_lost) */
    }
    rma_exposure_close(win);
}
