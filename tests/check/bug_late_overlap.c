/* Bug: a halo exchange of many steps (ck_halo.h), correct but for one
 * step late in its post-start-complete-wait phase, where ranks 1 and 2
 * also put 8 bytes each into overlapping bytes of rank 0 ([4, 12) and
 * [8, 16)), which neither exchange slot holds.  MPI-4.1 12.7.1: two puts
 * of one exposure epoch to one location conflict (erroneous).  The
 * records of the 200 and more epochs before it were recycled; the checks
 * by content sample by then, the checks of accesses against each other
 * do not.
 * Expected: one "overlapping puts" report, target rank 0, ranks 1 and 2. */
#include "ck_halo.h"

static unsigned char extra[8];

static CK_BUG void bug_late_overlapping_puts(int rank, orma_win win)
{
    memset(extra, 0x60 + rank, sizeof extra);
    CHECK_OK(orma_put(extra, 8, ORMA_BYTE, 0, rank == 1 ? 4 : 8, 8, ORMA_BYTE, win));
}

static void late_step(int rank, int mode, int step, orma_win win)
{
    if (mode == CK_HALO_PSCW && step == CK_HALO_STEPS - 20 && (rank == 1 || rank == 2))
        bug_late_overlapping_puts(rank, win);
}

int main(int argc, char **argv)
{
    int rank, n;
    /* three ranks: rank 0's neighbours are 1 and 2, which start epochs to it */
    ck_init(&argc, &argv, 3, &rank, &n);
    if (n != 3) {
        if (rank == 0)
            printf("needs exactly 3 ranks, has %d: skipped\n", n);
        CHECK_OK(orma_finalize());
        return 77;
    }
    ck_halo_run(rank, n, late_step);
    ck_finish("bug_late_overlap");
    return 0;
}
