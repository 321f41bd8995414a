/* sync_suite.c -- the suite "sync": what an empty epoch of each
 * synchronization mode costs, at any number of ranks (1 to 4 is the
 * intended range), on a small orma_win_allocate window:
 *
 *   fence     fence(0) twice (a pair: close + open, twice)
 *   pscw      every rank posts to all others, starts to all others,
 *             completes and waits: the all-to-all exchange of epochs
 *   lock      lock(SHARED, (rank+1) % P) + unlock
 *   lock_all  lock_all + unlock_all
 *   flush     flush((rank+1) % P) inside one lock_all epoch per mode
 *   barrier   orma_barrier, the reference (op "barrier", sync "none")
 *
 * One epoch is ~100 ns, near the timer's resolution, so a sample times N
 * epochs and divides, N chosen (identical on every rank, as the collective
 * modes need) so that a sample lasts SAMPLE_S (plan_coll.h).  Every rank
 * times its own N epochs after a common barrier; the sample reported is
 * the slowest rank's: for the collective modes the ranks finish together
 * anyway, and for the local ones (lock, lock_all, flush) the slowest rank
 * is what a job waits for.  Rows: op "epoch" (or "barrier"), bytes 0, window
 * "allocate", mbps 0. */
#include <stdio.h>
#include <stdlib.h>

#include <orma.h>

#include "check.h"
#include "plan_coll.h"
#include "progress.h"
#include "report.h"
#include "sync_suite.h"

#define SAMPLE_S 200e-6

enum { SY_FENCE, SY_PSCW, SY_LOCK, SY_LOCK_ALL, SY_FLUSH, SY_BARRIER, SY_N };
static const char *const sy_sync[] = {"fence", "pscw",  "lock", "lock_all",
                                      "flush", "none",  NULL};
static const char *const sy_ops[] = {"epoch", "barrier", NULL};

typedef struct sy_state {
    orma_win win;
    int next;            /* (rank + 1) % P */
    orma_group others;   /* every rank but this one (may be empty) */
} sy_state;

static void epochs(const sy_state *s, int mode, long iters)
{
    orma_win win = s->win;
    /* One loop per mode: a switch inside the loop would be timed too. */
    switch (mode) {
    case SY_FENCE:
        for (long i = 0; i < iters; i++) {
            BENCH_CHECK(orma_win_fence(0, win));
            BENCH_CHECK(orma_win_fence(0, win));
        }
        break;
    case SY_PSCW:
        for (long i = 0; i < iters; i++) {
            BENCH_CHECK(orma_win_post(s->others, 0, win));
            BENCH_CHECK(orma_win_start(s->others, 0, win));
            BENCH_CHECK(orma_win_complete(win));
            BENCH_CHECK(orma_win_wait(win));
        }
        break;
    case SY_LOCK:
        for (long i = 0; i < iters; i++) {
            BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, s->next, 0, win));
            BENCH_CHECK(orma_win_unlock(s->next, win));
        }
        break;
    case SY_LOCK_ALL:
        for (long i = 0; i < iters; i++) {
            BENCH_CHECK(orma_win_lock_all(0, win));
            BENCH_CHECK(orma_win_unlock_all(win));
        }
        break;
    case SY_FLUSH:
        for (long i = 0; i < iters; i++)
            BENCH_CHECK(orma_win_flush(s->next, win));
        break;
    default:
        for (long i = 0; i < iters; i++)
            BENCH_CHECK(orma_barrier());
        break;
    }
}

typedef struct sy_kernel {
    const sy_state *s;
    int mode;
} sy_kernel;

static void epochs_kernel(void *arg, long iters)
{
    const sy_kernel *k = arg;
    epochs(k->s, k->mode, iters);
}

static void run_mode(const bench_ctx *ctx, sy_state *s, int mode)
{
    if (mode == SY_FLUSH)
        BENCH_CHECK(orma_win_lock_all(0, s->win));
    sy_kernel k = {s, mode};
    double *us;
    long n;
    bench_time_collective(ctx, SAMPLE_S, epochs_kernel, &k, &us, &n);
    if (mode == SY_FLUSH)
        BENCH_CHECK(orma_win_unlock_all(s->win));
    if (mode == SY_FENCE)
        BENCH_CHECK(orma_win_fence(ORMA_MODE_NOSUCCEED, s->win));
    bench_emit(ctx, "orma", mode == SY_BARRIER ? "barrier" : "epoch",
               sy_sync[mode], "allocate", 0, 0.0, us, n);
    free(us);
}

static int check_filters(const bench_ctx *ctx)
{
    static const char *const windows[] = {"allocate", NULL};
    return bench_filters_check("sync", ctx->rank, ctx->opts->windows, windows, ctx->opts->ops, sy_ops,
                               ctx->opts->syncs, sy_sync);
}

static int mode_wanted(const bench_ctx *ctx, int m)
{
    return bench_list_has(ctx->opts->syncs, sy_sync[m]) &&
           bench_list_has(ctx->opts->ops, m == SY_BARRIER ? "barrier" : "epoch");
}

int bench_sync_run(const bench_ctx *ctx)
{
    if (check_filters(ctx) != 0)
        return BENCH_USAGE;
    sy_state s;
    void *base;
    BENCH_CHECK(orma_win_allocate(64, 1, ORMA_INFO_NULL, &base, &s.win));
    s.next = (ctx->rank + 1) % ctx->size;
    orma_group all;
    BENCH_CHECK(orma_win_get_group(s.win, &all));
    int me = ctx->rank;
    BENCH_CHECK(orma_group_excl(all, 1, &me, &s.others));
    BENCH_CHECK(orma_group_free(&all));
    bench_note("sync: P = %d; a sample is the slowest rank's time for N "
               "epochs, / N", ctx->size);
    for (int m = 0; m < SY_N; m++)
        bench_progress_expect(mode_wanted(ctx, m));
    for (int m = 0; m < SY_N; m++) {
        if (!mode_wanted(ctx, m))
            continue;
        bench_progress(sy_sync[m], 0);
        run_mode(ctx, &s, m);
    }
    BENCH_CHECK(orma_group_free(&s.others));
    BENCH_CHECK(orma_win_free(&s.win));
    return BENCH_OK;
}
