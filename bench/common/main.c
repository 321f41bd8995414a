/* main.c -- orma-bench: join the job, pick the suite, parse the shared
 * options, run the suite, leave the job.
 *
 *   orma-run -n P orma-bench SUITE [options]
 *   orma-bench list
 *   orma-bench report RESULTS... --out DIR   (report_cmd.h: no job)
 *
 * Exit status: 0 when every measured transfer verified, 1 when data did not
 * verify or the library failed, 2 for usage errors (including --help). */
#include <stdio.h>
#include <string.h>

#include <orma.h>

#include "bench.h"
#include "contend.h"
#include "ctl.h"
#include "report.h"
#include "report_cmd.h"

static void usage(FILE *f)
{
    fputs("usage: orma-run -n P orma-bench SUITE [options]\n"
          "       orma-bench list\n"
          "       orma-bench report RESULTS... --out DIR [--no-plots]\n"
          "                 RESULTS (--json or --csv files) as DIR/report.md\n"
          "                 with PNG plots (matplotlib, installed from PyPI\n"
          "                 on first use); orma-bench report --help\n"
          "\n"
          "options:\n"
          "  --sizes LIST   message sizes, e.g. 8,64,1K,1M,4M (K=1024, M=1024K);\n"
          "                 default 8 B and 16 B..4 MB in powers of 4\n"
          "                 (--quick: 8,1K,64K,1M,4M; ghost: 16,64,256,1K,16K,\n"
          "                 64K,256K, --quick too; as: bytes per pair of its\n"
          "                 total exchange, 4P, 8P, ... 256K, --quick 4P,\n"
          "                 16P, ... 64K; multiput: 64 B..4 MB in powers of\n"
          "                 4, --quick: 64,1K,16K,256K,1M; mult: the matrix\n"
          "                 order n, 320,640, --quick 64,160, rounded up to\n"
          "                 multiples of sqrt(P); rdx: key counts,\n"
          "                 960K,3840K, --quick 60K,960K; bspbench: h, the\n"
          "                 8-byte words per process of an h-relation, h = 0\n"
          "                 always, default 1..16,32,48,...,256, --quick\n"
          "                 1,2,4,...,256; notify: the pipeline's item sizes,\n"
          "                 default as above, and the ghost exchange's,\n"
          "                 default ghost's; race: 16,64,...,64K in powers\n"
          "                 of 4, --quick 16,1K,16K,64K)\n"
          "  --reps N       repetitions per data point; default: as many as fit\n"
          "                 in ~0.1 s (--quick: ~0.02 s), at least 10, after\n"
          "                 uncounted warm-up repetitions (mt, notify, race:\n"
          "                 rounds, default 15, 20, 20, --quick 5, 8, 8)\n"
          "  --json FILE    append one JSON object per result to FILE\n"
          "  --csv FILE     append one CSV row per result to FILE (a header\n"
          "                 line first when FILE is new)\n"
          "  --quick        fewer sizes, shorter points\n"
          "  --quiet        no progress line (shown on stderr when it is a\n"
          "                 terminal and the run lasts more than a few s)\n"
          "  --window LIST  only these windows (pingpong: allocate, create,\n"
          "                 create_allocmem, dynamic, shared, and, only when\n"
          "                 named, create_fit and stack: a window per point,\n"
          "                 on a malloc'd block of exactly its bytes, on an\n"
          "                 array on the stack (points up to 1M); latency:\n"
          "                 the same and dynamic_allocmem; multiput:\n"
          "                 latency's, default allocate,create; overlap:\n"
          "                 pingpong's first five, default allocate,create;\n"
          "                 atomics: the same, default allocate; ddt: the\n"
          "                 same and create_private (memory orma never\n"
          "                 maps), default allocate,create,create_private;\n"
          "                 sync, ghost, as, mult, rdx: allocate;\n"
          "                 bspbench: registered, allocate: orma's fence)\n"
          "  --op LIST      only these operations (pingpong: put, get,\n"
          "                 cacheline, memcpy, cma, xcopy, cma_rt, and, only\n"
          "                 when named, acc, gacc, fop, cas; latency: put,\n"
          "                 get, acc; multiput: put1, put2, put4, put8,\n"
          "                 put16, k puts per epoch; sync: epoch, barrier;\n"
          "                 atomics: fop, cas, fop_cont, acc, memcpy; ddt:\n"
          "                 typed_put, pack_put_unpack, contig_put; as: empty,\n"
          "                 barrier, comp, full, simple, scatter, xchg, memcpy;\n"
          "                 mult: put, get, send; rdx: put, put_opt, send;\n"
          "                 bspbench: put, hpput, empty, memcpy; notify:\n"
          "                 pingpong, pipeline, ghost; race: ghost, and\n"
          "                 pingpong's put, get (2 ranks))\n"
          "  --sync LIST    only these synchronization modes (pingpong:\n"
          "                 fence, pscw, lock, lock_all, flush, default all;\n"
          "                 latency: the same and flush_local; multiput:\n"
          "                 fence, pscw, lock, flush; sync: pingpong's and\n"
          "                 none, the barrier row; atomics: flush, lk_flush,\n"
          "                 fence, lock_ex, lock_sh; ghost: p2p, fence, pscw,\n"
          "                 lock, notify (orma's notified puts); as, mult,\n"
          "                 rdx: fence, p2p; bspbench:\n"
          "                 bsp_sync, fence: orma's empty epoch; notify:\n"
          "                 notify, flag (put + flush + a flag), p2p, and\n"
          "                 ghost's fence, pscw, lock; race: fence, pscw,\n"
          "                 lock, lock_all, flush, notify -- ghost's and\n"
          "                 pingpong's, each part those it has)\n"
          "  --backends LIST\n"
          "                 pingpong, latency, multiput, ghost, as, mult, rdx,\n"
          "                 notify:\n"
          "                 orma (default), mpi-rma (the host MPI's one-sided\n"
          "                 calls), mpi-p2p (MPI_Send/MPI_Recv ping-pong;\n"
          "                 ghost: isend/irecv; as, mult, rdx: irecv/send),\n"
          "                 orma-mpi (mpi-rma's program with liborma-mpi\n"
          "                 preloaded); as, mult, rdx also bsp (BSPlib on\n"
          "                 orma: bsp_hpput, bsp_hpget, bsp_sync) and\n"
          "                 bsp-buffered (bsp_put, bsp_get); the MPI backends\n"
          "                 run on every host MPI of the build (Open MPI,\n"
          "                 MPICH), and side-by-side tables and a summary\n"
          "                 follow (ghost: one-sided /\n"
          "                 point-to-point ratios; as: BSP g and L; mult:\n"
          "                 speedups over the serial time; rdx: speedups\n"
          "                 over a sequential sort)\n"
          "  --net          the MPI backends between nodes, as it were: the\n"
          "                 host MPIs over TCP alone (Open MPI: ob1, tcp and\n"
          "                 osc pt2pt; MPICH: UCX over TCP, no shared memory),\n"
          "                 orma-mpi with ORMA_TRANSPORT=net over the same;\n"
          "                 shared windows left out\n"
          "  --unpaired     latency, multiput: mpi-rma and orma-mpi in\n"
          "                 separate MPI jobs, minutes apart; by default,\n"
          "                 with both named, they are measured paired in\n"
          "                 one job per host MPI (liborma-mpi preloaded,\n"
          "                 mpi-rma calling the host's own functions), their\n"
          "                 batches alternating within every point\n"
          "  --contend      rank 0 starts two busy-loop processes per online\n"
          "                 CPU (unpinned, normal priority, spinning on\n"
          "                 arithmetic) before the first point and kills them\n"
          "                 after the last, so that every rank competes for\n"
          "                 its core as on a busy machine; the MPI backends'\n"
          "                 jobs run meanwhile (they start none of their own);\n"
          "                 every result is labelled (table: a load column;\n"
          "                 --json: \"load\":\"contend\"; --csv: a header with a\n"
          "                 load column, so a contended run never appends to\n"
          "                 an uncontended run's file)\n"
          "  --threads LIST mt: the origin's thread counts (default 1,2,4;\n"
          "                 --window sep,shared, --op put,get,fop, --backends\n"
          "                 orma, mpi-rma, orma-mpi)\n"
          "  --help         this text\n"
          "\n"
          "suites:\n", f);
    for (int i = 0; bench_suite_at(i) != NULL; i++)
        fprintf(f, "  %-10s %s\n", bench_suite_at(i)->name,
                bench_suite_at(i)->help);
}

static int list_suites(void)
{
    for (int i = 0; bench_suite_at(i) != NULL; i++)
        printf("%-10s %s\n", bench_suite_at(i)->name, bench_suite_at(i)->help);
    return BENCH_OK;
}

/* Everything between joining and leaving the job; rank 0 prints. */
static int dispatch(int argc, char **argv, int joined, int rank, int size)
{
    if (argc < 2) {
        if (rank == 0)
            usage(stderr);
        return BENCH_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        strcmp(name, "help") == 0) {
        if (rank == 0)
            usage(stdout);
        return BENCH_USAGE;
    }
    if (strcmp(name, "list") == 0)
        return rank == 0 ? list_suites() : BENCH_OK;
    const bench_suite *suite = bench_suite_find(name);
    if (suite == NULL) {
        if (rank == 0) {
            fprintf(stderr, "orma-bench: unknown suite '%s'\n", name);
            usage(stderr);
        }
        return BENCH_USAGE;
    }
    bench_opts opts;
    char err[160];
    int pr = bench_opts_parse(argc, argv, 2, &opts, err, sizeof err);
    if (pr != 0) {
        if (rank == 0) {
            if (pr < 0)
                fprintf(stderr, "orma-bench: %s\n", err);
            usage(pr < 0 ? stderr : stdout);
        }
        return BENCH_USAGE;
    }
    if (opts.backends != NULL && !suite->mpi_backends &&
        strcmp(opts.backends, "orma") != 0) {
        if (rank == 0)
            fprintf(stderr, "orma-bench: %s: --backends: only pingpong, "
                    "latency, multiput, ghost, as, mult, rdx, caf, dynamic, mt and notify have "
                    "other backends than orma\n", suite->name);
        return BENCH_USAGE;
    }
    if (!joined)
        return BENCH_FAIL;

    bench_ctx ctx = {suite->name, &opts, NULL, rank, size};
    if (bench_ctl_open(&ctx.ctl) != 0)
        return BENCH_FAIL;
    int st = BENCH_FAIL;
    /* The busy loops start before the first point, on rank 0 only (a rank
     * per core would multiply them), and stop after the last. */
    int contend_ok = !opts.contend || rank != 0 || bench_contend_start() >= 0;
    if (bench_ctl_all_ok(ctx.ctl, contend_ok) && bench_report_open(&ctx) == 0) {
        if (opts.contend && rank == 0)
            bench_note("--contend: %d busy-loop processes (%d per online CPU) "
                       "run while this run measures", bench_contend_count(),
                       BENCH_CONTEND_PER_CPU);
        st = suite->run(&ctx);
        bench_report_close();
    }
    bench_contend_stop();
    bench_ctl_close(&ctx.ctl);
    return st;
}

int main(int argc, char **argv)
{
    /* A report reads files: no job to join, nothing shared to create. */
    if (argc >= 2 && strcmp(argv[1], "report") == 0)
        return bench_report_command(argc, argv);
    /* Join first, so that with several ranks only rank 0 prints usage; if
     * joining fails, --help and list still work as a lone process. */
    int provided;
    int rc = argc >= 2 && bench_suite_threads(argv[1]) ? orma_init_thread(ORMA_THREAD_MULTIPLE, &provided)
                                                       : orma_init(&argc, &argv);
    int joined = rc == ORMA_SUCCESS;
    int rank = joined ? orma_rank() : 0;
    int size = joined ? orma_size() : 1;
    int st = dispatch(argc, argv, joined, rank, size);
    if (joined) {
        rc = orma_finalize();
        if (rc != ORMA_SUCCESS && st == BENCH_OK) {
            fprintf(stderr, "orma-bench: rank %d: orma_finalize: %s\n", rank,
                    orma_error_message());
            st = BENCH_FAIL;
        }
    } else if (st == BENCH_FAIL) {
        fprintf(stderr, "orma-bench: orma_init: %s: %s\n", orma_strerror(rc),
                orma_error_message());
    }
    fflush(stdout);
    return st;
}
