/* Bug: rank 1 puts twice to overlapping bytes of rank 0's window in one
 * fence epoch ([0, 8) then [4, 12)).  MPI-4.1 12.7.1: puts of one origin
 * to one target are not ordered (only accumulates are, 12.7.2), so the
 * two are concurrent conflicting accesses and which lands last is
 * undefined.
 * Expected: one "overlapping puts" report, target rank 0, both from rank 1. */
#include "ck_test.h"

static CK_BUG void bug_overlapping_puts_one_origin(orma_win win)
{
    unsigned char a[8], b[8];
    memset(a, 0x41, sizeof a);
    memset(b, 0x42, sizeof b);
    CHECK_OK(orma_put(a, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
    CHECK_OK(orma_put(b, 8, ORMA_BYTE, 0, 4, 8, ORMA_BYTE, win));
    CHECK_OK(orma_win_fence(0, win)); /* a and b belong to the epoch until here */
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 1)
        bug_overlapping_puts_one_origin(win);
    else
        CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        CK_BYTES(mem, 0, 4, 0x41);
        CK_BYTES_EITHER(mem, 4, 8, 0x41, 0x42);
        CK_BYTES(mem, 8, 12, 0x42);
        CK_BYTES(mem, 12, 64, 0);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_puts_one_origin");
    return 0;
}
