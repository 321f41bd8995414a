/* Bug: rank 1 puts from a buffer under a lock on rank 0 and writes the
 * buffer over before the flush that completes the put.  MPI-4.1 12.7.1
 * (and 12.3.1): the origin buffer of a put may not be updated until the
 * operation is complete at the origin (flush, flush_local, unlock); the
 * target may receive the old bytes or the new.
 * Expected: one "origin buffer changed before completion" report, target
 * rank 0, rank 1, the completing call orma_win_flush. */
#include "ck_test.h"

static unsigned char buf[16];

static CK_BUG void bug_origin_buffer_changed_flush(orma_win win)
{
    memset(buf, 0x81, sizeof buf);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, win));
    CHECK_OK(orma_put(buf, 16, ORMA_BYTE, 0, 0, 16, ORMA_BYTE, win));
    memset(buf, 0x82, sizeof buf); /* the put is not complete yet */
    CHECK_OK(orma_win_flush(0, win));
    CHECK_OK(orma_win_unlock(0, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    if (rank == 1)
        bug_origin_buffer_changed_flush(win);
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        CK_BYTES_EITHER(mem, 0, 16, 0x81, 0x82);
        CK_BYTES(mem, 16, 64, 0);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_buffer_flush");
    return 0;
}
