/* Correct: every rank but 0, in whatever order the lock grants, takes an
 * exclusive lock on rank 0, puts its number into the same 8 bytes,
 * flushes, reads them back and unlocks.  MPI-4.1 12.7.1 and 12.5.3:
 * exclusive-lock epochs on one target never overlap in time, so accesses
 * of different ones are ordered; within one, the flush completes the put
 * before the get.  Expected: no report. */
#include "ck_test.h"

static unsigned char src[8], back[8];

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    for (int round = 0; round < 3; round++) {
        if (rank != 0) {
            memset(src, 16 * round + rank, sizeof src);
            CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 0, 0, win));
            CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
            CHECK_OK(orma_win_flush(0, win));
            CHECK_OK(orma_get(back, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
            CHECK_OK(orma_win_unlock(0, win));
            CK_BYTES(back, 0, 8, src[0]);
        }
        CHECK_OK(orma_barrier());
        if (rank == 0) {
            int ok = 0;
            for (int r = 1; r < n; r++)
                ok |= mem[0] == 16 * round + r;
            CHECK(ok);
            CK_BYTES(mem, 0, 8, mem[0]);
            CK_BYTES(mem, 8, 64, 0);
        }
        CHECK_OK(orma_barrier());
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("ok_exclusive_locks");
    return 0;
}
