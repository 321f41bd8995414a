/* pp_orma_calls.h -- orma's calls for pp_loop.h (pp_state.h lists
 * them): windows of windows.h, the flags of flag.h, the agreements of the
 * control window (ctl.h), the rows of report.h under s->backend.  Included
 * by pp_orma.c (the pingpong suite's orma backend) and by the race suite
 * (race_pp.c), each then including pp_loop.h.  Between repetitions the
 * window's local stores are published with orma_win_sync, which orma
 * allows in any epoch. */
#ifndef BENCH_PP_ORMA_CALLS_H
#define BENCH_PP_ORMA_CALLS_H

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "flag.h"
#include "report.h"
#include "windows.h"

typedef bench_ctx pp_b_ctx;
typedef bench_window pp_b_window;
typedef orma_win pp_b_win;
typedef orma_group pp_b_group;
typedef bench_flag_win pp_b_flags;

#include "pp_state.h"
#include "pp_calls.h"

static inline int ppb_window_run(pp_state *s, size_t size,
                                 int (*fn)(void *))
{
    return bench_window_run(s->ctx->ctl, s->kind, size, &s->w, fn, s);
}

static inline double ppb_now(void)
{
    return orma_wtime();
}

static inline void *ppb_xmalloc(size_t n)
{
    return bench_xmalloc(n);
}

/* The unified model's memory barrier, inside an epoch or not. */
static inline void ppb_win_sync(pp_state *s)
{
    BENCH_CHECK(orma_win_sync(s->w.win));
}

static inline void ppb_barrier(pp_state *s)
{
    (void)s;
    BENCH_CHECK(orma_barrier());
}

static inline void ppb_flags_open(pp_state *s)
{
    bench_flag_win_open(0, &s->flags);
}

static inline void ppb_flags_close(pp_state *s)
{
    bench_flag_win_close(&s->flags);
}

static inline void ppb_flag_raise(pp_state *s)
{
    bench_flag_raise(s->flags.flag[s->me], s->turn);
}

/* With orma_win_sync between polls (flag.h), as the MPI program calls
 * MPI_Iprobe. */
static inline void ppb_flag_wait(pp_state *s)
{
    BENCH_CHECK(bench_flag_wait_synced(s->flags.flag[s->me], s->flags.flag[s->peer], s->turn, s->w.win));
}

static inline long ppb_bcast(pp_state *s, long v)
{
    return (long)bench_ctl_bcast(s->ctx->ctl, (uint64_t)v);
}

static inline int ppb_all_ok(pp_state *s, int ok)
{
    return bench_ctl_all_ok(s->ctx->ctl, ok);
}

static inline void ppb_emit(pp_state *s, const char *op, const char *sync,
                            double *us, long reps)
{
    bench_emit(s->ctx, s->backend, op, sync, s->w.kind, s->n,
               2.0 * (double)s->n, us, reps);
}

static inline void ppb_progress(pp_state *s, const char *what, size_t n)
{
    (void)s;
    bench_progress(what, n);
}

#endif
