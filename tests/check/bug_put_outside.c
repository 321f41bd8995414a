/* Bug: rank 1 puts 8 bytes at displacement 12 of rank 0's window of 16
 * bytes: bytes [16, 20) lie past its end.  MPI-4.1 12.7 (and 12.3: "the
 * target buffer must fit in the target window") -- erroneous.  orma
 * refuses the put with ORMA_ERR_RANGE, and the race checker reports it.
 * Expected: one "access outside the window" report, target rank 0, rank 1. */
#include "ck_test.h"

static unsigned char src[8];

static CK_BUG void bug_put_past_window_end(orma_win win)
{
    memset(src, 0x71, sizeof src);
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, 0, 12, 8, ORMA_BYTE, win), ORMA_ERR_RANGE);
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(16, (void **)&mem, &win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 1)
        bug_put_past_window_end(win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0)
        CK_BYTES(mem, 0, 16, 0); /* the refused put changed nothing */
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_put_outside");
    return 0;
}
