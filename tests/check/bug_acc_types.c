/* Bug: rank 1 accumulates an int32 and rank 2 a float into the same four
 * bytes of rank 0's window (both ORMA_SUM) in one fence epoch.  MPI-4.1
 * 12.7.1: concurrent accumulates to one location must use the same basic
 * datatype; the bytes are then undefined.
 * Expected: one "accumulates with different types" report, target rank 0,
 * ranks 1 and 2. */
#include "ck_test.h"

static int32_t isrc; /* the epoch's until it closes */
static float fsrc;

static CK_BUG void bug_accumulate_different_types(int rank, orma_win win)
{
    if (rank == 1) {
        isrc = 7;
        CHECK_OK(orma_accumulate(&isrc, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_SUM, win));
    }
    if (rank == 2) {
        fsrc = 1.5f;
        CHECK_OK(orma_accumulate(&fsrc, 1, ORMA_FLOAT, 0, 0, 1, ORMA_FLOAT, ORMA_SUM, win));
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    int32_t *mem;
    orma_win win;
    ck_init(&argc, &argv, 3, &rank, &n);
    ck_win(16 * sizeof(int32_t), (void **)&mem, &win);
    CHECK_OK(orma_win_fence(0, win));
    bug_accumulate_different_types(rank, win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) /* element 0 is undefined; the rest untouched */
        for (int i = 1; i < 16; i++)
            CK_I32(mem, i, 0);
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_acc_types");
    return 0;
}
