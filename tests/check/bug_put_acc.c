/* Bug: rank 1 puts and rank 2 accumulates (ORMA_SUM) the same int32
 * element of rank 0's window in one fence epoch.  MPI-4.1 12.7.1: a put
 * and an accumulate of one epoch to one location conflict (only
 * accumulates are atomic with respect to each other).
 * Expected: one "put and accumulate overlap" report, target rank 0,
 * ranks 1 and 2. */
#include "ck_test.h"

static int32_t src; /* the epoch's until it closes */

static CK_BUG void bug_put_and_accumulate(int rank, orma_win win)
{
    if (rank == 1) {
        src = 1000;
        CHECK_OK(orma_put(&src, 1, ORMA_INT32, 0, 2, 1, ORMA_INT32, win));
    }
    if (rank == 2) {
        src = 3;
        CHECK_OK(orma_accumulate(&src, 1, ORMA_INT32, 0, 2, 1, ORMA_INT32, ORMA_SUM, win));
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    int32_t *mem;
    orma_win win;
    ck_init(&argc, &argv, 3, &rank, &n);
    CHECK_OK(orma_win_allocate(16 * sizeof(int32_t), sizeof(int32_t), ORMA_INFO_NULL, (void **)&mem, &win));
    memset(mem, 0, 16 * sizeof(int32_t));
    if (rank == 0)
        mem[2] = 10;
    CHECK_OK(orma_win_fence(0, win));
    bug_put_and_accumulate(rank, win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        /* put then sum: 1003; sum then put: 1000 (a torn mix is allowed too,
         * but not on these aligned words) */
        if (mem[2] != 1000 && mem[2] != 1003) {
            fprintf(stderr, "rank 0: element 2 is %d, expected 1000 or 1003\n", (int)mem[2]);
            exit(1);
        }
        for (int i = 0; i < 16; i++)
            if (i != 2)
                CK_I32(mem, i, 0);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_put_acc");
    return 0;
}
