/* proc_null.c -- ORMA_PROC_NULL and operations of no data, on every flavour:
 *  - every communication call to ORMA_PROC_NULL succeeds in every access
 *    epoch kind and does nothing (origin, result and every window
 *    untouched), whatever its displacement, count and buffers;
 *  - it still needs an epoch: outside one it fails with ORMA_ERR_RMA_SYNC,
 *    and a request-based one needs a passive epoch; its request is
 *    complete at once;
 *  - lock, unlock, flush and flush_local of ORMA_PROC_NULL open and close
 *    a lock epoch of nothing, alone or beside locks of real ranks, and the
 *    usual mistakes (unlock without lock, lock twice, free with it open)
 *    are errors;
 *  - operations of no data (count 0, or a committed type of size 0) with
 *    NULL buffers succeed in any combination of origin, result and target,
 *    accumulates included, and change nothing. */
#include "rma_test.h"
#include "sync_test.h"

#define SIZE 256

static unsigned char *origin, *result;

static void buffers_reset(void)
{
    rt_fill_bg(origin, SIZE);
    rt_fill_bg(result, SIZE);
}

/* Nothing changed: this rank's window and both buffers. */
static void expect_untouched(struct st_win *w, const char *what)
{
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, orma_rank(), 0, w->win));
    RT_EXPECT_BG(w->mem, 0, SIZE, what);
    CHECK_OK(orma_win_unlock(orma_rank(), w->win));
    RT_EXPECT_BG(origin, 0, SIZE, what);
    RT_EXPECT_BG(result, 0, SIZE, what);
    CHECK_OK(orma_barrier());
}

/* Every communication call to ORMA_PROC_NULL in the open epoch; passive:
 * the request-based ones too. */
static void every_call(orma_win win, int passive)
{
    const int P = ORMA_PROC_NULL;
    orma_aint far = (orma_aint)1 << 40; /* no window reaches it: nothing is checked against one */
    int64_t cmp = 0;
    CHECK_OK(orma_put(origin, 16, ORMA_INT, P, far, 16, ORMA_INT, win));
    CHECK_OK(orma_get(result, 16, ORMA_INT, P, 0, 16, ORMA_INT, win));
    CHECK_OK(orma_put(NULL, 0, ORMA_INT, P, 0, 0, ORMA_INT, win));
    CHECK_OK(orma_accumulate(origin, 4, ORMA_INT, P, 0, 4, ORMA_INT, ORMA_SUM, win));
    CHECK_OK(orma_get_accumulate(origin, 4, ORMA_INT, result, 4, ORMA_INT, P, 0, 4, ORMA_INT, ORMA_SUM, win));
    CHECK_OK(orma_fetch_and_op(origin, result, ORMA_INT64, P, 0, ORMA_SUM, win));
    CHECK_OK(orma_fetch_and_op(NULL, result, ORMA_INT64, P, 0, ORMA_NO_OP, win));
    CHECK_OK(orma_compare_and_swap(origin, &cmp, result, ORMA_INT64, P, 0, win));
    orma_type vec;
    CHECK_OK(orma_type_vector(4, 1, 2, ORMA_INT, &vec));
    CHECK_OK(orma_type_commit(&vec));
    CHECK_OK(orma_put_typed(origin, 1, vec, P, 0, 4, ORMA_INT, win));
    CHECK_OK(orma_get_typed(result, 4, ORMA_INT, P, 0, 1, vec, win));
    CHECK_OK(orma_accumulate_typed(origin, 1, vec, P, 0, 1, vec, ORMA_MAX, win));
    CHECK_OK(orma_get_accumulate_typed(origin, 1, vec, result, 4, ORMA_INT, P, 0, 1, vec, ORMA_SUM, win));
    if (passive) {
        orma_request r[8];
        CHECK_OK(orma_rput(origin, 8, ORMA_BYTE, P, 0, 8, ORMA_BYTE, win, &r[0]));
        CHECK_OK(orma_rget(result, 8, ORMA_BYTE, P, 0, 8, ORMA_BYTE, win, &r[1]));
        CHECK_OK(orma_raccumulate(origin, 2, ORMA_INT, P, 0, 2, ORMA_INT, ORMA_SUM, win, &r[2]));
        CHECK_OK(orma_rget_accumulate(origin, 2, ORMA_INT, result, 2, ORMA_INT, P, 0, 2, ORMA_INT, ORMA_SUM, win,
                                      &r[3]));
        CHECK_OK(orma_rput_typed(origin, 1, vec, P, 0, 1, vec, win, &r[4]));
        CHECK_OK(orma_rget_typed(result, 1, vec, P, 0, 1, vec, win, &r[5]));
        CHECK_OK(orma_raccumulate_typed(origin, 1, vec, P, 0, 1, vec, ORMA_SUM, win, &r[6]));
        CHECK_OK(orma_rget_accumulate_typed(origin, 1, vec, result, 1, vec, P, 0, 1, vec, ORMA_SUM, win, &r[7]));
        for (int i = 0; i < 8; i++) {
            int done = 0;
            CHECK_OK(orma_test(&r[i], &done));
            CHECK(done && r[i] == ORMA_REQUEST_NULL);
        }
    }
    CHECK_OK(orma_type_free(&vec));
}

static void epochs(struct st_win *w)
{
    int me = orma_rank(), right = (me + 1) % orma_size();
    orma_group all = ORMA_GROUP_NULL, none = ORMA_GROUP_NULL;
    CHECK_OK(orma_win_get_group(w->win, &all));
    CHECK_OK(orma_group_incl(all, 0, NULL, &none));
    buffers_reset();

    CHECK_OK(orma_win_fence(0, w->win));
    every_call(w->win, 0);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w->win));

    CHECK_OK(orma_win_post(none, 0, w->win));
    CHECK_OK(orma_win_start(none, 0, w->win));
    every_call(w->win, 0);
    CHECK_OK(orma_win_complete(w->win));
    CHECK_OK(orma_win_wait(w->win));

    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, ORMA_PROC_NULL, 0, w->win));
    every_call(w->win, 1);
    CHECK_OK(orma_win_flush(ORMA_PROC_NULL, w->win));
    CHECK_OK(orma_win_flush_local(ORMA_PROC_NULL, w->win));
    CHECK_OK(orma_win_flush_all(w->win));
    CHECK_OK(orma_win_unlock(ORMA_PROC_NULL, w->win));

    /* beside a real lock, each released first once */
    for (int order = 0; order < 2; order++) {
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, right, 0, w->win));
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, ORMA_PROC_NULL, ORMA_MODE_NOCHECK, w->win));
        every_call(w->win, 1);
        CHECK_OK(orma_win_unlock(order ? right : ORMA_PROC_NULL, w->win));
        CHECK_OK(orma_win_unlock(order ? ORMA_PROC_NULL : right, w->win));
    }

    CHECK_OK(orma_win_lock_all(0, w->win));
    every_call(w->win, 1);
    CHECK_OK(orma_win_flush(ORMA_PROC_NULL, w->win));
    CHECK_OK(orma_win_unlock_all(w->win));
    expect_untouched(w, "after every call to ORMA_PROC_NULL");
    CHECK_OK(orma_group_free(&none));
    CHECK_OK(orma_group_free(&all));
}

/* The epoch rules hold for ORMA_PROC_NULL as for any rank. */
static void mistakes(struct st_win *w)
{
    int v = 1;
    orma_request r = ORMA_REQUEST_NULL;
    CHECK_ERR(orma_put(&v, 1, ORMA_INT, ORMA_PROC_NULL, 0, 1, ORMA_INT, w->win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_accumulate(&v, 1, ORMA_INT, ORMA_PROC_NULL, 0, 1, ORMA_INT, ORMA_SUM, w->win),
              ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_unlock(ORMA_PROC_NULL, w->win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush(ORMA_PROC_NULL, w->win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, -5, 0, w->win), ORMA_ERR_RANK);
    CHECK_ERR(orma_put(&v, 1, ORMA_INT, -5, 0, 1, ORMA_INT, w->win), ORMA_ERR_RANK);

    CHECK_OK(orma_win_fence(0, w->win));
    CHECK_ERR(orma_rput(&v, 1, ORMA_INT, ORMA_PROC_NULL, 0, 1, ORMA_INT, w->win, &r), ORMA_ERR_RMA_SYNC);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w->win));

    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, ORMA_PROC_NULL, 0, w->win));
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, ORMA_PROC_NULL, 0, w->win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock(3, ORMA_PROC_NULL, 0, w->win), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_lock_all(0, w->win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_fence(0, w->win), ORMA_ERR_RMA_SYNC);
    orma_win copy = w->win;
    CHECK_ERR(orma_win_free(&copy), ORMA_ERR_RMA_SYNC);
    CHECK_OK(orma_win_unlock(ORMA_PROC_NULL, w->win));
    CHECK_ERR(orma_win_unlock(ORMA_PROC_NULL, w->win), ORMA_ERR_RMA_SYNC);

    CHECK_OK(orma_win_lock_all(0, w->win));
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, ORMA_PROC_NULL, 0, w->win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_unlock(ORMA_PROC_NULL, w->win), ORMA_ERR_RMA_SYNC);
    CHECK_OK(orma_win_unlock_all(w->win));
    CHECK_OK(orma_barrier());
}

/* Operations of no data, NULL wherever the data would be. */
static void no_data(struct st_win *w)
{
    int me = orma_rank(), right = (me + 1) % orma_size();
    orma_aint at = st_disp(w, right, 8);
    orma_type empty, vec0;
    CHECK_OK(orma_type_contiguous(0, ORMA_INT, &empty));
    CHECK_OK(orma_type_commit(&empty));
    CHECK_OK(orma_type_vector(0, 3, 5, ORMA_DOUBLE, &vec0));
    CHECK_OK(orma_type_commit(&vec0));
    orma_type sides[] = {ORMA_INT, empty, vec0};
    size_t counts[] = {0, 3, 1};
    buffers_reset();
    CHECK_OK(orma_win_lock_all(0, w->win));
    for (int o = 0; o < 3; o++) {
        for (int t = 0; t < 3; t++) {
            orma_type ot = sides[o], tt = sides[t];
            size_t oc = ot == ORMA_INT ? 0 : counts[o], tc = tt == ORMA_INT ? 0 : counts[t];
            CHECK_OK(orma_put_typed(NULL, oc, ot, right, at, tc, tt, w->win));
            CHECK_OK(orma_get_typed(NULL, oc, ot, right, at, tc, tt, w->win));
            CHECK_OK(orma_accumulate_typed(NULL, oc, ot, right, at, tc, tt, ORMA_SUM, w->win));
            for (int r = 0; r < 3; r++) {
                orma_type rt = sides[r];
                size_t rc = rt == ORMA_INT ? 0 : counts[r];
                CHECK_OK(orma_get_accumulate_typed(NULL, oc, ot, NULL, rc, rt, right, at, tc, tt, ORMA_SUM,
                                                   w->win));
                CHECK_OK(orma_get_accumulate_typed(NULL, oc, ot, NULL, rc, rt, right, at, tc, tt, ORMA_NO_OP,
                                                   w->win));
            }
        }
    }
    CHECK_OK(orma_put(NULL, 0, ORMA_INT, right, at, 0, ORMA_INT, w->win));
    CHECK_OK(orma_get(NULL, 0, ORMA_DOUBLE, right, at, 0, ORMA_DOUBLE, w->win));
    CHECK_OK(orma_accumulate(NULL, 0, ORMA_INT, right, at, 0, ORMA_INT, ORMA_SUM, w->win));
    CHECK_OK(orma_get_accumulate(NULL, 0, ORMA_INT, NULL, 0, ORMA_INT, right, at, 0, ORMA_INT, ORMA_PROD, w->win));
    CHECK_OK(orma_win_unlock_all(w->win));
    expect_untouched(w, "after operations of no data");
    CHECK_OK(orma_type_free(&empty));
    CHECK_OK(orma_type_free(&vec0));
}

int main(int argc, char **argv)
{
    CHECK_OK(orma_init(&argc, &argv));
    origin = malloc(SIZE);
    result = malloc(SIZE);
    CHECK(origin && result);
    for (int k = 0; k < ST_NKINDS; k++) {
        struct st_win w;
        st_win_open(&w, k, SIZE);
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, orma_rank(), 0, w.win));
        rt_fill_bg(w.mem, SIZE);
        CHECK_OK(orma_win_unlock(orma_rank(), w.win));
        CHECK_OK(orma_barrier());
        epochs(&w);
        mistakes(&w);
        no_data(&w);
        st_win_close(&w);
    }
    free(origin);
    free(result);
    if (orma_rank() == 0)
        printf("proc_null: %d ranks, every flavour: OK\n", orma_size());
    return orma_finalize();
}
