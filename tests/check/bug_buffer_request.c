/* Bug: rank 1 issues orma_rput from a buffer under a lock and writes into
 * the buffer before waiting for the request.  MPI-4.1 12.3.5: the origin
 * buffer of a request-based put may be reused only once the request
 * completed (erroneous).  orma copies the data as it issues the put, so
 * the target gets the buffer's old contents; the checker finds the change
 * at the wait.
 * Expected: one "origin buffer changed before completion" report, target
 * rank 0, rank 1's orma_rput and its orma_wait. */
#include "ck_test.h"

static int32_t src[4];

static CK_BUG void bug_origin_buffer_changed_request(orma_win win)
{
    orma_request req;
    for (int i = 0; i < 4; i++)
        src[i] = 40 + i;
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, win));
    CHECK_OK(orma_rput(src, 4, ORMA_INT32, 0, 0, 4, ORMA_INT32, win, &req));
    *(volatile int32_t *)&src[2] = 99; /* before the request completed */
    CHECK_OK(orma_wait(&req));
    CHECK_OK(orma_win_unlock(0, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    int32_t *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    if (rank == 1)
        bug_origin_buffer_changed_request(win);
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        CHECK_OK(orma_win_sync(win));
        CK_I32(mem, 0, 40);
        CK_I32(mem, 1, 41);
        CHECK(mem[2] == 42 || mem[2] == 99); /* copied as issued, or not yet */
        CK_I32(mem, 3, 43);
    }
    CHECK_OK(orma_win_free(&win));
    ck_finish("bug_buffer_request");
    return 0;
}
