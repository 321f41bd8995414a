/* Bug: ranks 1 and 2 put to overlapping bytes of rank 0's window in one
 * fence epoch (rank 1: [0, 8), rank 2: [4, 12); both bytes [4, 8)).
 * MPI-4.1 12.7.1, rule 2 of "erroneous" accesses: a location may not be
 * updated by two puts of one epoch ("concurrent conflicting accesses");
 * the outcome of the overlap is undefined.
 * Expected: one "overlapping puts" report, target rank 0, ranks 1 and 2. */
#include "ck_test.h"

static CK_BUG void bug_overlapping_puts_fence(int rank, orma_win win)
{
    static unsigned char src[8]; /* the epoch's until it closes */
    memset(src, 0x10 + rank, sizeof src);
    if (rank == 1)
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
    if (rank == 2)
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 4, 8, ORMA_BYTE, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 3, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    CHECK_OK(orma_win_fence(0, win));
    bug_overlapping_puts_fence(rank, win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        CK_BYTES(mem, 0, 4, 0x11);
        CK_BYTES_EITHER(mem, 4, 8, 0x11, 0x12);
        CK_BYTES(mem, 8, 12, 0x12);
        CK_BYTES(mem, 12, 64, 0);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_puts_fence");
    return 0;
}
