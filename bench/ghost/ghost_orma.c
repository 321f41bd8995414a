/* ghost_orma.c -- the ghost suite's orma backend: the exchange step
 * (ghost_def.h) with orma's calls, on an orma_win_allocate window holding
 * the ghost area, in three versions:
 *
 *   fence  fence(NOPRECEDE); 4 puts; fence(NOSTORE | NOPUT | NOSUCCEED),
 *          exactly seed 004's Fig. 3: the opening fence completes nothing
 *          (NOPRECEDE), the closing one opens no epoch (NOSUCCEED), this
 *          rank stored nothing into its window in the epoch (NOSTORE) and
 *          nobody puts into it until the next fence (NOPUT).
 *   pscw   post(nbrs); start(nbrs); 4 puts; complete; wait, nbrs the group
 *          of the distinct neighbours: the ranks this one puts to are the
 *          ranks that put to it (the grid is periodic), so one group serves
 *          as exposure and access group.
 *   lock   per direction: lock(SHARED, nbr); put; unlock(nbr); then a
 *          barrier (see steps_lock).
 *
 * orma has no send/receive: the point-to-point version is the MPI
 * backends' (mpi-p2p), which the summary divides by. */
#include <stdio.h>
#include <stdlib.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "ghost.h"
#include "progress.h"
#include "report.h"
#include "windows.h"

typedef struct go_state {
    const bench_ctx *ctx;
    ghost_grid g;
    bench_window w;
    orma_group nbrs;        /* the distinct neighbours, for PSCW */
    unsigned char *send;    /* ghost_send_size(max) bytes */
    unsigned char *scratch; /* max bytes, for the check */
    size_t n;               /* message size of the current point */
    ghost_sync sync;        /* mode of the current point */
    uint64_t step;          /* steps made, across points (the stamps) */
    uint64_t batch;         /* batches made, across points (the seeds) */
    int ok;                 /* every batch of the point verified here */
} go_state;

static void put_all(go_state *s, const unsigned char *d)
{
    size_t n = s->n;
    for (int j = 0; j < GHOST_NDIR; j++)
        BENCH_CHECK(orma_put(d + (size_t)j * n, n, ORMA_BYTE, s->g.nbr[j],
                             (orma_aint)ghost_slot_disp(n, j), n, ORMA_BYTE,
                             s->w.win));
}

static void steps_fence(go_state *s, long iters)
{
    orma_win win = s->w.win;
    for (long i = 0; i < iters; i++) {
        const unsigned char *d = ghost_step_data(s->send, s->n, s->step++,
                                                 s->g.rank);
        BENCH_CHECK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
        put_all(s, d);
        BENCH_CHECK(orma_win_fence(ORMA_MODE_NOSTORE | ORMA_MODE_NOPUT |
                                   ORMA_MODE_NOSUCCEED, win));
    }
}

static void steps_pscw(go_state *s, long iters)
{
    orma_win win = s->w.win;
    for (long i = 0; i < iters; i++) {
        const unsigned char *d = ghost_step_data(s->send, s->n, s->step++,
                                                 s->g.rank);
        BENCH_CHECK(orma_win_post(s->nbrs, 0, win));
        BENCH_CHECK(orma_win_start(s->nbrs, 0, win));
        put_all(s, d);
        BENCH_CHECK(orma_win_complete(win));
        BENCH_CHECK(orma_win_wait(win));
    }
}

/* Shared locks: the four origins that write into a rank write disjoint
 * slots, so their epochs do not conflict, and exclusive locks would only
 * make them take turns at each target -- timing the lock's queue, not the
 * exchange.  Unlock completes the put at the target, but the target is
 * not told: passive target means it takes no part.  Before it may read
 * its ghost slots (the next step's computation) it must know all four
 * have arrived, and the barrier is how it learns -- the counterpart of
 * fence's closing barrier and of PSCW's wait, so it is part of the step
 * and timed with it. */
static void steps_lock(go_state *s, long iters)
{
    orma_win win = s->w.win;
    size_t n = s->n;
    for (long i = 0; i < iters; i++) {
        const unsigned char *d = ghost_step_data(s->send, n, s->step++,
                                                 s->g.rank);
        for (int j = 0; j < GHOST_NDIR; j++) {
            int t = s->g.nbr[j];
            BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, t, 0, win));
            BENCH_CHECK(orma_put(d + (size_t)j * n, n, ORMA_BYTE, t,
                                 (orma_aint)ghost_slot_disp(n, j), n,
                                 ORMA_BYTE, win));
            BENCH_CHECK(orma_win_unlock(t, win));
        }
        BENCH_CHECK(orma_barrier());
    }
}

static void verify(go_state *s, uint64_t batch)
{
    char msg[256];
    /* The unified model's memory barrier before reading what others
     * wrote (the epochs closed, or the barrier, say it is there). */
    BENCH_CHECK(orma_win_sync(s->w.win));
    if (ghost_area_check(s->w.base, &s->g, s->n, batch, s->step - 1,
                         s->scratch, msg, sizeof msg))
        return;
    if (s->ok)
        fprintf(stderr, "orma-bench: rank %d: ghost orma %s: %s\n",
                s->g.rank, ghost_sync_names[s->sync], msg);
    s->ok = 0;
}

static double batch(void *arg, long iters, uint64_t b)
{
    go_state *s = arg;
    ghost_fill_batch(s->send, s->n, s->g.rank, b);
    BENCH_CHECK(orma_barrier());
    double t0 = orma_wtime();
    /* One loop per mode: a switch inside the loop would be timed too. */
    switch (s->sync) {
    case GHOST_FENCE: steps_fence(s, iters); break;
    case GHOST_PSCW: steps_pscw(s, iters); break;
    default: steps_lock(s, iters); break;
    }
    double t = orma_wtime() - t0;
    verify(s, b);
    /* Picoseconds: an integer every rank agrees on (plan_coll.c). */
    return (double)bench_ctl_max(s->ctx->ctl, (uint64_t)(t * 1e12)) * 1e-12;
}

static int point(go_state *s, size_t n, ghost_sync m, double *us)
{
    const bench_ctx *ctx = s->ctx;
    s->n = n;
    s->sync = m;
    s->ok = 1;
    ghost_area_reset(s->w.base, n, s->g.rank);
    BENCH_CHECK(orma_win_sync(s->w.win));
    BENCH_CHECK(orma_barrier());
    long nb = ghost_measure(ctx->opts, batch, s, &s->batch, us);
    if (!bench_ctl_all_ok(ctx->ctl, s->ok)) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: ghost orma %s, %zu bytes: data did "
                    "not verify\n", ghost_sync_names[m], n);
        return -1;
    }
    bench_emit(ctx, "orma", ghost_op_name(m), ghost_sync_names[m],
               ghost_window_name(m), n, (double)GHOST_NDIR * (double)n, us,
               nb);
    return 0;
}

int ghost_orma_run(const bench_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    size_t max = bench_opts_max_size(o);
    go_state s = {0};
    s.ctx = ctx;
    ghost_grid_init(ctx->size, ctx->rank, &s.g);
    s.send = bench_xmalloc(ghost_send_size(max));
    s.scratch = bench_xmalloc(max);
    double *us = bench_xmalloc((size_t)ghost_max_batches(o) * sizeof *us);
    BENCH_CHECK(bench_window_open(ctx->ctl, "allocate", ghost_area_size(max),
                                  &s.w));
    orma_group all;
    BENCH_CHECK(orma_win_get_group(s.w.win, &all));
    BENCH_CHECK(orma_group_incl(all, s.g.ndistinct, s.g.distinct, &s.nbrs));
    BENCH_CHECK(orma_group_free(&all));
    int st = BENCH_OK;
    for (int m = GHOST_FENCE; m < GHOST_NSYNC; m++)
        if (bench_list_has(o->syncs, ghost_sync_names[m]))
            bench_progress_expect(o->nsizes);
    for (int i = 0; i < o->nsizes; i++)
        for (int m = GHOST_FENCE; m < GHOST_NSYNC; m++) {
            if (!bench_list_has(o->syncs, ghost_sync_names[m]))
                continue;
            char what[32];
            snprintf(what, sizeof what, "orma put+%s", ghost_sync_names[m]);
            bench_progress(what, o->sizes[i]);
            /* A point that did not verify is not reported; the others
             * still run (every rank alike), and the run fails. */
            if (point(&s, o->sizes[i], (ghost_sync)m, us) != 0)
                st = BENCH_FAIL;
        }
    BENCH_CHECK(orma_group_free(&s.nbrs));
    bench_window_close(&s.w);
    free(us);
    free(s.scratch);
    free(s.send);
    return st;
}
