/* Bug: rank 1 puts bytes [0, 8) of rank 0's window and then gets the same
 * bytes back in one lock epoch, without a flush between.  MPI-4.1 12.7.1:
 * the put is not complete at the target until a flush or the unlock, and
 * operations of one origin are not ordered, so the get may read the bytes
 * before the put has written them.
 * Expected: one "put and get overlap" report, target rank 0, both from
 * rank 1, passive epoch. */
#include "ck_test.h"

static unsigned char src[8], dst[8]; /* the epoch's until it closes */

static CK_BUG void bug_put_then_get_lock(orma_win win)
{
    memset(src, 0x61, sizeof src);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, win));
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
    CHECK_OK(orma_get(dst, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
    CHECK_OK(orma_win_unlock(0, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    if (rank == 0)
        memset(mem, 0x60, 64);
    CHECK_OK(orma_barrier());
    if (rank == 1) {
        bug_put_then_get_lock(win);
        CK_BYTES_EITHER(dst, 0, 8, 0x60, 0x61);
    }
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        CK_BYTES(mem, 0, 8, 0x61);
        CK_BYTES(mem, 8, 64, 0x60);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_put_get_lock");
    return 0;
}
