/* Correct: ranks 1.. add 1 to an int32 element of rank 0 with ORMA_SUM
 * while every rank reads it with ORMA_NO_OP (orma_get_accumulate and
 * orma_fetch_and_op), in one fence epoch and in one lock_all epoch.
 * MPI-4.1 12.7.1 and 12.3.4: ORMA_NO_OP is an atomic read that may meet
 * accumulates of any op (same_op_no_op).  Expected: no report. */
#include "ck_test.h"

static int32_t inc = 1, seen[4];

static void in_range(int32_t v, int32_t lo, int32_t hi)
{
    if (v < lo || v > hi) {
        fprintf(stderr, "rank %d: read %d, expected %d..%d\n", orma_rank(), (int)v, (int)lo, (int)hi);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    int32_t *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(16 * sizeof(int32_t), (void **)&mem, &win);
    if (rank == 0)
        mem[0] = 1000;
    CHECK_OK(orma_win_fence(0, win));
    if (rank != 0)
        CHECK_OK(orma_accumulate(&inc, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_SUM, win));
    CHECK_OK(orma_get_accumulate(NULL, 0, ORMA_INT32, &seen[0], 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_NO_OP,
                                 win));
    CHECK_OK(orma_fetch_and_op(NULL, &seen[1], ORMA_INT32, 0, 0, ORMA_NO_OP, win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    in_range(seen[0], 1000, 1000 + n - 1);
    in_range(seen[1], 1000, 1000 + n - 1);
    if (rank == 0)
        CK_I32(mem, 0, 1000 + n - 1);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, win));
    if (rank != 0)
        CHECK_OK(orma_accumulate(&inc, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_SUM, win));
    CHECK_OK(orma_get_accumulate(NULL, 0, ORMA_INT32, &seen[2], 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_NO_OP,
                                 win));
    CHECK_OK(orma_fetch_and_op(NULL, &seen[3], ORMA_INT32, 0, 0, ORMA_NO_OP, win));
    CHECK_OK(orma_win_unlock_all(win));
    in_range(seen[2], 1000 + n - 1, 1000 + 2 * (n - 1));
    in_range(seen[3], 1000 + n - 1, 1000 + 2 * (n - 1));
    CHECK_OK(orma_barrier());
    if (rank == 0)
        CK_I32(mem, 0, 1000 + 2 * (n - 1));
    CHECK_OK(orma_win_free(&win));
    ck_finish("ok_noop_sum");
    return 0;
}
