/* rma_watch.h -- waiting on windows whose ranks span jobs.
 *
 * A window on a team of several jobs (spawned or connected, rma_team.h's
 * bridges) has ranks that may die without ending this job: their launcher
 * is not ours, or their job ended on its own.  Its waits look now and then
 * whether those ranks still live, and give up when one does not: the
 * window remembers it (win->peer_lost), the call that waited and every
 * later call on the window fail with ORMA_ERR_PEER, and orma_win_free
 * releases it locally.  Windows of one job wait as before: when one of
 * their ranks dies, the launcher ends them all. */
#ifndef ORMA_RMA_WATCH_H
#define ORMA_RMA_WATCH_H

#include "rma_win.h"
#include "util_status.h"
#include "util_wait.h"

/* ORMA_ERR_PEER naming the rank when one of the window's ranks of another
 * job is gone (found now or before), else ORMA_SUCCESS. */
int rma_watch_check(struct rma_win *win);

/* The message for a window found broken before (api entry points). */
int rma_watch_lost(const struct rma_win *win, const char *call);

int rma_watch_wait_slow(struct rma_win *win, struct util_waitword *w, uint32_t target);

/* util_wait_geq for a word of win's: ORMA_ERR_PEER when it gave up. */
static inline int rma_wait_geq(struct rma_win *win, struct util_waitword *w, uint32_t target)
{
    if (__builtin_expect(!win->foreign, 1)) {
        util_wait_geq(w, target);
        return ORMA_SUCCESS;
    }
    return rma_watch_wait_slow(win, w, target);
}

/* The window's barrier over its ranks here, given up as above. */
int rma_watch_barrier(struct rma_win *win, void *mem, uint32_t *episode_p);

#endif
