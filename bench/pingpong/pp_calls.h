/* pp_calls.h -- the ppb_* calls of pp_state.h that are one library call
 * each, the same call in orma's spelling and MPI's (rma_api.h): the
 * epochs, the ops and the PSCW group.  A backend includes it after
 * pp_state.h and rma_api.h; it defines the other ppb_* calls itself. */
#ifndef BENCH_PP_CALLS_H
#define BENCH_PP_CALLS_H

#include "pp_state.h"
#include "rma_api.h"

static inline void ppb_fence(pp_b_win win, int last)
{
    RMA_CHECK(RMA_API(orma_win_fence, MPI_Win_fence)(
        last ? RMA_API(ORMA_MODE_NOSUCCEED, MPI_MODE_NOSUCCEED) : 0, win));
}

static inline void ppb_post(pp_b_group g, pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_post, MPI_Win_post)(g, 0, win));
}

static inline void ppb_start(pp_b_group g, pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_start, MPI_Win_start)(g, 0, win));
}

static inline void ppb_complete(pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_complete, MPI_Win_complete)(win));
}

static inline void ppb_wait(pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_wait, MPI_Win_wait)(win));
}

static inline void ppb_lock(int t, pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_lock, MPI_Win_lock)(
        RMA_API(ORMA_LOCK_SHARED, MPI_LOCK_SHARED), t, 0, win));
}

static inline void ppb_unlock(int t, pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_unlock, MPI_Win_unlock)(t, win));
}

static inline void ppb_lock_all(pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_lock_all, MPI_Win_lock_all)(0, win));
}

static inline void ppb_unlock_all(pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_unlock_all, MPI_Win_unlock_all)(win));
}

static inline void ppb_flush(int t, pp_b_win win)
{
    RMA_CHECK(RMA_API(orma_win_flush, MPI_Win_flush)(t, win));
}

/* The counts as the MPI backend always passed them: converted once per
 * call. */
static inline void ppb_put(pp_state *s, const void *from, size_t n, int t)
{
    rma_count c = RMA_COUNT(n);
    RMA_CHECK(RMA_API(orma_put, MPI_Put)(from, c, RMA_BYTE, t, s->w.disp[t],
                                         c, RMA_BYTE, s->w.win));
}

static inline void ppb_get(pp_state *s, void *into, size_t n, int t)
{
    rma_count c = RMA_COUNT(n);
    RMA_CHECK(RMA_API(orma_get, MPI_Get)(into, c, RMA_BYTE, t, s->w.disp[t],
                                         c, RMA_BYTE, s->w.win));
}

static inline void ppb_acc(pp_state *s, const void *from, size_t words,
                           int t)
{
    rma_count c = RMA_COUNT(words);
    RMA_CHECK(RMA_API(orma_accumulate, MPI_Accumulate)(
        from, c, RMA_UINT64, t, s->w.disp[t], c, RMA_UINT64, RMA_SUM,
        s->w.win));
}

static inline void ppb_gacc(pp_state *s, const void *from, void *into,
                            size_t words, int t)
{
    rma_count c = RMA_COUNT(words);
    RMA_CHECK(RMA_API(orma_get_accumulate, MPI_Get_accumulate)(
        from, c, RMA_UINT64, into, c, RMA_UINT64, t, s->w.disp[t], c,
        RMA_UINT64, RMA_SUM, s->w.win));
}

static inline void ppb_fop(pp_state *s, const void *from, void *into, int t)
{
    RMA_CHECK(RMA_API(orma_fetch_and_op, MPI_Fetch_and_op)(
        from, into, RMA_UINT64, t, s->w.disp[t], RMA_SUM, s->w.win));
}

static inline void ppb_cas(pp_state *s, const void *from, const void *cmp,
                           void *into, int t)
{
    RMA_CHECK(RMA_API(orma_compare_and_swap, MPI_Compare_and_swap)(
        from, cmp, into, RMA_UINT64, t, s->w.disp[t], s->w.win));
}

static inline void ppb_group_open(pp_state *s)
{
    pp_b_group all;
    RMA_CHECK(RMA_API(orma_win_get_group, MPI_Win_get_group)(s->w.win, &all));
    RMA_CHECK(RMA_API(orma_group_incl, MPI_Group_incl)(all, 1, &s->peer,
                                                       &s->peer_group));
    RMA_CHECK(RMA_API(orma_group_free, MPI_Group_free)(&all));
}

static inline void ppb_group_close(pp_state *s)
{
    RMA_CHECK(RMA_API(orma_group_free, MPI_Group_free)(&s->peer_group));
}

#endif
