/* Bug: rank 1 puts from a buffer in a fence epoch and writes the buffer
 * over before the fence that completes the put.  MPI-4.1 12.7.1 (and
 * 12.3.1): the origin buffer of a put may not be updated until the epoch
 * that holds the put is closed; the transfer may be deferred to the fence.
 * Expected: one "origin buffer changed before completion" report, target
 * rank 0, rank 1, the completing call orma_win_fence. */
#include "ck_test.h"

static unsigned char buf[16];

static CK_BUG void bug_origin_buffer_changed_fence(orma_win win)
{
    memset(buf, 0x91, sizeof buf);
    CHECK_OK(orma_put(buf, 16, ORMA_BYTE, 0, 0, 16, ORMA_BYTE, win));
    memset(buf, 0x92, sizeof buf); /* the put is not complete yet */
    CHECK_OK(orma_win_fence(0, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 1)
        bug_origin_buffer_changed_fence(win);
    else
        CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        CK_BYTES_EITHER(mem, 0, 16, 0x91, 0x92);
        CK_BYTES(mem, 16, 64, 0);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_buffer_fence");
    return 0;
}
