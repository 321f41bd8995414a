/* Bug: rank 1 puts into a region of rank 0 (memory from orma_alloc_mem,
 * attached to a dynamic window) under a lock, and rank 0 frees that
 * memory while the put is still live: after rank 1 issued it (first
 * barrier), before rank 1's unlock (second barrier).  MPI-4.1 12.2.4 and
 * 12.7: memory exposed in a window may not be freed while accesses to it
 * are pending -- erroneous.
 * Expected: one "memory freed while exposed" report, target rank 0,
 * rank 1's orma_put and rank 0's orma_free_mem. */
#include "ck_test.h"

static unsigned char src[8];

static CK_BUG void bug_free_mem_while_exposed(int rank, orma_win win, orma_aint addr, void *region)
{
    if (rank == 1) {
        memset(src, 0xc1, sizeof src);
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, win));
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, addr, 8, ORMA_BYTE, win));
    }
    CHECK_OK(orma_barrier()); /* rank 1 has issued its put */
    if (rank == 0)
        CHECK_OK(orma_free_mem(region));
    CHECK_OK(orma_barrier()); /* rank 0 has freed the memory */
    if (rank == 1) {
        int rc = orma_win_unlock(0, win);
        /* the put may have gone already (shared memory), or fail now that
         * its target memory is gone (deferred to the unlock) */
        CHECK(rc == ORMA_SUCCESS || rc == ORMA_ERR_RANGE);
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    orma_win win, exw;
    orma_aint *addrs, *ex;
    void *region;
    ck_init(&argc, &argv, 2, &rank, &n);
    CHECK_OK(orma_alloc_mem(64, ORMA_INFO_NULL, &region));
    memset(region, 0, 64);
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &win));
    CHECK_OK(orma_win_attach(win, region, 64));
    /* every rank's region address, through a window of its own */
    addrs = calloc((size_t)n, sizeof *addrs);
    CHECK(addrs != NULL);
    CHECK_OK(orma_win_allocate(sizeof(orma_aint), sizeof(orma_aint), ORMA_INFO_NULL, (void **)&ex, &exw));
    *ex = (orma_aint)region;
    CHECK_OK(orma_win_fence(0, exw));
    for (int r = 0; r < n; r++)
        CHECK_OK(orma_get(&addrs[r], 1, ORMA_AINT, r, 0, 1, ORMA_AINT, exw));
    CHECK_OK(orma_win_fence(0, exw));
    CHECK_OK(orma_win_free(&exw));
    bug_free_mem_while_exposed(rank, win, addrs[0] + 8, region);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_detach(win, region));
    if (rank != 0)
        CHECK_OK(orma_free_mem(region));
    CHECK_OK(orma_win_free(&win));
    free(addrs);
    ck_finish("bug_free_mem");
    return 0;
}
