/* Bug: rank 1 accumulates ORMA_SUM and rank 2 ORMA_MAX into the same
 * int32 element of rank 0's window in one fence epoch.  MPI-4.1 12.7.1:
 * concurrent accumulates to one location must use the same operation
 * (and basic type); otherwise the outcome is undefined (12.3.4 too).
 * Expected: one "accumulates with different ops" report, target rank 0,
 * ranks 1 and 2. */
#include "ck_test.h"

static int32_t src; /* the epoch's until it closes */

static CK_BUG void bug_accumulate_different_ops(int rank, orma_win win)
{
    if (rank == 1) {
        src = 5;
        CHECK_OK(orma_accumulate(&src, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_SUM, win));
    }
    if (rank == 2) {
        src = 100;
        CHECK_OK(orma_accumulate(&src, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_MAX, win));
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
        mem[0] = 10;
    CHECK_OK(orma_win_fence(0, win));
    bug_accumulate_different_ops(rank, win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        /* SUM then MAX: 100; MAX then SUM: 105 */
        if (mem[0] != 100 && mem[0] != 105) {
            fprintf(stderr, "rank 0: element 0 is %d, expected 100 or 105\n", (int)mem[0]);
            exit(1);
        }
        for (int i = 1; i < 16; i++)
            CK_I32(mem, i, 0);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_acc_ops");
    return 0;
}
