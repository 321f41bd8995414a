/* main.c -- orma-bench: join the job, pick the suite, parse the shared
 * options, run the suite, leave the job.
 *
 *   orma-run -n P orma-bench SUITE [options]
 *   orma-bench list
 *
 * Exit status: 0 when every measured transfer verified, 1 when data did not
 * verify or the library failed, 2 for usage errors (including --help). */
#include <stdio.h>
#include <string.h>

#include <orma.h>

#include "bench.h"
#include "ctl.h"
#include "report.h"

static void usage(FILE *f)
{
    fputs("usage: orma-run -n P orma-bench SUITE [options]\n"
          "       orma-bench list\n"
          "\n"
          "options:\n"
          "  --sizes LIST   message sizes, e.g. 8,64,1K,1M,4M (K=1024, M=1024K);\n"
          "                 default 8 B and 16 B..4 MB in powers of 4\n"
          "                 (--quick: 8,1K,64K,1M,4M; ghost: 16,64,256,1K,16K,\n"
          "                 64K,256K, --quick too)\n"
          "  --reps N       repetitions per data point; default: as many as fit\n"
          "                 in ~0.1 s (--quick: ~0.02 s), at least 10, after\n"
          "                 uncounted warm-up repetitions\n"
          "  --json FILE    append one JSON object per result to FILE\n"
          "  --quick        fewer sizes, shorter points\n"
          "  --window LIST  only these windows (pingpong: allocate, create,\n"
          "                 create_allocmem, dynamic, shared; overlap: the\n"
          "                 same, default allocate,create; atomics: the same,\n"
          "                 default allocate; ddt: the same, default\n"
          "                 allocate; sync, ghost: allocate)\n"
          "  --op LIST      only these operations (pingpong: put, get,\n"
          "                 cacheline, memcpy, cma, xcopy, cma_rt, and, only\n"
          "                 when named, acc, gacc, fop, cas; sync: epoch,\n"
          "                 barrier; atomics: fop, cas, fop_cont, acc, memcpy;\n"
          "                 ddt: typed_put, pack_put_unpack, contig_put)\n"
          "  --sync LIST    only these synchronization modes (pingpong:\n"
          "                 fence, pscw, lock, lock_all, flush, default all;\n"
          "                 sync: the same and none, the barrier row;\n"
          "                 atomics: flush, lk_flush, fence, lock_ex, lock_sh;\n"
          "                 ghost: p2p, fence, pscw, lock)\n"
          "  --backends LIST\n"
          "                 pingpong and ghost: orma (default), mpi-rma (the\n"
          "                 host MPI's one-sided calls), mpi-p2p (MPI_Send/\n"
          "                 MPI_Recv ping-pong; ghost: isend/irecv), orma-mpi\n"
          "                 (mpi-rma's program with liborma-mpi preloaded); the\n"
          "                 MPI backends run on every host MPI of the build\n"
          "                 (Open MPI, MPICH), and side-by-side tables follow\n"
          "                 (ghost: one-sided / point-to-point ratios)\n"
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
    if (opts.backends != NULL && strcmp(opts.backends, "orma") != 0 &&
        strcmp(suite->name, "pingpong") != 0 &&
        strcmp(suite->name, "ghost") != 0) {
        if (rank == 0)
            fprintf(stderr, "orma-bench: %s: --backends: only pingpong and "
                    "ghost have other backends than orma\n", suite->name);
        return BENCH_USAGE;
    }
    if (!joined)
        return BENCH_FAIL;

    bench_ctx ctx = {suite->name, &opts, NULL, rank, size};
    if (bench_ctl_open(&ctx.ctl) != 0)
        return BENCH_FAIL;
    int st = BENCH_FAIL;
    if (bench_report_open(&ctx) == 0) {
        st = suite->run(&ctx);
        bench_report_close();
    }
    bench_ctl_close(&ctx.ctl);
    return st;
}

int main(int argc, char **argv)
{
    /* Join first, so that with several ranks only rank 0 prints usage; if
     * joining fails, --help and list still work as a lone process. */
    int rc = orma_init(&argc, &argv);
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
