/* thr_active.c -- active-target epochs whose operations come from several
 * threads (ORMA_THREAD_MULTIPLE), with 2 and 4 threads per rank.
 *
 * One thread per window calls the synchronization; the others meet it at a
 * barrier: the sync thread opens the epoch, all threads put to their own
 * slice of every rank, get a cell every target set before the epoch, and
 * accumulate into a counter every thread of every rank adds to; the sync
 * thread closes the epoch, which must complete every thread's operations;
 * then each rank checks its memory exactly.  Fence epochs (closed with
 * NOSUCCEED, opened with NOPRECEDE, so that no round's data can arrive
 * while the previous round is checked), then post-start-complete-wait
 * with every rank in both groups.  Last, two windows whose fence epochs
 * are driven at the same time by two threads, one per window: legal, and
 * neither window waits for the other.  Run with ORMA_EAGER=0 too, where
 * every operation is left to the closing call. */
#include "thr_test.h"

#define ROUNDS 4

static int rank, nranks;

struct ctx {
    orma_win win;
    unsigned char *mem;
    struct thr_layout l;
    orma_group all;
    int pscw;
};

/* The value target gives the cell of thread u of rank o before the epochs. */
static int64_t cell_value(int target, int o, int u)
{
    return 1000000 * (int64_t)(target + 1) + 1000 * o + u;
}

static int64_t addend(int nt, int o, int u)
{
    return (int64_t)o * nt + u + 1;
}

static void open_epoch(struct ctx *c)
{
    if (c->pscw) {
        CHECK_OK(orma_win_post(c->all, 0, c->win));
        CHECK_OK(orma_win_start(c->all, 0, c->win));
    } else {
        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, c->win));
    }
}

static void close_epoch(struct ctx *c)
{
    if (c->pscw) {
        CHECK_OK(orma_win_complete(c->win));
        CHECK_OK(orma_win_wait(c->win));
    } else {
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, c->win));
    }
}

static int round_now; /* written by thread 0 between barriers only */

static unsigned round_seed(int o, int u)
{
    return thr_seed(1, o, u, round_now, rank);
}

static void run(struct thr_team *team, int t)
{
    struct ctx *c = team->ctx;
    int nt = team->nthreads;
    size_t at = thr_slice(&c->l, rank, t);
    unsigned char src[4][THR_SLICE];
    int64_t got[4], add = addend(nt, rank, t);

    for (int it = 0; it < ROUNDS; it++) {
        if (t == 0)
            open_epoch(c);
        thr_sync(team);
        for (int r = 0; r < nranks; r++) {
            rt_fill_data(src[r], THR_SLICE, thr_seed(1, rank, t, it, r), at);
            got[r] = -1;
            CHECK_OK(orma_put(src[r], THR_SLICE, ORMA_BYTE, r, (orma_aint)at, THR_SLICE, ORMA_BYTE, c->win));
            CHECK_OK(orma_get(&got[r], 1, ORMA_INT64, r, (orma_aint)thr_cell(&c->l, rank, t), 1, ORMA_INT64,
                              c->win));
            CHECK_OK(orma_accumulate(&add, 1, ORMA_INT64, r, (orma_aint)thr_counter(&c->l, 0), 1, ORMA_INT64,
                                     ORMA_SUM, c->win));
        }
        thr_sync(team);
        if (t == 0) {
            close_epoch(c);
            round_now = it;
            thr_layout_expect(&c->l, c->mem, round_seed,
                              c->pscw ? "memory after complete and wait" : "memory after the closing fence");
            int64_t sum = 0;
            for (int o = 0; o < nranks; o++)
                for (int u = 0; u < nt; u++) {
                    sum += addend(nt, o, u);
                    THR_EXPECT_I64(thr_i64(c->mem, thr_cell(&c->l, o, u)), cell_value(rank, o, u),
                                   "a cell only read");
                }
            THR_EXPECT_I64(thr_i64(c->mem, thr_counter(&c->l, 0)), (it + 1) * sum,
                           "counter of every thread's accumulates");
        }
        thr_sync(team); /* the epoch closed: the gets are complete */
        for (int r = 0; r < nranks; r++)
            THR_EXPECT_I64(got[r], cell_value(r, rank, t), "cell read in the epoch");
    }
}

static void epochs(int nt, int pscw)
{
    struct ctx c = {.pscw = pscw};
    thr_layout_make(&c.l, nranks, nt, 1);
    CHECK_OK(orma_win_allocate(c.l.size, 1, ORMA_INFO_NULL, (void **)&c.mem, &c.win));
    thr_layout_fill(&c.l, c.mem);
    for (int o = 0; o < nranks; o++)
        for (int u = 0; u < nt; u++) {
            int64_t v = cell_value(rank, o, u);
            memcpy(c.mem + thr_cell(&c.l, o, u), &v, sizeof v);
        }
    CHECK_OK(orma_win_get_group(c.win, &c.all));
    CHECK_OK(orma_barrier());

    thr_run(nt, run, &c);

    CHECK_OK(orma_group_free(&c.all));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_free(&c.win));
    if (rank == 0)
        printf("thr_active: %s, %d threads per rank, %d ranks: ok\n", pscw ? "pscw" : "fence", nt, nranks);
}

/* Two windows, each with its own thread calling every fence on it. */
static struct st_win two[2];
static struct thr_layout two_l;

static unsigned two_seed_of(int k, int o, int it, int target)
{
    return thr_seed(2, o, k, it, target);
}

static void run_two(struct thr_team *team, int k)
{
    struct st_win *w = &two[k];
    size_t at = thr_slice(&two_l, rank, 0);
    unsigned char src[4][THR_SLICE];
    (void)team;
    for (int it = 0; it < 4 * ROUNDS; it++) {
        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w->win));
        for (int r = 0; r < nranks; r++) {
            rt_fill_data(src[r], THR_SLICE, two_seed_of(k, rank, it, r), at);
            CHECK_OK(orma_put(src[r], THR_SLICE, ORMA_BYTE, r, (orma_aint)at, THR_SLICE, ORMA_BYTE, w->win));
        }
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w->win));
        for (int o = 0; o < nranks; o++) {
            size_t oat = thr_slice(&two_l, o, 0);
            RT_EXPECT_DATA(w->mem, oat, THR_SLICE, two_seed_of(k, o, it, rank), oat,
                           k ? "second window after its fence" : "first window after its fence");
        }
    }
}

int main(void)
{
    thr_init(&rank, &nranks);
    CHECK(nranks <= 4); /* the threads' buffers hold four targets */
    for (int nt = 2; nt <= 4; nt += 2) {
        epochs(nt, 0);
        epochs(nt, 1);
    }

    thr_layout_make(&two_l, nranks, 1, 0);
    for (int k = 0; k < 2; k++) {
        st_win_open(&two[k], k ? ST_CREATE_MALLOC : ST_ALLOCATE, two_l.size);
        thr_layout_fill(&two_l, two[k].mem);
    }
    CHECK_OK(orma_barrier());
    thr_run(2, run_two, NULL);
    CHECK_OK(orma_barrier());
    for (int k = 0; k < 2; k++)
        st_win_close(&two[k]);
    if (rank == 0)
        printf("thr_active: two windows fenced by two threads at once, %d ranks: ok\n", nranks);
    CHECK_OK(orma_finalize());
    return 0;
}
