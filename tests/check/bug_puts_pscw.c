/* Bug: ranks 1 and 2 put to overlapping bytes of rank 0's window in one
 * PSCW exposure epoch (rank 0 posts to both; rank 1: [0, 8), rank 2:
 * [4, 12)).  MPI-4.1 12.7.1: two puts of one exposure epoch to one
 * location are concurrent conflicting accesses (erroneous).
 * Expected: one "overlapping puts" report, target rank 0, ranks 1 and 2. */
#include "ck_test.h"

static orma_group ck_group(orma_win win, int n, const int *ranks)
{
    orma_group all, g;
    CHECK_OK(orma_win_get_group(win, &all));
    CHECK_OK(orma_group_incl(all, n, ranks, &g));
    CHECK_OK(orma_group_free(&all));
    return g;
}

static CK_BUG void bug_overlapping_puts_pscw(int rank, orma_win win)
{
    static unsigned char src[8]; /* the epoch's until it closes */
    memset(src, 0x20 + rank, sizeof src);
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, rank == 1 ? 0 : 4, 8, ORMA_BYTE, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 3, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    if (rank == 0) {
        int origins[2] = {1, 2};
        orma_group g = ck_group(win, 2, origins);
        CHECK_OK(orma_win_post(g, 0, win));
        CHECK_OK(orma_win_wait(win));
        CHECK_OK(orma_group_free(&g));
        CK_BYTES(mem, 0, 4, 0x21);
        CK_BYTES_EITHER(mem, 4, 8, 0x21, 0x22);
        CK_BYTES(mem, 8, 12, 0x22);
        CK_BYTES(mem, 12, 64, 0);
    } else if (rank <= 2) {
        int target = 0;
        orma_group g = ck_group(win, 1, &target);
        CHECK_OK(orma_win_start(g, 0, win));
        bug_overlapping_puts_pscw(rank, win);
        CHECK_OK(orma_win_complete(win));
        CHECK_OK(orma_group_free(&g));
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_puts_pscw");
    return 0;
}
