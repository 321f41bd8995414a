/* Bug: rank 1 puts into a region rank 0 attached to a dynamic window,
 * under a lock, and rank 0 detaches the region while that put is still
 * live: after rank 1 issued it (first barrier), before rank 1's unlock
 * (second barrier).  MPI-4.1 12.2.4: memory may be detached only when no
 * access to it is pending -- the completion of the put is erroneous.
 * Expected: one "memory detached while exposed" report, target rank 0,
 * rank 1's orma_put and rank 0's orma_win_detach. */
#include "ck_test.h"

static unsigned char src[8];
static unsigned char region[64];

static CK_BUG void bug_detach_while_exposed(int rank, orma_win win, orma_aint addr)
{
    if (rank == 1) {
        memset(src, 0xa1, sizeof src);
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, win));
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, addr, 8, ORMA_BYTE, win));
    }
    CHECK_OK(orma_barrier()); /* rank 1 has issued its put */
    if (rank == 0)
        CHECK_OK(orma_win_detach(win, region));
    CHECK_OK(orma_barrier()); /* rank 0 has detached the region */
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
    orma_win win;
    orma_aint *addrs;
    orma_aint *ex;
    orma_win exw;
    ck_init(&argc, &argv, 2, &rank, &n);
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &win));
    CHECK_OK(orma_win_attach(win, region, sizeof region));
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
    bug_detach_while_exposed(rank, win, addrs[0] + 8);
    CHECK_OK(orma_barrier());
    if (rank != 0)
        CHECK_OK(orma_win_detach(win, region));
    CHECK_OK(orma_win_free(&win));
    free(addrs);
    ck_finish("bug_detach");
    return 0;
}
