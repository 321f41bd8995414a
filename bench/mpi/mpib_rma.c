/* mpib_rma.c -- the mpi-rma and orma-mpi backends of the pingpong series
 * (pp_loop.h): the same round trips, points and checks as orma's, with
 * the plain MPI_ calls on windows of mpib_win.h -- one backend per job,
 * the host's or, preloaded, liborma-mpi's.  Two differences, both the
 * MPI standard's:
 *
 * - Between repetitions the window's local stores are published with
 *   MPI_Win_sync, which MPI allows only inside a passive epoch: outside
 *   the flush mode's lock_all epoch it is wrapped in
 *   lock_all(MODE_NOCHECK) / unlock_all.
 * - An MPI library may need the target to call it before a passive access
 *   completes (an active-message implementation of lock, put or
 *   accumulate on memory it cannot map), so a rank waiting for a flag
 *   calls MPI_Iprobe between polls.  Both MPI backends make this same
 *   call of the host MPI (liborma-mpi leaves point-to-point to it), so
 *   their rows differ only by what serves the one-sided calls. */
#include <string.h>

#include "fit.h"
#include "flagwait.h"
#include "mpib_win.h"

typedef mpib_ctx pp_b_ctx;
typedef mpib_window pp_b_window;
typedef MPI_Win pp_b_win;
typedef MPI_Group pp_b_group;
typedef mpib_flags pp_b_flags;

#include "pp_state.h"
#define BENCH_RMA_MPI /* pp_calls.h in MPI's names (rma_api.h) */
#include "pp_calls.h"

/* pingpong calls the plain MPI_ symbols: one backend per job, the host's
 * or, preloaded, liborma-mpi's. */
static inline int ppb_window_run(pp_state *s, size_t size,
                                 int (*fn)(void *))
{
    return mpib_window_run(s->kind, size, &mpib_fns_linked, &s->w, fn, s);
}

static inline double ppb_now(void)
{
    return mpib_now();
}

static inline void *ppb_xmalloc(size_t n)
{
    return mpib_xmalloc(n);
}

/* MPI_Win_sync only inside a passive epoch (see the top of the file). */
static inline void ppb_win_sync(pp_state *s)
{
    MPI_Win win = s->w.win;
    if (s->lock_all_open) {
        MPIB_CHECK(MPI_Win_sync(win));
        return;
    }
    MPIB_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    MPIB_CHECK(MPI_Win_sync(win));
    MPIB_CHECK(MPI_Win_unlock_all(win));
}

static inline void ppb_barrier(pp_state *s)
{
    (void)s;
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

static inline void ppb_flags_open(pp_state *s)
{
    mpib_flags_open(&s->flags);
}

static inline void ppb_flags_close(pp_state *s)
{
    mpib_flags_close(&s->flags);
}

static inline void ppb_flag_raise(pp_state *s)
{
    bench_flag_raise(s->flags.flag[s->me], s->turn);
}

/* As flag.h, letting MPI progress meanwhile (see the top of the file): a
 * sleep lasts 50 us at most. */
static inline void ppb_flag_wait(pp_state *s)
{
    _Atomic uint64_t *p = s->flags.flag[s->peer];
    bench_flag_waiter w = {.mine = s->flags.flag[s->me]};
    while (atomic_load_explicit(p, memory_order_acquire) < s->turn) {
        int any;
        MPIB_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                              &any, MPI_STATUS_IGNORE));
        bench_flag_pause(&w, p, s->turn, 50);
    }
}

static inline long ppb_bcast(pp_state *s, long v)
{
    (void)s;
    return mpib_bcast_long(v);
}

static inline int ppb_all_ok(pp_state *s, int ok)
{
    (void)s;
    return mpib_all_ok(ok);
}

static inline void ppb_emit(pp_state *s, const char *op, const char *sync,
                            double *us, long reps)
{
    mpib_emit(s->backend, op, sync, s->w.kind, s->n,
              2.0 * (double)s->n, us, reps);
}

static inline void ppb_progress(pp_state *s, const char *what, size_t n)
{
    (void)s;
    bench_progress(what, n);
}

#include "pp_loop.h"

static int series(const mpib_ctx *ctx, pp_op op, const char *kind)
{
    pp_state s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.backend = ctx->rma_backend;
    s.prog = "orma-bench-mpi";
    s.op = op;
    s.kind = kind;
    s.me = ctx->rank;
    s.peer = 1 - ctx->rank;
    return pp_series(&s);
}

/* As pingpong.c: without --op, put and get. */
static int selected(const char *ops, pp_op op)
{
    if (ops == NULL)
        return op == PP_PUT || op == PP_GET;
    return bench_list_has(ops, pp_op_names[op]);
}

int mpib_rma_run(const mpib_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    int st = BENCH_OK;
    for (int op = 0; op < PP_NOP && st == BENCH_OK; op++) {
        if (!selected(o->ops, (pp_op)op))
            continue;
        if (!pp_op_sizes((pp_op)op, o, NULL)) {
            bench_note("%s: no size of --sizes suits %s", ctx->rma_backend,
                       pp_op_names[op]);
            continue;
        }
        for (int k = 0; pp_window_kinds[k] != NULL && st == BENCH_OK; k++)
            if (bench_window_selected(o->windows, pp_window_kinds[k]))
                st = series(ctx, (pp_op)op, pp_window_kinds[k]);
    }
    return st;
}
