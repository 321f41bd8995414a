/* Bug: rank 0 stores into bytes of its own window that rank 1 put in the
 * same fence epoch, after the put landed.  Rank 1 puts 8 bytes at [0, 8)
 * and then a notified put of no bytes, which raises rank 0's counter once
 * everything rank 1 issued to it is there (orma.h, "Notified access");
 * rank 0 waits for the counter, stores, and only then comes the fence.
 * MPI-4.1 12.7.1 (rule 3): a local store to a location updated by a put
 * must be separated from the put by a synchronization that ends the
 * exposure epoch -- a store inside it is erroneous.
 * Expected: one "local store during exposure" report, target rank 0,
 * rank 1's orma_put and rank 0's store. */
#include "ck_test.h"

static unsigned char src[8];

static CK_BUG void bug_local_store_during_exposure(int rank, orma_win win, unsigned char *mem)
{
    if (rank == 1) {
        memset(src, 0xb1, sizeof src);
        CHECK_OK(orma_put(src, 8, ORMA_BYTE, 0, 0, 8, ORMA_BYTE, win));
        CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, 0, 32, 0, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1));
    }
    if (rank == 0) {
        CHECK_OK(orma_notify_wait(win, 0, 1)); /* rank 1's put is here */
        memset(mem + 2, 0xb0, 4); /* the erroneous store */
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    orma_info info;
    ck_init(&argc, &argv, 2, &rank, &n);
    CHECK_OK(orma_info_create(&info));
    CHECK_OK(orma_info_set(info, "orma_notify_num", rank == 0 ? "1" : "0"));
    CHECK_OK(orma_win_allocate(64, 1, info, (void **)&mem, &win));
    CHECK_OK(orma_info_free(&info));
    memset(mem, 0, 64);
    CHECK_OK(orma_win_fence(0, win));
    bug_local_store_during_exposure(rank, win, mem);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        CK_BYTES(mem, 0, 2, 0xb1);
        CK_BYTES(mem, 2, 6, 0xb0);
        CK_BYTES(mem, 6, 8, 0xb1);
        CK_BYTES(mem, 8, 64, 0);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_local_store");
    return 0;
}
