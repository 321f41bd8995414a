/* suites.c -- the table of suites.  Adding a suite is one row here and its
 * own source file; the driver needs no change. */
#include <string.h>

#include "atomics.h"
#include "bench.h"
#include "bspbench.h"
#include "caf_suite.h"
#include "ddt.h"
#include "dyn_suite.h"
#include "ghost.h"
#include "latency.h"
#include "li_suite.h"
#include "mt_suite.h"
#include "multiput.h"
#include "nt_suite.h"
#include "overlap.h"
#include "pingpong.h"
#include "race.h"
#include "sync_suite.h"

static const bench_suite suites[] = {
    {"pingpong",
     "put/get round trips, 2 ranks, every window and sync mode; floors",
     bench_pingpong_run, 1},
    {"latency",
     "OSU-style one-way put/get/acc latency, 2 ranks, windows x syncs",
     bench_latency_run, 1},
    {"multiput",
     "one buffer as k = 1..16 puts in one epoch vs one put, 2 ranks",
     bench_multiput_run, 1},
    {"sync",
     "cost of an empty epoch per sync mode and of a barrier, 1-4 ranks",
     bench_sync_run, 0},
    {"overlap",
     "passive put/get latency while the target computes vs sleeps, 2 ranks",
     bench_overlap_run, 0},
    {"atomics",
     "atomic latency (fop, cas) and accumulate bandwidth, 2 or more ranks",
     bench_atomics_run, 0},
    {"ddt",
     "DDTBench layouts: typed put vs pack+put+unpack vs contiguous, 2 ranks",
     bench_ddt_run, 0},
    {"ghost",
     "ghost-area exchange on a 2-D grid: one-sided / point-to-point, P ranks",
     bench_ghost_run, 1},
    /* Seed 003's suites, written once with li.h (li_suite.h). */
    {"as",
     "sync, barrier, small exchanges, h-relations and BSP g and L, P ranks",
     bench_li_run, 1},
    {"mult",
     "Cannon matrix multiply with put, get and send; speedups, square P",
     bench_li_run, 1},
    {"rdx",
     "parallel radix sort: put, put_opt and send versions, speedups, P ranks",
     bench_li_run, 1},
    /* BSPlib on orma, as Bisseling's bspbench measures a BSP library. */
    {"bspbench",
     "BSPlib h-relations of 1-word bsp_put/bsp_hpput: g, L; empty bsp_sync",
     bench_bspbench_run, 0},
    /* Coarray Fortran (seed 002): liborma-caf beside OpenCoarrays. */
    {"caf",
     "coarrays: put/get, Himeno, PRK kernels: liborma-caf vs OpenCoarrays and MPI, P images",
     bench_caf_run, 1},
    /* Dynamic processes (seed 000): spawned and connected teams. */
    {"dynamic",
     "time to spawn 1-4 ranks and to connect; put/get on static, spawned, connected teams, 2 ranks",
     bench_dynamic_run, 1},
    /* Threads (MPI_THREAD_MULTIPLE): orma-bench joins with
     * orma_init_thread for it alone (bench_suite_threads). */
    {"mt",
     "message rate of 8-byte put/get/fop + flush from 1, 2, 4 threads to a passive target, 2 ranks",
     bench_mt_run, 1},
    /* Notified access: orma_put_notify against put + flush + flag and
     * MPI's messages. */
    {"notify",
     "notified put: 8-byte one-way vs the cache line, a pipeline, ghost exchange; vs flag and MPI, 2 or P ranks",
     bench_notify_run, 1},
    /* The race checker's cost: ghost and pingpong on windows checked
     * (orma_check_race) and not, paired in one job. */
    {"race",
     "race checker's cost: ghost and pingpong on checked vs unchecked windows, paired rounds, 16 B-64 KB, 2 or P ranks",
     bench_race_run, 0},
};

int bench_suite_threads(const char *name)
{
    return name != NULL && strcmp(name, "mt") == 0;
}

const bench_suite *bench_suite_at(int i)
{
    if (i < 0 || (size_t)i >= sizeof suites / sizeof suites[0])
        return NULL;
    return &suites[i];
}

const bench_suite *bench_suite_find(const char *name)
{
    for (int i = 0; bench_suite_at(i) != NULL; i++)
        if (strcmp(bench_suite_at(i)->name, name) == 0)
            return bench_suite_at(i);
    return NULL;
}
