/* mpib_sync.c -- the timed round trip of an MPI pingpong point and the
 * epochs around it, per synchronization mode: pp_sync.c's calls, one for
 * one, in MPI (see there for why the pattern cannot deadlock):
 *
 * fence     rank 0: op; fence; rank 1: op; fence.
 * pscw      rank 0: post({1}); start({1}); op; complete; wait.
 *           rank 1: post({0}); wait; start({0}); op; complete.
 * lock      per direction: lock(SHARED, peer); op; unlock(peer); notify.
 * lock_all  per direction: lock_all; op; unlock_all; notify.
 * flush     per direction: op; flush(peer); notify -- inside one lock_all
 *           epoch opened at the start of the point and closed at its end.
 *
 * The notification is a raw flag (mpib_pp.h).  Between repetitions,
 * untimed, orma's series calls orma_win_sync and a barrier; MPI allows
 * MPI_Win_sync only inside a passive epoch, so outside the flush mode's
 * epoch it is wrapped in lock_all(MODE_NOCHECK) / unlock_all. */
#include <sched.h>

#include "mpib_pp.h"

/* As flag.h: poll, then yield, so ranks sharing a core make progress. */
#define FLAG_SPINS 256

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Waits (acquire) until *p >= v, letting MPI progress meanwhile. */
static void flag_wait(_Atomic uint64_t *p, uint64_t v)
{
    unsigned spins = 0;
    while (atomic_load_explicit(p, memory_order_acquire) < v) {
        int any;
        MPIB_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                              &any, MPI_STATUS_IGNORE));
        if (++spins > FLAG_SPINS)
            sched_yield();
        else
            cpu_relax();
    }
}

static void flag_raise(_Atomic uint64_t *p, uint64_t v)
{
    atomic_store_explicit(p, v, memory_order_release);
}

void mpib_sync_series_open(mpib_pp *s, const char *syncs)
{
    s->fence_open = 0;
    s->lock_all_open = 0;
    s->peer_group = MPI_GROUP_NULL;
    s->have_flags = 0;
    s->turn = 0;
    if (bench_list_has(syncs, pp_sync_names[PP_PSCW])) {
        MPI_Group all;
        MPIB_CHECK(MPI_Win_get_group(s->w.win, &all));
        MPIB_CHECK(MPI_Group_incl(all, 1, &s->peer, &s->peer_group));
        MPIB_CHECK(MPI_Group_free(&all));
    }
    for (int m = PP_LOCK; m <= PP_FLUSH; m++)
        if (bench_list_has(syncs, pp_sync_names[m]))
            s->have_flags = 1;
    if (s->have_flags)
        mpib_flags_open(&s->flags);
}

void mpib_sync_series_close(mpib_pp *s)
{
    if (s->fence_open)
        MPIB_CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, s->w.win));
    s->fence_open = 0;
    if (s->peer_group != MPI_GROUP_NULL)
        MPIB_CHECK(MPI_Group_free(&s->peer_group));
    if (s->have_flags)
        mpib_flags_close(&s->flags);
    s->have_flags = 0;
}

void mpib_sync_point_begin(mpib_pp *s)
{
    MPI_Win win = s->w.win;
    if (s->sync == PP_FENCE) {
        MPIB_CHECK(MPI_Win_fence(0, win));
        s->fence_open = 1;
        return;
    }
    if (s->fence_open)
        MPIB_CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    s->fence_open = 0;
    mpib_sync_settle(s);
    if (s->sync == PP_FLUSH) {
        MPIB_CHECK(MPI_Win_lock_all(0, win));
        s->lock_all_open = 1;
    }
}

void mpib_sync_point_end(mpib_pp *s)
{
    if (s->lock_all_open)
        MPIB_CHECK(MPI_Win_unlock_all(s->w.win));
    s->lock_all_open = 0;
}

void mpib_sync_settle(mpib_pp *s)
{
    MPI_Win win = s->w.win;
    if (s->sync == PP_FENCE) {
        MPIB_CHECK(MPI_Win_fence(0, win));
        return;
    }
    if (s->lock_all_open) {
        MPIB_CHECK(MPI_Win_sync(win));
    } else {
        MPIB_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
        MPIB_CHECK(MPI_Win_sync(win));
        MPIB_CHECK(MPI_Win_unlock_all(win));
    }
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

/* Rank 0's operand is its private send buffer, rank 1's the bytes it just
 * received: its window, as for put.  gacc, fop and cas return the target's
 * old elements into recv. */
static void op(mpib_pp *s)
{
    int t = s->peer;
    int n = mpib_count(s->n), words = mpib_count(s->n / 8);
    MPI_Aint disp = s->w.disp[t];
    MPI_Win win = s->w.win;
    const void *from = s->me == 0 ? s->send : s->w.base;
    switch (s->op) {
    case PP_PUT:
        MPIB_CHECK(MPI_Put(from, n, MPI_BYTE, t, disp, n, MPI_BYTE, win));
        break;
    case PP_GET:
        MPIB_CHECK(MPI_Get(s->recv, n, MPI_BYTE, t, disp, n, MPI_BYTE, win));
        break;
    case PP_ACC:
        MPIB_CHECK(MPI_Accumulate(from, words, MPI_UINT64_T, t, disp, words,
                                  MPI_UINT64_T, MPI_SUM, win));
        break;
    case PP_GACC:
        MPIB_CHECK(MPI_Get_accumulate(from, words, MPI_UINT64_T, s->recv,
                                      words, MPI_UINT64_T, t, disp, words,
                                      MPI_UINT64_T, MPI_SUM, win));
        break;
    case PP_FOP:
        MPIB_CHECK(MPI_Fetch_and_op(from, s->recv, MPI_UINT64_T, t, disp,
                                    MPI_SUM, win));
        break;
    default: /* PP_CAS */
        MPIB_CHECK(MPI_Compare_and_swap(from, &s->acc.cmp, s->recv,
                                        MPI_UINT64_T, t, disp, win));
        break;
    }
}

static void passive_turn(mpib_pp *s)
{
    MPI_Win win = s->w.win;
    switch (s->sync) {
    case PP_LOCK:
        MPIB_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, s->peer, 0, win));
        op(s);
        MPIB_CHECK(MPI_Win_unlock(s->peer, win));
        break;
    case PP_LOCK_ALL:
        MPIB_CHECK(MPI_Win_lock_all(0, win));
        op(s);
        MPIB_CHECK(MPI_Win_unlock_all(win));
        break;
    default: /* PP_FLUSH, inside the point's lock_all epoch */
        op(s);
        MPIB_CHECK(MPI_Win_flush(s->peer, win));
        break;
    }
    flag_raise(s->flags.flag[s->me], s->turn);
}

static void fence_round_trip(mpib_pp *s)
{
    if (s->me == 0)
        op(s);
    MPIB_CHECK(MPI_Win_fence(0, s->w.win));
    if (s->me == 1)
        op(s);
    MPIB_CHECK(MPI_Win_fence(0, s->w.win));
}

static void pscw_round_trip(mpib_pp *s)
{
    MPI_Win win = s->w.win;
    MPI_Group g = s->peer_group;
    MPIB_CHECK(MPI_Win_post(g, 0, win));
    if (s->me == 0) {
        MPIB_CHECK(MPI_Win_start(g, 0, win));
        op(s);
        MPIB_CHECK(MPI_Win_complete(win));
        MPIB_CHECK(MPI_Win_wait(win));
    } else {
        MPIB_CHECK(MPI_Win_wait(win));
        MPIB_CHECK(MPI_Win_start(g, 0, win));
        op(s);
        MPIB_CHECK(MPI_Win_complete(win));
    }
}

double mpib_sync_timed(mpib_pp *s)
{
    double t0 = mpib_now();
    switch (s->sync) {
    case PP_FENCE:
        fence_round_trip(s);
        break;
    case PP_PSCW:
        pscw_round_trip(s);
        break;
    default:
        s->turn++;
        if (s->me == 0) {
            passive_turn(s);
            flag_wait(s->flags.flag[1], s->turn);
        } else {
            flag_wait(s->flags.flag[0], s->turn);
            passive_turn(s);
        }
        break;
    }
    return mpib_now() - t0;
}
