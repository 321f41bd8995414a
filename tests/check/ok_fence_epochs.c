/* Correct: puts to the same bytes of rank 0's window in consecutive fence
 * epochs -- rank 1 twice ([0, 8), then [4, 12)), then every other rank k
 * in an epoch of its own ([0, 8)) -- and in the last epoch every rank gets
 * the bytes back.  MPI-4.1 12.7.1: accesses of different fence epochs are
 * ordered by the fence between them; gets never conflict with gets.
 * Expected: no report. */
#include "ck_test.h"

static unsigned char src[8], back[12];

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 1) {
        memset(src, 0x11, sizeof src);
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
    }
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 1) {
        memset(src, 0x12, sizeof src);
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 4, 8, ORMA_BYTE, win));
    }
    for (int k = 2; k < n; k++) {
        CHECK_OK(orma_win_fence(0, win));
        if (rank == k) {
            memset(src, 0x10 + k, sizeof src);
            CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
        }
    }
    CHECK_OK(orma_win_fence(0, win));
    CHECK_OK(orma_get(back, 12, ORMA_BYTE, 0, 0, 12, ORMA_BYTE, win));
    CHECK_OK(orma_win_fence(0, win));
    unsigned char last = n > 2 ? (unsigned char)(0x10 + n - 1) : 0x11;
    CK_BYTES(back, 0, 4, last);
    CK_BYTES(back, 4, 8, n > 2 ? last : 0x12);
    CK_BYTES(back, 8, 12, 0x12);
    if (rank == 0)
        CK_BYTES(mem, 12, 64, 0);
    CHECK_OK(orma_win_free(&win));
    ck_finish("ok_fence_epochs");
    return 0;
}
