/* Bug: ranks 1 and 2 put to overlapping bytes of rank 0's window under
 * lock_all (shared locks), with no flush between: rank 1's put is still
 * live (not completed by a flush or unlock) when rank 2's is issued (a
 * barrier orders the two calls, not their completion).  MPI-4.1 12.7.1:
 * concurrent conflicting puts in shared-lock epochs are erroneous.
 * Expected: one "overlapping puts" report, target rank 0, ranks 1 and 2,
 * passive epoch. */
#include "ck_test.h"

static CK_BUG void bug_overlapping_puts_lock_all(int rank, orma_win win)
{
    static unsigned char src[8]; /* the epoch's until it closes */
    memset(src, 0x30 + rank, sizeof src);
    if (rank == 1)
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
    CHECK_OK(orma_barrier()); /* rank 1 has issued its put */
    if (rank == 2)
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 4, 8, ORMA_BYTE, win));
    CHECK_OK(orma_barrier()); /* rank 2 has issued its put */
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 3, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    CHECK_OK(orma_win_lock_all(0, win));
    bug_overlapping_puts_lock_all(rank, win);
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        CK_BYTES(mem, 0, 4, 0x31);
        CK_BYTES_EITHER(mem, 4, 8, 0x31, 0x32);
        CK_BYTES(mem, 8, 12, 0x32);
        CK_BYTES(mem, 12, 64, 0);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_puts_lock_all");
    return 0;
}
