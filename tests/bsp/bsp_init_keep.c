/* bsp_init_keep.c -- the bsp_init form in a program that called orma_init
 * itself before bsp_init: main calls orma_init, then bsp_init(spmd, argc,
 * argv); spmd calls bsp_begin and bsp_end; only process 0 returns to main,
 * calls spmd there, and after it orma_finalize.  The job must end, with
 * status 0 on every rank.
 *
 * Checks: bsp_nprocs before bsp_begin is orma's size; spmd runs once per
 * process, and on process 0 only from main; bsp_pid is the orma rank; a
 * superstep of puts works (every process reports to process 0, which
 * checks all reports); bsp_end returns on process 0 with orma still
 * initialized; orma_finalize succeeds there. */
#include "bsp_test.h"

#include <orma.h>

static int rank, size;
static int spmd_runs;
static int in_main; /* main's code after bsp_init ran */

static void spmd(void)
{
    CHECK_EQ(++spmd_runs, 1);
    CHECK_EQ(bsp_nprocs(), size);
    bsp_begin(size);
    bt_pid = bsp_pid();
    int p = bsp_nprocs();
    CHECK_EQ(p, size);
    CHECK_EQ(bt_pid, rank);
    /* only process 0 came back from bsp_init into main */
    CHECK_EQ(in_main, bt_pid == 0 ? 1 : 0);

    long *reports = bt_alloc((size_t)p * sizeof *reports);
    for (int q = 0; q < p; q++)
        reports[q] = -1;
    bsp_push_reg(reports, p * (int)sizeof *reports);
    bsp_sync();
    long mine = 4000 + 17L * bt_pid;
    bsp_put(0, &mine, reports, bt_pid * (int)sizeof mine, (int)sizeof mine);
    bsp_sync();
    if (bt_pid == 0)
        for (int q = 0; q < p; q++)
            CHECK_EQ(reports[q], 4000 + 17L * q);
    bsp_pop_reg(reports);
    bsp_sync();
    free(reports);
    int pid = bt_pid;
    bsp_end();
    /* orma stays initialized: the program called orma_init itself */
    int flag = 0;
    CHECK(orma_initialized(&flag) == ORMA_SUCCESS);
    CHECK_EQ(flag, 1);
    CHECK_EQ(orma_rank(), pid);
}

int main(int argc, char **argv)
{
    CHECK(orma_init(&argc, &argv) == ORMA_SUCCESS);
    rank = orma_rank();
    size = orma_size();
    CHECK(size >= 1 && rank >= 0 && rank < size);
    bsp_init(spmd, argc, argv);
    /* process 0 only, once */
    in_main++;
    CHECK_EQ(rank, 0);
    CHECK_EQ(spmd_runs, 0);
    spmd();
    CHECK_EQ(spmd_runs, 1);
    CHECK(orma_finalize() == ORMA_SUCCESS);
    int flag = 1;
    CHECK(orma_initialized(&flag) == ORMA_SUCCESS);
    CHECK_EQ(flag, 0);
    printf("bsp_init_keep: ok\n");
    return 0;
}
