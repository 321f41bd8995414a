/* Bug: rank 0 frees memory (orma_alloc_mem) still attached to a dynamic
 * window, outside any access epoch: every origin's accesses are complete,
 * but the window still exposes the memory -- a passive epoch may reach it
 * at any time.  MPI-4.1 12.2.4: attached memory stays accessible until
 * MPI_WIN_DETACH, which must come before it is freed.
 * Expected: one "memory freed while exposed" report, target rank 0, its
 * orma_free_mem; after the fences no other. */
#include "ck_test.h"

static unsigned char src[8];

static CK_BUG void bug_free_before_detach(int rank, void *region)
{
    if (rank == 0)
        CHECK_OK(orma_free_mem(region));
}

int main(int argc, char **argv)
{
    int rank, n;
    orma_win win, exw;
    orma_aint *ex, addr0 = 0;
    void *region;
    ck_init(&argc, &argv, 2, &rank, &n);
    CHECK_OK(orma_alloc_mem(64, ORMA_INFO_NULL, &region));
    memset(region, 0, 64);
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &win));
    CHECK_OK(orma_win_attach(win, region, 64));
    CHECK_OK(orma_win_allocate(sizeof(orma_aint), sizeof(orma_aint), ORMA_INFO_NULL, (void **)&ex, &exw));
    *ex = (orma_aint)region;
    CHECK_OK(orma_win_fence(0, exw));
    CHECK_OK(orma_get(&addr0, 1, ORMA_AINT, 0, 0, 1, ORMA_AINT, exw));
    CHECK_OK(orma_win_fence(0, exw));
    CHECK_OK(orma_win_free(&exw));
    /* a correct epoch first: rank 1 puts into rank 0's region */
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 1) {
        memset(src, 0xd1, sizeof src);
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, addr0 + 16, 8, ORMA_BYTE, win));
    }
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    if (rank == 0)
        CK_BYTES((unsigned char *)region, 16, 24, 0xd1);
    bug_free_before_detach(rank, region);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_detach(win, region));
    if (rank != 0)
        CHECK_OK(orma_free_mem(region));
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_free_attached");
    return 0;
}
