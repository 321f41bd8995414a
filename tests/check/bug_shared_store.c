/* Bug: in a shared window (orma_win_allocate_shared), rank 2 stores
 * straight into rank 0's part -- bytes that rank 1 put there in the same
 * fence epoch, after the put landed.  The first fence has no
 * NOPRECEDE: its barrier opens every target, so rank 1's put is carried
 * out in the call; the job barrier then tells rank 2 it is done.
 * MPI-4.1 12.7.1 (rule 3) and 12.2.3: a store to a shared window's memory
 * and a put to the same location must be separated by a synchronization
 * that ends the epoch.
 * Expected: one "local store during exposure" report, target rank 0, rank
 * 1's orma_put. */
#include "ck_test.h"

static unsigned char src[8];

static CK_BUG void bug_store_into_shared_part(int rank, orma_win win, unsigned char *part0)
{
    if (rank == 1) {
        memset(src, 0xc1, sizeof src);
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 8, 8, ORMA_BYTE, win));
    }
    CHECK_OK(orma_barrier()); /* rank 1's put has landed (carried out in the call) */
    if (rank == 2)
        memset(part0 + 10, 0xc2, 2); /* the erroneous store, into rank 0's part */
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem, *part0;
    orma_win win;
    ck_init(&argc, &argv, 3, &rank, &n);
    CHECK_OK(orma_win_allocate_shared(64, 1, ORMA_INFO_NULL, (void **)&mem, &win));
    size_t size;
    int du;
    CHECK_OK(orma_win_shared_query(win, 0, &size, &du, (void **)&part0));
    memset(mem, 0, 64);
    CHECK_OK(orma_win_fence(0, win));
    bug_store_into_shared_part(rank, win, part0);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        CK_BYTES(mem, 0, 8, 0);
        CK_BYTES(mem, 8, 10, 0xc1);
        CK_BYTES(mem, 10, 12, 0xc2);
        CK_BYTES(mem, 12, 16, 0xc1);
        CK_BYTES(mem, 16, 64, 0);
    }
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_shared_store");
    return 0;
}
