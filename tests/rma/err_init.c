/* err_init.c -- calls before orma_init and after orma_finalize.
 *
 * Outside the job every call that needs it fails with ORMA_ERR_NOT_INIT
 * (orma_rank is negative then, so CHECK_ERR does not look for a rank in the
 * message); orma_initialized and the clock work anyway.  A second orma_init
 * is ORMA_ERR_ARG and leaves the job usable. */
#include "rma_test.h"

#include <stdint.h>

static void expect_not_init(orma_win some_win)
{
    unsigned char buf[16] = {0};
    void *p = buf;
    orma_win w = some_win;
    int flag = 7;

    CHECK_OK(orma_initialized(&flag));
    CHECK(flag == 0);
    CHECK(orma_rank() == ORMA_ERR_NOT_INIT);
    CHECK(orma_size() == ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_barrier(), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_finalize(), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_alloc_mem(64, ORMA_INFO_NULL, &p), ORMA_ERR_NOT_INIT);
    CHECK(p == buf); /* output not written on error */
    CHECK_ERR(orma_win_allocate(64, 1, ORMA_INFO_NULL, &p, &w), ORMA_ERR_NOT_INIT);
    CHECK(w == some_win);
    CHECK_ERR(orma_win_create(buf, sizeof buf, 1, ORMA_INFO_NULL, &w), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_win_create_dynamic(ORMA_INFO_NULL, &w), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_win_allocate_shared(64, 1, ORMA_INFO_NULL, &p, &w), ORMA_ERR_NOT_INIT);
    CHECK(w == some_win);
    CHECK_ERR(orma_put(buf, 1, ORMA_BYTE, 0, 0, 1, ORMA_BYTE, w), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_get(buf, 1, ORMA_BYTE, 0, 0, 1, ORMA_BYTE, w), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_win_fence(0, w), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_win_free(&w), ORMA_ERR_NOT_INIT);
    CHECK(orma_error_message() != NULL);
}

int main(int argc, char **argv)
{
    int rank, n, flag = 0;
    double t0, t1;
    unsigned char *base = NULL;
    orma_win win = ORMA_WIN_NULL;

    /* The clock is usable before orma_init. */
    t0 = orma_wtime();
    t1 = orma_wtime();
    CHECK(t1 >= t0);
    CHECK(orma_wtick() > 0.0 && orma_wtick() <= 1e-6);
    CHECK(orma_error_message() != NULL);

    /* A handle that looks plausible must not get past the init check. */
    expect_not_init((orma_win)1);

    rt_init(&argc, &argv, &rank, &n);
    CHECK_OK(orma_initialized(&flag));
    CHECK(flag == 1);
    CHECK_ERR(orma_init(&argc, &argv), ORMA_ERR_ARG);
    CHECK_ERR(orma_init(NULL, NULL), ORMA_ERR_ARG);
    CHECK(orma_rank() == rank && orma_size() == n);

    /* Still a working job after the failed second init. */
    CHECK_OK(orma_win_allocate(32, 4, ORMA_INFO_NULL, (void **)&base, &win));
    rt_good_epoch(win, base, 32, 4, 10);
    CHECK_OK(orma_barrier());

    /* orma_finalize releases windows still open; the handle of one is then
     * as dead as any other. */
    CHECK_OK(orma_finalize());
    expect_not_init(win);
    return 0;
}
