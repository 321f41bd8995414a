/* Bug: rank 1 puts to bytes [0, 8) of rank 0's window while rank 2 gets
 * bytes [4, 12) of it, in one fence epoch.  MPI-4.1 12.7.1: a get and a
 * put of one epoch to one location conflict (the get may see the old
 * bytes, the new or a mix).
 * Expected: one "put and get overlap" report, target rank 0, ranks 1 and 2. */
#include "ck_test.h"

static unsigned char src[8], dst[8]; /* the epoch's until it closes */

static CK_BUG void bug_put_get_fence(int rank, orma_win win)
{
    if (rank == 1) {
        memset(src, 0x51, sizeof src);
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
    }
    if (rank == 2)
        CHECK_OK(orma_get(dst, 8, ORMA_BYTE, 0, 4, 8, ORMA_BYTE, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 3, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    if (rank == 0)
        memset(mem, 0x50, 64);
    CHECK_OK(orma_win_fence(0, win));
    bug_put_get_fence(rank, win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        CK_BYTES(mem, 0, 8, 0x51);
        CK_BYTES(mem, 8, 64, 0x50);
    }
    if (rank == 2) {
        CK_BYTES_EITHER(dst, 0, 4, 0x50, 0x51);
        CK_BYTES(dst, 4, 8, 0x50);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_put_get_fence");
    return 0;
}
