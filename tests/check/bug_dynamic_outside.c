/* Bug: rank 1 puts, under a lock, to an address of rank 0 that lies in no
 * region attached to a dynamic window (address 0x1000, in the first pages
 * no process maps).  MPI-4.1 12.2.4 and 12.7: only attached memory may be
 * accessed through a dynamic window -- erroneous.  orma refuses it with
 * ORMA_ERR_RANGE, and the race checker reports it.
 * Expected: one "access outside the window" report, target rank 0,
 * rank 1, address space. */
#include "ck_test.h"

static unsigned char src[8];

static CK_BUG void bug_put_unattached_address(orma_win win)
{
    memset(src, 0x72, sizeof src);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, win));
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, 0, (orma_aint)0x1000, 8, ORMA_BYTE, win), ORMA_ERR_RANGE);
    CHECK_OK(orma_win_unlock(0, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    orma_win win;
    static unsigned char region[64];
    ck_init(&argc, &argv, 2, &rank, &n);
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &win));
    CHECK_OK(orma_win_attach(win, region, sizeof region));
    CHECK_OK(orma_barrier());
    if (rank == 1)
        bug_put_unattached_address(win);
    CHECK_OK(orma_barrier());
    CK_BYTES(region, 0, sizeof region, 0);
    CHECK_OK(orma_win_detach(win, region));
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_dynamic_outside");
    return 0;
}
