/* bsp_procs.c -- the SPMD form and the process calls: bsp_nprocs before
 * bsp_begin is the number of ranks available (ORMA_BOOT_SIZE under
 * orma-run, the MPI's size variable under mpirun); bsp_begin(maxprocs)
 * starts min(maxprocs, available) processes, numbered 0..p-1 once each,
 * and every surplus rank ends quietly (status 0, never returning from
 * bsp_begin); bsp_pid and bsp_nprocs agree on every process; bsp_time
 * starts near 0 at bsp_begin, never decreases and follows the wall clock;
 * a run of empty supersteps; bsp_end returns on process 0 only, the others
 * exit with status 0.
 *
 *   bsp_procs all|more|<maxprocs>
 *
 * all: bsp_begin(bsp_nprocs()); more: three more than available; a
 * number: exactly that. */
#include "bsp_test.h"

#include <time.h>

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The ranks the launcher started, when it says so; -1 when unknown. */
static int launched_ranks(void)
{
    const char *vars[] = {"ORMA_BOOT_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return atoi(v);
    }
    return -1;
}

static void check_time(void)
{
    double t0 = bsp_time();
    /* near 0: bsp_begin has just returned (the machine is oversubscribed) */
    CHECK(t0 >= 0.0 && t0 < 3.0);
    double prev = t0;
    for (int i = 0; i < 100000; i++) {
        double t = bsp_time();
        CHECK(t >= prev);
        prev = t;
    }
    double w0 = wall_s(), b0 = bsp_time();
    bt_sleep_ms(60);
    double b1 = bsp_time(), w1 = wall_s();
    /* 60 ms passed on the wall clock: bsp_time saw them, and not much more */
    CHECK(b1 - b0 >= 0.055);
    CHECK(b1 - b0 <= (w1 - w0) + 0.01);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    int avail = bsp_nprocs();
    CHECK(avail >= 1);
    int launched = launched_ranks();
    if (launched > 0)
        CHECK_EQ(avail, launched);

    int maxprocs;
    if (!strcmp(argv[1], "all"))
        maxprocs = avail;
    else if (!strcmp(argv[1], "more"))
        maxprocs = avail + 3;
    else
        maxprocs = atoi(argv[1]);
    CHECK(maxprocs >= 1);
    int want = maxprocs < avail ? maxprocs : avail;

    double w_begin = wall_s();
    bsp_begin(maxprocs);
    double b_begin = bsp_time(), w_after = wall_s();
    bt_pid = bsp_pid();
    int p = bsp_nprocs();
    /* a surplus rank that came back would have a number outside 0..p-1 */
    CHECK_EQ(p, want);
    CHECK(bt_pid >= 0 && bt_pid < p);
    /* the clock starts during bsp_begin (or just before) */
    CHECK(b_begin >= 0.0 && b_begin <= (w_after - w_begin) + 0.25);
    check_time();

    /* Every process tells every process (itself too) its number and what
     * it sees as bsp_nprocs: each slot filled once, by its own process. */
    int *seen = bt_alloc((size_t)p * 2 * sizeof(int));
    for (int i = 0; i < 2 * p; i++)
        seen[i] = -1;
    bsp_push_reg(seen, p * 2 * (int)sizeof(int));
    bsp_sync();
    int mine[2] = {bt_pid + 1000, p};
    for (int q = 0; q < p; q++)
        bsp_put(q, mine, seen, bt_pid * 2 * (int)sizeof(int), 2 * (int)sizeof(int));
    bsp_sync();
    for (int q = 0; q < p; q++) {
        CHECK_EQ(seen[2 * q], q + 1000);
        CHECK_EQ(seen[2 * q + 1], p);
    }

    /* Empty supersteps in a row, then a put that must carry the count: the
     * processes have done as many syncs as each other. */
    double t_before = bsp_time();
    for (int i = 0; i < 50; i++)
        bsp_sync();
    int count[2] = {bt_pid, 50 + 2};
    bsp_put((bt_pid + 1) % p, count, seen, 0, 2 * (int)sizeof(int));
    bsp_sync();
    CHECK_EQ(seen[0], (bt_pid + p - 1) % p);
    CHECK_EQ(seen[1], 52);
    CHECK(bsp_time() >= t_before);
    bsp_pop_reg(seen);
    bsp_sync();
    free(seen);
    CHECK_EQ(bsp_pid(), bt_pid);
    CHECK_EQ(bsp_nprocs(), p);

    int pid = bt_pid;
    bsp_end();
    if (pid != 0) {
        fprintf(stderr, "bsp process %d returned from bsp_end\n", pid);
        return 3;
    }
    printf("bsp_procs %s: %d of %d processes, ok\n", argv[1], p, avail);
    return 0;
}
