/* err_sync.c -- synchronization errors.
 *
 * Put and get outside an epoch (before the first fence, after a fence with
 * ORMA_MODE_NOSUCCEED), fences with unknown assert bits, a NOPRECEDE fence
 * after operations were issued, and freeing a window whose epoch still has
 * pending operations.  The failed calls change nothing: the epoch stays
 * open with its operations, the handle stays valid, and the operations
 * issued before the failure complete at the next correct fence. */
#include "rma_test.h"

#include <limits.h>

static int rank, nranks, rt;

static size_t wsize(int t) { return 64 + 8 * (size_t)t; }

int main(int argc, char **argv)
{
    unsigned char *mine = NULL, src[8], gbuf[16];
    size_t size;
    orma_win w = ORMA_WIN_NULL, saved;
    const int bad_asserts[] = {1 << 5, 1 << 30, -1, INT_MIN,
                               ORMA_MODE_NOSTORE | (1 << 7)};

    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    size = wsize(rank);
    CHECK_OK(orma_win_allocate(size, 1, ORMA_INFO_NULL, (void **)&mine, &w));
    rt_fill_bg(mine, size);
    rt_fill_bg(gbuf, sizeof gbuf);
    rt_fill_data(src, sizeof src, 10 + (unsigned)rt, 8);

    /* No epoch before the first fence. */
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, rt, 8, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_get(gbuf, 8, ORMA_BYTE, rt, 8, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_put(src, 0, ORMA_BYTE, rt, 8, 0, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);

    /* Unknown assert bits, with and without an open epoch. */
    for (size_t i = 0; i < sizeof bad_asserts / sizeof bad_asserts[0]; i++)
        CHECK_ERR(orma_win_fence(bad_asserts[i], w), ORMA_ERR_ASSERT);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w));
    for (size_t i = 0; i < sizeof bad_asserts / sizeof bad_asserts[0]; i++)
        CHECK_ERR(orma_win_fence(bad_asserts[i], w), ORMA_ERR_ASSERT);

    /* Operations issued: a fence that claims there are none is wrong, and so
     * is freeing the window; both leave the operation pending. */
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, rt, 8, 8, ORMA_BYTE, w));
    CHECK_ERR(orma_win_fence(ORMA_MODE_NOPRECEDE, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_fence(ORMA_MODE_NOPRECEDE | ORMA_MODE_NOSUCCEED, w),
              ORMA_ERR_RMA_SYNC);
    saved = w;
    CHECK_ERR(orma_win_free(&w), ORMA_ERR_RMA_SYNC);
    CHECK(w == saved);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));
    RT_EXPECT_REGION(mine, size, 8, 8, 10 + (unsigned)rank, 8,
                     "window after failed fences and free");

    /* No epoch after NOSUCCEED. */
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, rt, 16, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_get(gbuf, 8, ORMA_BYTE, rt, 16, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    RT_EXPECT_BG(gbuf, 0, sizeof gbuf, "get buffer of failed gets");

    /* A get in a later epoch still sees the put of the completed one. */
    CHECK_OK(orma_win_fence(0, w));
    CHECK_OK(orma_get(gbuf + 4, 8, ORMA_BYTE, rt, 8, 8, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));
    RT_EXPECT_REGION(gbuf, sizeof gbuf, 4, 8, 10 + (unsigned)rt, 8,
                     "get after failed calls");
    RT_EXPECT_REGION(mine, size, 8, 8, 10 + (unsigned)rank, 8,
                     "window after the get");

    rt_good_epoch(w, mine, size, 1, 20);

    /* An epoch that is open but whose operations are complete does not
     * stop orma_win_free: the usual fence-put-fence-free sequence. */
    rt_fill_bg(mine, size);
    CHECK_OK(orma_win_fence(0, w));
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, rt, 8, 8, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(0, w));
    RT_EXPECT_REGION(mine, size, 8, 8, 10 + (unsigned)rank, 8,
                     "window before free");
    CHECK_OK(orma_win_free(&w));
    CHECK(w == ORMA_WIN_NULL);

    CHECK_OK(orma_finalize());
    return 0;
}
