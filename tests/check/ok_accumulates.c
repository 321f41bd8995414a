/* Correct: accumulates that may meet on one element.  Every rank adds to
 * one int32 element of rank 0 with ORMA_SUM (orma_accumulate and
 * orma_fetch_and_op) in one fence epoch and in one lock_all epoch without
 * flushes; and rank 1 alone applies ORMA_SUM then ORMA_MAX then
 * ORMA_REPLACE to one element in one epoch.  MPI-4.1 12.7.1: concurrent
 * accumulates with the same op and basic type are element-wise atomic;
 * 12.7.2: accumulates of one origin to one location are ordered (the
 * default accumulate_ordering).  Expected: no report. */
#include "ck_test.h"

static int32_t one[4], fetched[2], seq[3];

int main(int argc, char **argv)
{
    int rank, n;
    int32_t *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(16 * sizeof(int32_t), (void **)&mem, &win);
    for (int i = 0; i < 4; i++)
        one[i] = rank + 1;
    CHECK_OK(orma_win_fence(0, win));
    CHECK_OK(orma_accumulate(one, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_SUM, win));
    CHECK_OK(orma_fetch_and_op(&one[1], &fetched[0], ORMA_INT32, 0, 0, ORMA_SUM, win));
    if (rank == 1) {
        seq[0] = 5, seq[1] = 100, seq[2] = 77;
        CHECK_OK(orma_accumulate(&seq[0], 1, ORMA_INT32, 0, 8, 1, ORMA_INT32, ORMA_SUM, win));
        CHECK_OK(orma_accumulate(&seq[1], 1, ORMA_INT32, 0, 8, 1, ORMA_INT32, ORMA_MAX, win));
        CHECK_OK(orma_accumulate(&seq[2], 1, ORMA_INT32, 0, 12, 1, ORMA_INT32, ORMA_SUM, win));
        CHECK_OK(orma_accumulate(&seq[2], 1, ORMA_INT32, 0, 12, 1, ORMA_INT32, ORMA_REPLACE, win));
    }
    CHECK_OK(orma_win_fence(0, win));
    int32_t sum = n * (n + 1) / 2;
    if (rank == 0) {
        CK_I32(mem, 0, 2 * sum);
        CK_I32(mem, 2, 100);
        CK_I32(mem, 3, 77);
    }
    CHECK(fetched[0] >= 0 && fetched[0] < 2 * sum);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));

    CHECK_OK(orma_win_lock_all(0, win));
    CHECK_OK(orma_accumulate(&one[2], 1, ORMA_INT32, 0, 4, 1, ORMA_INT32, ORMA_SUM, win));
    CHECK_OK(orma_fetch_and_op(&one[3], &fetched[1], ORMA_INT32, 0, 4, ORMA_SUM, win));
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier());
    if (rank == 0)
        CK_I32(mem, 1, 2 * sum);
    CHECK(fetched[1] >= 0 && fetched[1] < 2 * sum);
    CHECK_OK(orma_win_free(&win));
    ck_finish("ok_accumulates");
    return 0;
}
