/* thr_requests.c -- request-based operations from several threads of a
 * rank at once, in one lock_all epoch (ORMA_THREAD_MULTIPLE), with 2, 4
 * and 8 threads per rank in turn.
 *
 * Each thread issues rput to its own slice of every rank and completes its
 * own requests (orma_wait one by one, orma_waitall, or polling orma_test,
 * by round), flushes, reads the slices back with rget and compares;
 * raccumulates into a counter every thread of every rank adds to, and
 * rget_accumulates into its own cell, whose old values it knows.  Each
 * thread's requests are its own: completing them never needs another
 * thread, and a completed request's handle is set to ORMA_REQUEST_NULL.
 * At the end every rank checks its whole window (the last data of every
 * slice, counter, cells, guards). */
#include "thr_test.h"

#define ROUNDS 8

static int rank, nranks;

struct ctx {
    orma_win win;
    unsigned char *mem;
    struct thr_layout l;
};

/* Complete n requests in the way of round it. */
static void complete(orma_request *req, int n, int it)
{
    if (it % 3 == 0) {
        for (int i = 0; i < n; i++)
            CHECK_OK(orma_wait(&req[i]));
    } else if (it % 3 == 1) {
        CHECK_OK(orma_waitall((size_t)n, req));
    } else {
        double t0 = orma_wtime();
        for (int i = 0; i < n; i++) {
            int flag = 0;
            while (!flag) {
                CHECK_OK(orma_test(&req[i], &flag));
                CHECK(orma_wtime() - t0 < ST_WAIT_LIMIT);
            }
        }
    }
    for (int i = 0; i < n; i++)
        CHECK(req[i] == ORMA_REQUEST_NULL);
}

static void run(struct thr_team *team, int t)
{
    struct ctx *c = team->ctx;
    size_t at = thr_slice(&c->l, rank, t);
    unsigned char src[4][THR_SLICE], dst[4][THR_SLICE];
    orma_request req[8];
    int64_t add = (int64_t)rank * team->nthreads + t + 1, old[4];

    for (int it = 0; it < ROUNDS; it++) {
        for (int r = 0; r < nranks; r++) {
            rt_fill_data(src[r], THR_SLICE, thr_seed(1, rank, t, it, r), at);
            CHECK_OK(orma_rput(src[r], THR_SLICE, ORMA_BYTE, r, (orma_aint)at, THR_SLICE, ORMA_BYTE, c->win,
                               &req[r]));
            CHECK(req[r] != ORMA_REQUEST_NULL);
        }
        complete(req, nranks, it);
        for (int r = 0; r < nranks; r++)
            rt_fill_bg(src[r], THR_SLICE); /* free again once the requests completed */
        CHECK_OK(orma_win_flush_all(c->win));

        for (int r = 0; r < nranks; r++) {
            int64_t one = it + 1;
            rt_fill_bg(dst[r], THR_SLICE);
            old[r] = -1;
            CHECK_OK(orma_rget(dst[r], THR_SLICE, ORMA_BYTE, r, (orma_aint)at, THR_SLICE, ORMA_BYTE, c->win,
                               &req[2 * r]));
            CHECK_OK(orma_rget_accumulate(&one, 1, ORMA_INT64, &old[r], 1, ORMA_INT64, r,
                                          (orma_aint)thr_cell(&c->l, rank, t), 1, ORMA_INT64, ORMA_SUM, c->win,
                                          &req[2 * r + 1]));
        }
        complete(req, 2 * nranks, it + 1);
        for (int r = 0; r < nranks; r++) {
            RT_EXPECT_DATA(dst[r], 0, THR_SLICE, thr_seed(1, rank, t, it, r), at,
                           "rget of this thread's slice after its rput, wait and flush");
            THR_EXPECT_I64(old[r], (int64_t)it * (it + 1) / 2, "rget_accumulate: old value of this thread's cell");
        }

        for (int r = 0; r < nranks; r++)
            CHECK_OK(orma_raccumulate(&add, 1, ORMA_INT64, r, (orma_aint)thr_counter(&c->l, 0), 1, ORMA_INT64,
                                      ORMA_SUM, c->win, &req[r]));
        complete(req, nranks, it + 2);
    }
}

static unsigned final_seed(int origin, int t)
{
    return thr_seed(1, origin, t, ROUNDS - 1, rank);
}

int main(void)
{
    static const int counts[] = {2, 4, 8};
    thr_init(&rank, &nranks);
    CHECK(nranks <= 4); /* the threads' buffers hold four targets */

    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        int nt = counts[i];
        struct ctx c;
        thr_layout_make(&c.l, nranks, nt, 1);
        CHECK_OK(orma_win_allocate(c.l.size, 1, ORMA_INFO_NULL, (void **)&c.mem, &c.win));
        thr_layout_fill(&c.l, c.mem);
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_lock_all(0, c.win));

        thr_run(nt, run, &c);

        CHECK_OK(orma_win_unlock_all(c.win)); /* completes every thread's raccumulates */
        CHECK_OK(orma_barrier());
        thr_layout_expect(&c.l, c.mem, final_seed, "window after the threads' requests");
        int64_t sum = 0;
        for (int o = 0; o < nranks; o++)
            for (int u = 0; u < nt; u++) {
                sum += (int64_t)o * nt + u + 1;
                THR_EXPECT_I64(thr_i64(c.mem, thr_cell(&c.l, o, u)), ROUNDS * (ROUNDS + 1) / 2,
                               "cell of one thread's rget_accumulates");
            }
        THR_EXPECT_I64(thr_i64(c.mem, thr_counter(&c.l, 0)), ROUNDS * sum,
                       "counter of every thread's raccumulates");
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_free(&c.win));
        if (rank == 0)
            printf("thr_requests: %d threads per rank, %d ranks: ok\n", nt, nranks);
    }
    CHECK_OK(orma_finalize());
    return 0;
}
