/* rma_watch.c -- see rma_watch.h. */
#include "rma_watch.h"
#include "boot_peer.h"
#include "shm_barrier.h"

static int rma_watch_gone(const struct rma_win *win, const char *what)
{
    int r = win->peer_lost - 1;
    return util_error(ORMA_ERR_PEER, "%s: rank %d of window %u (pid %ld, of another job) is gone", what, r, win->id,
                      (long)win->targets[r].pid);
}

int rma_watch_lost(const struct rma_win *win, const char *call) { return rma_watch_gone(win, call); }

int rma_watch_check(struct rma_win *win)
{
    if (!win->foreign)
        return ORMA_SUCCESS;
    if (!win->peer_lost)
        for (int r = 0; r < win->nranks; r++)
            if (win->targets[r].foreign && !boot_pid_alive(win->targets[r].pid)) {
                win->peer_lost = r + 1;
                break;
            }
    return win->peer_lost ? rma_watch_gone(win, "waiting") : ORMA_SUCCESS;
}

static int rma_watch_look(void *win) { return rma_watch_check(win); }

int rma_watch_wait_slow(struct rma_win *win, struct util_waitword *w, uint32_t target)
{
    if (win->peer_lost)
        return rma_watch_gone(win, "waiting");
    return util_wait_geq_watched(w, target, rma_watch_look, win);
}

/* The ranks of a window that spans jobs are all here (bridges share
 * memory): local rank r is window rank r. */
static int rma_watch_alive(void *ctx, int r)
{
    struct rma_win *win = ctx;
    if (!boot_pid_alive(win->targets[r].pid)) {
        win->peer_lost = r + 1;
        return 0;
    }
    return 1;
}

int rma_watch_barrier(struct rma_win *win, void *mem, uint32_t *episode_p)
{
    if (win->peer_lost)
        return rma_watch_gone(win, "window barrier");
    if (!win->foreign || win->nlocal != win->nranks) {
        shm_barrier_wait(mem, win->nlocal, win->local_rank, episode_p);
        return ORMA_SUCCESS;
    }
    struct shm_watch watch = {rma_watch_alive, win};
    int gone = shm_barrier_wait_watched(mem, win->nlocal, win->local_rank, episode_p, &watch);
    return gone < 0 ? ORMA_SUCCESS : rma_watch_gone(win, "window barrier");
}
