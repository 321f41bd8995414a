/* Correct: rank 0 exposes its window to one origin at a time -- rank 1,
 * then each other rank, then rank 1 again -- and each puts into the same
 * 8 bytes.  MPI-4.1 12.7.1 and 12.5.2: accesses of different exposure
 * epochs of the target are ordered by its wait and the next post.
 * Expected: no report. */
#include "ck_test.h"

static unsigned char src[8];

static orma_group one_rank(orma_win win, int r)
{
    orma_group all, g;
    CHECK_OK(orma_win_get_group(win, &all));
    CHECK_OK(orma_group_incl(all, 1, &r, &g));
    CHECK_OK(orma_group_free(&all));
    return g;
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    /* exposure e (0..n-1) is for rank 1 + e % (n - 1): 1, 2, ..., n-1, 1 */
    for (int e = 0; e < n; e++) {
        int origin = 1 + e % (n - 1);
        if (rank == 0) {
            orma_group g = one_rank(win, origin);
            CHECK_OK(orma_win_post(g, 0, win));
            CHECK_OK(orma_win_wait(win));
            CHECK_OK(orma_group_free(&g));
            CK_BYTES(mem, 0, 8, (unsigned char)(0x60 + e));
            CK_BYTES(mem, 8, 64, 0);
        } else if (rank == origin) {
            orma_group g = one_rank(win, 0);
            memset(src, 0x60 + e, sizeof src);
            CHECK_OK(orma_win_start(g, 0, win));
            CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
            CHECK_OK(orma_win_complete(win));
            CHECK_OK(orma_group_free(&g));
        }
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("ok_pscw_epochs");
    return 0;
}
