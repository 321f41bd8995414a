/* Correct: in one lock_all epoch of every rank, rank k (k = 1, 2, ...)
 * reads the 8 bytes of rank 0's window that rank k-1 put, then puts its own
 * number there and flushes, then every rank meets -- in an orma_barrier in
 * the first pass, in a fence of another window in the second.  MPI-4.1
 * 12.7.1 and 12.5.4: a flush completes the put at the target, and a
 * synchronization after it orders it before the next rank's accesses.
 * Expected: no report. */
#include "ck_test.h"

static unsigned char src[8], back[8];

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem, *other;
    orma_win win, ow;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    ck_win(8, (void **)&other, &ow);
    CHECK_OK(orma_win_fence(0, ow));
    for (int pass = 0; pass < 2; pass++) {
        CHECK_OK(orma_win_lock_all(0, win));
        for (int k = 1; k < n; k++) {
            if (rank == k) {
                /* what rank k-1 put: in this pass, or the last rank's of the pass before */
                int want = k > 1 ? 0x40 * (pass + 1) + k - 1 : pass ? 0x40 + n - 1 : 0;
                CHECK_OK(orma_get(back, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
                CHECK_OK(orma_win_flush(0, win));
                CK_BYTES(back, 0, 8, (unsigned char)want);
                memset(src, 0x40 * (pass + 1) + k, sizeof src);
                CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
                CHECK_OK(orma_win_flush(0, win));
            }
            if (pass == 0)
                CHECK_OK(orma_barrier());
            else
                CHECK_OK(orma_win_fence(0, ow));
        }
        CHECK_OK(orma_win_unlock_all(win));
        CHECK_OK(orma_barrier());
        if (rank == 0) {
            CK_BYTES(mem, 0, 8, (unsigned char)(0x40 * (pass + 1) + n - 1));
            CK_BYTES(mem, 8, 64, 0);
        }
        CHECK_OK(orma_barrier()); /* rank 0 read its bytes before the next pass writes them */
    }
    CHECK_OK(orma_win_fence(0, ow));
    CHECK_OK(orma_win_free(&ow));
    CHECK_OK(orma_win_free(&win));
    ck_finish("ok_lock_all_flush");
    return 0;
}
