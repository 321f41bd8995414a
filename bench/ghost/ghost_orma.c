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
 *   notify 4 orma_put_notify; orma_notify_wait for this step's 4 items,
 *          on a window of its own holding two ghost areas, one per step
 *          parity (see steps_notify).
 *
 * orma has no send/receive: the point-to-point version is the MPI
 * backends' (mpi-p2p), which the summary divides by. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "ghost.h"
#include "progress.h"
#include "report.h"
#include "windows.h"

struct ghost_orma {
    const bench_ctx *ctx;
    ghost_grid g;
    bench_window w;         /* fence, pscw, lock: one ghost area */
    orma_group nbrs;        /* the distinct neighbours, for PSCW */
    orma_win nwin;          /* notify: two ghost areas and two counters, */
    unsigned char *nbase;   /* in one lock_all epoch from open to close */
    uint64_t nsteps[2];     /* notify steps made of each parity */
    unsigned char *send;    /* ghost_send_size(max) bytes */
    unsigned char *scratch; /* max bytes, for the check */
    size_t n;               /* message size of the current point */
    ghost_sync sync;        /* mode of the current batch */
    uint64_t step;          /* steps made, across points (the stamps) */
    int ok[GHOST_NSYNC];    /* every batch of the point verified here */
};
typedef struct ghost_orma go_state;

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

/* The notify version.  Step s: the 4 segments go to the neighbours'
 * ghost area of parity s % 2 with orma_put_notify, each raising counter
 * s % 2 of its target by one; then the rank waits until its own counter
 * s % 2 has counted the 4 items of step s: the ghosts of step s are
 * there, for the program to use until its next step's puts.
 *
 * Why nothing is overwritten before it is used: a neighbour B writes our
 * area of parity s % 2 again at step s + 2, and B starts step s + 2 only
 * after its wait for step s + 1, which needs our item of step s + 1 --
 * sent after we used the ghosts of step s (the grid is periodic: whoever
 * writes into us is written into by us).  Why the count is the count of
 * step s: an item of parity s % 2 from a later step is of step s + 2 or
 * later, and no neighbour gets there before our step s + 1 items, which
 * follow this wait; items of step s + 1 raise the other counter.  A single
 * counter would not do: a neighbour that got all its items of step s
 * could raise it for step s + 1 while another neighbour's item of step s
 * is still on its way, and the wait would end short of it.  The origin's
 * half of the send buffer (ghost_step_data) is written again at step
 * s + 2 too, when each target has the step s item: its target has
 * read it.
 *
 * As in the other versions, nothing reads the ghosts inside the timed
 * loop (seed 004's step moves them and synchronizes): on shared memory a
 * read moves the lines to the reader and the next step's write moves them
 * back, and checking the 16 bytes of stamps of each slot at every step
 * was measured to add 30-45% to this version's step at 16 B - 1 KB, 2
 * ranks -- a cost the other versions' steps would not pay.  After the
 * batch both areas are checked whole (its last two steps), right after
 * the last wait: a wait that ended short of its items shows there. */
static void steps_notify(go_state *s, long iters)
{
    size_t n = s->n, area = ghost_area_size(n);
    for (long i = 0; i < iters; i++) {
        uint64_t step = s->step++;
        int par = (int)(step & 1);
        const unsigned char *d = ghost_step_data(s->send, n, step, s->g.rank);
        for (int j = 0; j < GHOST_NDIR; j++)
            BENCH_CHECK(orma_put_notify(d + (size_t)j * n, n, ORMA_BYTE, s->g.nbr[j],
                                        (orma_aint)(par * area + ghost_slot_disp(n, j)), n, ORMA_BYTE, s->nwin, par,
                                        ORMA_NOTIFY_ADD, 1));
        s->nsteps[par]++;
        BENCH_CHECK(orma_notify_wait(s->nwin, par, GHOST_NDIR * s->nsteps[par]));
    }
}

static void verify_area(go_state *s, const unsigned char *area, uint64_t batch, uint64_t step)
{
    char msg[256];
    if (ghost_area_check(area, &s->g, s->n, batch, step, s->scratch, msg, sizeof msg))
        return;
    if (s->ok[s->sync])
        fprintf(stderr, "orma-bench: rank %d: ghost orma %s: %s\n",
                s->g.rank, ghost_sync_names[s->sync], msg);
    s->ok[s->sync] = 0;
}

static void verify(go_state *s, uint64_t batch, long iters)
{
    /* The unified model's memory barrier before reading what others
     * wrote (the epochs closed, or the barrier, or the counters, say it is
     * there). */
    if (s->sync != GHOST_NOTIFY) {
        BENCH_CHECK(orma_win_sync(s->w.win));
        verify_area(s, s->w.base, batch, s->step - 1);
        return;
    }
    BENCH_CHECK(orma_win_sync(s->nwin));
    size_t area = ghost_area_size(s->n);
    for (long k = 1; k <= 2 && k <= iters; k++) {
        uint64_t step = s->step - (uint64_t)k;
        verify_area(s, s->nbase + (step & 1) * area, batch, step);
    }
}

double ghost_orma_batch(ghost_orma *s, ghost_sync m, long iters, uint64_t b)
{
    s->sync = m;
    ghost_fill_batch(s->send, s->n, s->g.rank, b);
    BENCH_CHECK(orma_barrier());
    double t0 = orma_wtime();
    /* One loop per mode: a switch inside the loop would be timed too. */
    switch (m) {
    case GHOST_FENCE: steps_fence(s, iters); break;
    case GHOST_PSCW: steps_pscw(s, iters); break;
    case GHOST_NOTIFY: steps_notify(s, iters); break;
    default: steps_lock(s, iters); break;
    }
    double t = orma_wtime() - t0;
    verify(s, b, iters);
    /* Picoseconds: an integer every rank agrees on (plan_coll.c). */
    return (double)bench_ctl_max(s->ctx->ctl, (uint64_t)(t * 1e12)) * 1e-12;
}

double ghost_orma_batch_fn(void *arg, long iters, uint64_t b)
{
    ghost_orma_mode *mode = arg;
    return ghost_orma_batch(mode->s, mode->m, iters, b);
}

void ghost_orma_begin(ghost_orma *s, size_t n)
{
    s->n = n;
    for (int m = 0; m < GHOST_NSYNC; m++)
        s->ok[m] = 1;
    ghost_area_reset(s->w.base, n, s->g.rank);
    ghost_area_reset(s->nbase, n, s->g.rank);
    ghost_area_reset(s->nbase + ghost_area_size(n), n, s->g.rank);
    BENCH_CHECK(orma_win_sync(s->w.win));
    BENCH_CHECK(orma_win_sync(s->nwin));
    BENCH_CHECK(orma_barrier());
}

int ghost_orma_ok(ghost_orma *s, ghost_sync m)
{
    if (bench_ctl_all_ok(s->ctx->ctl, s->ok[m]))
        return 1;
    if (s->ctx->rank == 0)
        fprintf(stderr, "orma-bench: ghost orma %s, %zu bytes: data did not verify\n", ghost_sync_names[m], s->n);
    return 0;
}

ghost_orma *ghost_orma_open(const bench_ctx *ctx, size_t max)
{
    return ghost_orma_open_race(ctx, max, 0);
}

ghost_orma *ghost_orma_open_race(const bench_ctx *ctx, size_t max, int race)
{
    go_state *s = bench_xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    ghost_grid_init(ctx->size, ctx->rank, &s->g);
    s->send = bench_xmalloc(ghost_send_size(max));
    s->scratch = bench_xmalloc(max);
    orma_info rinfo = ORMA_INFO_NULL;
    if (race) {
        BENCH_CHECK(orma_info_create(&rinfo));
        BENCH_CHECK(orma_info_set(rinfo, "orma_check_race", "true"));
    }
    BENCH_CHECK(bench_window_open_info(ctx->ctl, "allocate", ghost_area_size(max), rinfo, &s->w));
    if (race)
        BENCH_CHECK(orma_info_free(&rinfo));
    orma_group all;
    BENCH_CHECK(orma_win_get_group(s->w.win, &all));
    BENCH_CHECK(orma_group_incl(all, s->g.ndistinct, s->g.distinct, &s->nbrs));
    BENCH_CHECK(orma_group_free(&all));
    /* Counters 0 and 1, one per step parity (steps_notify). */
    orma_info info;
    BENCH_CHECK(orma_info_create(&info));
    BENCH_CHECK(orma_info_set(info, "orma_notify_num", "2"));
    if (race)
        BENCH_CHECK(orma_info_set(info, "orma_check_race", "true"));
    BENCH_CHECK(orma_win_allocate(2 * ghost_area_size(max), 1, info, (void **)&s->nbase, &s->nwin));
    BENCH_CHECK(orma_info_free(&info));
    BENCH_CHECK(orma_win_lock_all(0, s->nwin));
    return s;
}

void ghost_orma_close(ghost_orma *s)
{
    BENCH_CHECK(orma_win_unlock_all(s->nwin));
    BENCH_CHECK(orma_barrier());
    BENCH_CHECK(orma_win_free(&s->nwin));
    BENCH_CHECK(orma_group_free(&s->nbrs));
    bench_window_close(&s->w);
    free(s->scratch);
    free(s->send);
    free(s);
}

static int point(go_state *s, size_t n, ghost_sync m, double *us, uint64_t *batch_p)
{
    const bench_ctx *ctx = s->ctx;
    ghost_orma_begin(s, n);
    ghost_orma_mode mode = {s, m};
    long nb = ghost_measure(ctx->opts, ghost_orma_batch_fn, &mode, batch_p, us);
    if (!ghost_orma_ok(s, m))
        return -1;
    bench_emit(ctx, "orma", ghost_op_name(m), ghost_sync_names[m],
               ghost_window_name(m), n, (double)GHOST_NDIR * (double)n, us,
               nb);
    return 0;
}

int ghost_orma_run(const bench_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    go_state *s = ghost_orma_open(ctx, bench_opts_max_size(o));
    double *us = bench_xmalloc((size_t)ghost_max_batches(o) * sizeof *us);
    uint64_t batch = 0;
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
            if (point(s, o->sizes[i], (ghost_sync)m, us, &batch) != 0)
                st = BENCH_FAIL;
        }
    ghost_orma_close(s);
    free(us);
    return st;
}
