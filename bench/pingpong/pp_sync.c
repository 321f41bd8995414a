/* pp_sync.c -- the timed round trip of an orma pingpong point and the
 * epochs around it, per synchronization mode (pp.h).  "op" is rank 0's put
 * of n bytes into rank 1's window (rank 1 puts the bytes it received back),
 * a get of n bytes of the other rank's window, or an accumulate-family op
 * made as put is (pp_atomic.c).
 *
 * fence     rank 0: op; fence; rank 1: op; fence -- as the suite always did.
 * pscw      rank 0: post({1}); start({1}); op; complete; wait.
 *           rank 1: post({0}); wait; start({0}); op; complete.
 *           Both ranks post first thing: a post never blocks, complete
 *           waits only for posts its queued operations need (made first,
 *           so already made or about to be), and each wait waits for a
 *           complete that does not depend on it -- no deadlock.  Rank 0
 *           posts its exposure for the second half before its own access,
 *           so rank 1's op goes straight to memory instead of being queued.
 * lock      per direction: lock(SHARED, peer); op; unlock(peer); notify.
 * lock_all  per direction: lock_all; op; unlock_all; notify.
 * flush     per direction: op; flush(peer); notify -- inside one lock_all
 *           epoch opened at the start of the point and closed at its end.
 *
 * Notification in the passive modes: a raw flag in a shared window
 * (flag.h), raised with a release store once unlock, unlock_all or flush
 * has returned.  Those calls complete the operation at the target -- every
 * byte of it -- so a rank that sees the flag (acquire load) sees all n
 * bytes, whatever order the bytes of one put were written in, and the
 * verification still checks every byte.  A raw flag rather than a flag
 * word put through orma keeps the timed epoch exactly lock + op + unlock
 * (no second put and flush inside it), and makes the notification the
 * exchange the cache-line floor times, so the ratio to that floor shows
 * what the epochs cost.
 *
 * lock takes ORMA_LOCK_SHARED: what origins writing disjoint parts of a
 * window take, and what lock_all takes, so lock and lock_all differ only
 * in the calls. */
#include "check.h"
#include "pp.h"

void pp_sync_series_open(pp_state *s, const char *syncs)
{
    s->fence_open = 0;
    s->peer_group = ORMA_GROUP_NULL;
    s->have_flags = 0;
    s->turn = 0;
    if (bench_list_has(syncs, pp_sync_names[PP_PSCW])) {
        orma_group all;
        BENCH_CHECK(orma_win_get_group(s->w.win, &all));
        BENCH_CHECK(orma_group_incl(all, 1, &s->peer, &s->peer_group));
        BENCH_CHECK(orma_group_free(&all));
    }
    for (int m = PP_LOCK; m <= PP_FLUSH; m++)
        if (bench_list_has(syncs, pp_sync_names[m]))
            s->have_flags = 1;
    /* Collective, and the same list on every rank. */
    if (s->have_flags)
        bench_flag_win_open(0, &s->fw);
}

void pp_sync_series_close(pp_state *s)
{
    /* Close the last fence epoch so the window can be freed. */
    if (s->fence_open)
        BENCH_CHECK(orma_win_fence(ORMA_MODE_NOSUCCEED, s->w.win));
    s->fence_open = 0;
    if (s->peer_group != ORMA_GROUP_NULL)
        BENCH_CHECK(orma_group_free(&s->peer_group));
    if (s->have_flags)
        bench_flag_win_close(&s->fw);
    s->have_flags = 0;
}

void pp_sync_point_begin(pp_state *s)
{
    orma_win win = s->w.win;
    if (s->sync == PP_FENCE) {
        /* Opens the epoch, or closes the previous fence point's and opens
         * the next: the calls of a fence-only run are those of old. */
        BENCH_CHECK(orma_win_fence(0, win));
        s->fence_open = 1;
        return;
    }
    if (s->fence_open)
        BENCH_CHECK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    s->fence_open = 0;
    pp_sync_settle(s);
    if (s->sync == PP_FLUSH)
        BENCH_CHECK(orma_win_lock_all(0, win));
}

void pp_sync_point_end(pp_state *s)
{
    if (s->sync == PP_FLUSH)
        BENCH_CHECK(orma_win_unlock_all(s->w.win));
}

void pp_sync_settle(pp_state *s)
{
    if (s->sync == PP_FENCE) {
        BENCH_CHECK(orma_win_fence(0, s->w.win));
        return;
    }
    /* No epoch to close: a memory barrier for the local stores into the
     * window (the unified model's orma_win_sync), then a barrier. */
    BENCH_CHECK(orma_win_sync(s->w.win));
    BENCH_CHECK(orma_barrier());
}

/* Rank 0's operand is its private send buffer, rank 1's the bytes it just
 * received: its window, as for put.  gacc, fop and cas return the target's
 * old elements into recv. */
static void op(pp_state *s)
{
    int t = s->peer;
    size_t n = s->n;
    orma_win win = s->w.win;
    const void *from = s->me == 0 ? s->send : s->w.base;
    switch (s->op) {
    case PP_PUT:
        BENCH_CHECK(orma_put(from, n, ORMA_BYTE, t, s->w.disp[t], n,
                             ORMA_BYTE, win));
        break;
    case PP_GET:
        BENCH_CHECK(orma_get(s->recv, n, ORMA_BYTE, t, s->w.disp[t], n,
                             ORMA_BYTE, win));
        break;
    case PP_ACC:
        BENCH_CHECK(orma_accumulate(from, n / 8, ORMA_UINT64, t,
                                    s->w.disp[t], n / 8, ORMA_UINT64,
                                    ORMA_SUM, win));
        break;
    case PP_GACC:
        BENCH_CHECK(orma_get_accumulate(from, n / 8, ORMA_UINT64, s->recv,
                                        n / 8, ORMA_UINT64, t, s->w.disp[t],
                                        n / 8, ORMA_UINT64, ORMA_SUM, win));
        break;
    case PP_FOP:
        BENCH_CHECK(orma_fetch_and_op(from, s->recv, ORMA_UINT64, t,
                                      s->w.disp[t], ORMA_SUM, win));
        break;
    default: /* PP_CAS */
        BENCH_CHECK(orma_compare_and_swap(from, &s->acc.cmp, s->recv,
                                          ORMA_UINT64, t, s->w.disp[t], win));
        break;
    }
}

/* This rank's half of a passive-mode round trip: the epoch, then the
 * flag (after the closing call, see the top of the file). */
static void passive_turn(pp_state *s)
{
    orma_win win = s->w.win;
    switch (s->sync) {
    case PP_LOCK:
        BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, s->peer, 0, win));
        op(s);
        BENCH_CHECK(orma_win_unlock(s->peer, win));
        break;
    case PP_LOCK_ALL:
        BENCH_CHECK(orma_win_lock_all(0, win));
        op(s);
        BENCH_CHECK(orma_win_unlock_all(win));
        break;
    default: /* PP_FLUSH, inside the point's lock_all epoch */
        op(s);
        BENCH_CHECK(orma_win_flush(s->peer, win));
        break;
    }
    bench_flag_raise(s->fw.flag[s->me], s->turn);
}

static void fence_round_trip(pp_state *s)
{
    if (s->me == 0)
        op(s);
    BENCH_CHECK(orma_win_fence(0, s->w.win));
    if (s->me == 1)
        op(s);
    BENCH_CHECK(orma_win_fence(0, s->w.win));
}

static void pscw_round_trip(pp_state *s)
{
    orma_win win = s->w.win;
    orma_group g = s->peer_group;
    BENCH_CHECK(orma_win_post(g, 0, win));
    if (s->me == 0) {
        BENCH_CHECK(orma_win_start(g, 0, win));
        op(s);
        BENCH_CHECK(orma_win_complete(win));
        BENCH_CHECK(orma_win_wait(win));
    } else {
        BENCH_CHECK(orma_win_wait(win));
        BENCH_CHECK(orma_win_start(g, 0, win));
        op(s);
        BENCH_CHECK(orma_win_complete(win));
    }
}

double pp_sync_timed(pp_state *s)
{
    double t0 = orma_wtime();
    switch (s->sync) {
    case PP_FENCE:
        fence_round_trip(s);
        break;
    case PP_PSCW:
        pscw_round_trip(s);
        break;
    default:
        /* Both ranks count the same turns; flags only grow (flag.h). */
        s->turn++;
        if (s->me == 0) {
            passive_turn(s);
            bench_flag_wait(s->fw.flag[1], s->turn);
        } else {
            bench_flag_wait(s->fw.flag[0], s->turn);
            passive_turn(s);
        }
        break;
    }
    return orma_wtime() - t0;
}
