/* bsp_init_form.c -- the bsp_init form: main calls bsp_init(spmd, argc,
 * argv) first; only process 0 returns to main, where it does sequential
 * work (here: reads a number from argv and computes with it) and calls
 * spmd itself, as BSPlib programs do; every other process runs spmd from
 * within bsp_init and never gets back to main.  Checks: main's code after
 * bsp_init ran on process 0 only and once, spmd ran once per process,
 * bsp_nprocs before bsp_begin is the ranks available, what process 0
 * computed before bsp_begin reaches every process, a reduction over all
 * processes is right, and process 0 returns from bsp_end back into main
 * (the others exit 0 there).
 *
 *   bsp_init_form <magic> all|<maxprocs>|p0:<maxprocs>
 *
 * A number as second argument makes spmd call bsp_begin(maxprocs); the
 * ranks beyond it must end quietly.  p0:<maxprocs> is the BSPlib
 * standard's own example of this form: process 0 decides maxprocs in main
 * after bsp_init (here from argv), the others call bsp_begin with what
 * they have (here 1), and process 0's number holds. */
#include "bsp_test.h"

static int main_after_init; /* main's code after bsp_init ran (process 0) */
static int spmd_runs;
static long magic;          /* read by process 0 in main */
static int maxprocs_arg;    /* 0: all */
static int p0_decides;      /* p0:<n>: the n, known to all for the checks */
static int p0_maxprocs = 1; /* what spmd passes in p0 mode: process 0 sets it */
static int avail_before;
static const char *magic_text; /* argv[1], stored by main before bsp_init */

static void spmd(void)
{
    CHECK_EQ(++spmd_runs, 1);
    int avail = bsp_nprocs();
    CHECK(avail >= 1);
    int maxprocs = p0_decides ? p0_maxprocs : maxprocs_arg ? maxprocs_arg : avail;
    int decided = p0_decides ? p0_decides : maxprocs;
    int want = decided < avail ? decided : avail;
    bsp_begin(maxprocs);
    bt_pid = bsp_pid();
    int p = bsp_nprocs();
    CHECK_EQ(p, want);
    CHECK(bt_pid >= 0 && bt_pid < p);
    /* only process 0 came back from bsp_init into main */
    CHECK_EQ(main_after_init, bt_pid == 0 ? 1 : 0);
    if (bt_pid == 0)
        CHECK_EQ(avail_before, avail);

    /* process 0 hands what main computed to everybody */
    long got[2] = {-1, -1};
    bsp_push_reg(got, (int)sizeof got);
    long sums[8];
    for (int i = 0; i < 8; i++)
        sums[i] = -1;
    bsp_push_reg(sums, (int)sizeof sums);
    bsp_sync();
    if (bt_pid == 0) {
        long out[2] = {magic, magic * 3 + 1};
        for (int q = 0; q < p; q++)
            bsp_put(q, out, got, 0, (int)sizeof out);
    }
    bsp_sync();
    CHECK(magic == 0 || bt_pid == 0);
    /* every process has argv too (main stored it before bsp_init) */
    CHECK_EQ(got[0], strtol(magic_text, NULL, 10));
    CHECK_EQ(got[1], got[0] * 3 + 1);

    /* every process sends got[0] * (pid + 1) + pid^2 to process 0 */
    long part = got[0] * (bt_pid + 1) + (long)bt_pid * bt_pid;
    CHECK(p <= 8);
    bsp_put(0, &part, sums, bt_pid * (int)sizeof(long), (int)sizeof(long));
    bsp_sync();
    if (bt_pid == 0) {
        long total = 0, want_total = 0;
        for (int q = 0; q < p; q++) {
            CHECK_EQ(sums[q], got[0] * (q + 1) + (long)q * q);
            total += sums[q];
            want_total += magic * (q + 1) + (long)q * q;
        }
        for (int q = p; q < 8; q++)
            CHECK_EQ(sums[q], -1);
        CHECK_EQ(total, want_total);
    }
    bsp_pop_reg(sums);
    bsp_pop_reg(got);
    bsp_sync();
    int pid = bt_pid;
    bsp_end();
    if (pid != 0) {
        fprintf(stderr, "bsp process %d returned from bsp_end\n", pid);
        exit(3);
    }
}

int main(int argc, char **argv)
{
    CHECK(argc == 3);
    if (!strncmp(argv[2], "p0:", 3))
        p0_decides = atoi(argv[2] + 3);
    else if (strcmp(argv[2], "all"))
        maxprocs_arg = atoi(argv[2]);
    magic_text = argv[1];
    bsp_init(spmd, argc, argv);
    /* process 0 only, once */
    main_after_init++;
    CHECK(spmd_runs == 0);
    avail_before = bsp_nprocs();
    magic = strtol(argv[1], NULL, 10);
    CHECK(magic > 0);
    if (p0_decides)
        p0_maxprocs = atoi(argv[2] + 3);
    spmd();
    CHECK_EQ(spmd_runs, 1);
    CHECK_EQ(main_after_init, 1);
    printf("bsp_init_form: ok\n");
    return 0;
}
