/* Bug: rank 1 gets and rank 2 accumulates (ORMA_SUM) the same int32
 * element of rank 0's window in one fence epoch.  MPI-4.1 12.7.1: a get
 * and an accumulate of one epoch to one location conflict (a get is not
 * an atomic read; get_accumulate with ORMA_NO_OP is).
 * Expected: one "get and accumulate overlap" report, target rank 0,
 * ranks 1 and 2. */
#include "ck_test.h"

static int32_t src, dst; /* the epoch's until it closes */

static CK_BUG void bug_get_and_accumulate(int rank, orma_win win)
{
    if (rank == 1)
        CHECK_OK(orma_get(&dst, 1, ORMA_INT32, 0, 4 * sizeof(int32_t), 1, ORMA_INT32, win));
    if (rank == 2) {
        src = 5;
        CHECK_OK(orma_accumulate(&src, 1, ORMA_INT32, 0, 4 * sizeof(int32_t), 1, ORMA_INT32, ORMA_SUM, win));
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    int32_t *mem;
    orma_win win;
    ck_init(&argc, &argv, 3, &rank, &n);
    ck_win(16 * sizeof(int32_t), (void **)&mem, &win);
    if (rank == 0)
        mem[4] = 20;
    CHECK_OK(orma_win_fence(0, win));
    bug_get_and_accumulate(rank, win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        CK_I32(mem, 4, 25);
        for (int i = 0; i < 16; i++)
            if (i != 4)
                CK_I32(mem, i, 0);
    }
    if (rank == 1 && dst != 20 && dst != 25) {
        fprintf(stderr, "rank 1: got %d, expected 20 or 25\n", (int)dst);
        exit(1);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_get_acc");
    return 0;
}
