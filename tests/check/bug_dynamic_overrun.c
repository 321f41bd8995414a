/* Bug: rank 1 puts 8 bytes at 12 bytes into a 16-byte region rank 0
 * attached to a dynamic window: the last 4 bytes lie outside every
 * attached region.  MPI-4.1 12.2.4: only attached memory may be accessed
 * (erroneous).  Without ORMA_CHECK=1 orma carries the put out, as the
 * unchecked program would (into bytes of rank 0's that follow the region
 * here: its own slack).
 * Expected: one "access outside the window" report, target rank 0,
 * rank 1's orma_put. */
#include "ck_test.h"

static unsigned char src[8];
static unsigned char mem[64]; /* the region is [16, 32) of it */

static CK_BUG void bug_put_past_region_end(orma_win win, orma_aint region)
{
    memset(src, 0x5d, sizeof src);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, win));
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, region + 12, 8, ORMA_BYTE, win));
    CHECK_OK(orma_win_unlock(0, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    orma_aint *ex, region = 0;
    orma_win exw;
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &win));
    if (rank == 0)
        CHECK_OK(orma_win_attach(win, mem + 16, 16));
    /* rank 0's region address, through a window of its own */
    CHECK_OK(orma_win_allocate(sizeof(orma_aint), sizeof(orma_aint), ORMA_INFO_NULL, (void **)&ex, &exw));
    *ex = (orma_aint)(uintptr_t)(mem + 16);
    CHECK_OK(orma_win_fence(0, exw));
    CHECK_OK(orma_get(&region, 1, ORMA_AINT, 0, 0, 1, ORMA_AINT, exw));
    CHECK_OK(orma_win_fence(0, exw));
    CHECK_OK(orma_win_free(&exw));
    if (rank == 1)
        bug_put_past_region_end(win, region);
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        CK_BYTES(mem, 0, 28, 0);
        CK_BYTES(mem, 28, 36, 0x5d);
        CK_BYTES(mem, 36, 64, 0);
        CHECK_OK(orma_win_detach(win, mem + 16));
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_dynamic_overrun");
    return 0;
}
