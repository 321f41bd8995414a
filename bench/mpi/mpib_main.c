/* mpib_main.c -- orma-bench-mpi-<variant> (mpib.h): join MPI, parse the
 * suite and its options, check what serves the one-sided calls, run the
 * backends asked for.  orma-bench starts it (pingpong, latency, multiput
 * and ghost --backends); it runs on its own as well:
 *
 *   mpirun -n 2 orma-bench-mpi-openmpi --backends mpi-rma,mpi-p2p --quick
 *   mpirun -n 2 -x LD_PRELOAD=liborma-mpi-openmpi.so \
 *          orma-bench-mpi-openmpi latency --backends orma-mpi --quick
 *   mpirun -n 2 -x LD_PRELOAD=liborma-mpi-openmpi.so \
 *          orma-bench-mpi-openmpi latency --backends mpi-rma,orma-mpi
 *   mpirun -n 4 orma-bench-mpi-openmpi ghost --backends mpi-rma,mpi-p2p
 *   mpirun -n 4 orma-bench-mpi-openmpi as --backends mpi-rma,mpi-p2p */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "bind.h"
#include "ghost_def.h"
#include "lat_def.h"
#include "mpib.h"
#include "mpib_win.h"
#include "multiput_def.h"

static const char *const backends[] = {"mpi-rma", "orma-mpi", "mpi-p2p",
                                       NULL};
static const char *const ops[] = {"put", "get", "acc", "gacc", "fop", "cas",
                                  NULL};
static const char *const ghost_windows[] = {"allocate", NULL};
static const char *const ghost_ops[] = {NULL};
static const char *const li_windows[] = {"allocate", NULL};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: mpirun -n 2 orma-bench-mpi-%s [SUITE] [--backends LIST] "
        "[options]\n"
        "       mpirun -n P orma-bench-mpi-%s ghost [--backends LIST] "
        "[options]\n"
        "       mpirun -n P orma-bench-mpi-%s as [--backends LIST] "
        "[options]\n"
        "\n"
        "orma-bench's pingpong round trips (SUITE pingpong, the default),\n"
        "latency loops (SUITE latency), the same with a put made of k puts\n"
        "(SUITE multiput), ghost-area exchange (SUITE ghost, --sync p2p,\n"
        "fence, pscw, lock) or the suites written with its\n"
        "library-independent calls (li.h; SUITE as, P ranks: --sync fence\n"
        "for the one-sided backends, p2p for mpi-p2p) with plain MPI calls,\n"
        "on %s.\n"
        "  --backends LIST  mpi-rma (default): the host MPI's one-sided;\n"
        "                   orma-mpi: the same with liborma-mpi preloaded;\n"
        "                   mpi-p2p: MPI_Send/MPI_Recv ping-pong (ghost:\n"
        "                   MPI_Isend/MPI_Irecv); latency, multiput:\n"
        "                   mpi-rma,orma-mpi with liborma-mpi preloaded\n"
        "                   measures both, paired (mpi-rma calls the\n"
        "                   host's PMPI_ functions)\n"
        "  --op LIST        pingpong: put, get (default), acc, gacc, fop,\n"
        "                   cas; latency: put, get, acc (default all)\n"
        "  --window LIST, --sync LIST, --sizes LIST, --reps N, --json FILE,\n"
        "  --quick, --quiet as orma-bench's (orma-bench --help); no --csv:\n"
        "                   orma-bench pingpong --backends ... --csv FILE\n"
        "\n"
        "Rows are reported as <backend>/%s.  Exit status: 0, 1 when data\n"
        "did not verify, 2 for usage errors.\n",
        MPIB_VARIANT, MPIB_VARIANT, MPIB_VARIANT, MPIB_VARIANT,
        MPIB_VARIANT);
}

int mpib_served_by_orma(const char **lib_p)
{
    Dl_info info;
    void *put = (void *)MPI_Put;
    if (dladdr(put, &info) == 0 || info.dli_fname == NULL) {
        *lib_p = "(unknown)";
        return 0;
    }
    const char *slash = strrchr(info.dli_fname, '/');
    *lib_p = slash != NULL ? slash + 1 : info.dli_fname;
    return strstr(*lib_p, "liborma-mpi") != NULL;
}

/* The rows' backends of this job (mpib_ctx): rma mpi-rma/<variant> or
 * orma-mpi/<variant>, pair orma-mpi/<variant> beside mpi-rma, p2p
 * mpi-p2p/<variant>. */
typedef struct backend_names {
    char rma[64], pair[64], p2p[64];
} backend_names;

/* The backends' names against what this run is, and the MPI functions
 * each calls (mpib_fns.h): mpi-rma's latency and multiput the host's
 * (*host_lib: its library), everything else the linked ones.  A BENCH_*
 * status: BENCH_FAIL when the functions are not whose they must be. */
static int check_backends(const bench_opts *o, const char *suite, int rank,
                          mpib_ctx *ctx, backend_names *nm,
                          const char **host_lib)
{
    char bad[64];
    if (bench_list_check(o->backends, backends, bad, sizeof bad) != 0) {
        if (rank == 0)
            fprintf(stderr, "orma-bench-mpi-%s: unknown backend '%s' "
                    "(mpi-rma, orma-mpi, mpi-p2p)\n", MPIB_VARIANT, bad);
        return BENCH_USAGE;
    }
    int want_orma = o->backends != NULL &&
                    bench_list_has(o->backends, "orma-mpi");
    int want_host = o->backends == NULL ||
                    bench_list_has(o->backends, "mpi-rma");
    /* The suites whose calls go through a table (mpib_lat.c). */
    int tables = strcmp(suite, "latency") == 0 ||
                 strcmp(suite, "multiput") == 0;
    const char *lib;
    int orma = mpib_served_by_orma(&lib);
    if (want_orma && want_host && !(tables && orma)) {
        if (rank == 0)
            fprintf(stderr, "orma-bench-mpi-%s: mpi-rma and orma-mpi in one "
                    "job: only latency and multiput, with liborma-mpi "
                    "preloaded (else separate runs)\n", MPIB_VARIANT);
        return BENCH_USAGE;
    }
    if ((want_orma && !orma) || (want_host && !want_orma && orma)) {
        fprintf(stderr, "orma-bench-mpi-%s: rank %d: backend %s, but "
                "MPI_Put is served by %s%s\n", MPIB_VARIANT, rank,
                want_orma ? "orma-mpi" : "mpi-rma", lib,
                want_orma ? " (preload liborma-mpi)" : "");
        return BENCH_USAGE;
    }
    if (want_orma && !mpib_fns_in_orma(&mpib_fns_linked, rank))
        return BENCH_FAIL;
    const mpib_fns *host = &mpib_fns_linked;
    if (want_host && tables && (host = mpib_fns_host(rank, host_lib)) == NULL)
        return BENCH_FAIL;
    if (want_host) {
        snprintf(nm->rma, sizeof nm->rma, "mpi-rma/%s", MPIB_VARIANT);
        ctx->rma_backend = nm->rma;
        ctx->rma_fns = host;
    }
    if (want_orma) {
        char *name = want_host ? nm->pair : nm->rma;
        snprintf(name, sizeof nm->rma, "orma-mpi/%s", MPIB_VARIANT);
        if (want_host) {
            ctx->pair_backend = name;
            ctx->pair_fns = &mpib_fns_linked;
        } else {
            ctx->rma_backend = name;
            ctx->rma_fns = &mpib_fns_linked;
        }
    }
    if (o->backends != NULL && bench_list_has(o->backends, "mpi-p2p")) {
        snprintf(nm->p2p, sizeof nm->p2p, "mpi-p2p/%s", MPIB_VARIANT);
        ctx->p2p_backend = nm->p2p;
    }
    return BENCH_OK;
}

/* The suites and the --window, --op and --sync names each knows. */
typedef struct suite_names {
    const char *name;
    const char *const *known[3]; /* windows, ops, syncs */
} suite_names;

static const suite_names suites[] = {
    {"pingpong", {pp_window_kinds, ops, pp_sync_names}},
    {"latency", {lat_window_kinds, lat_op_names, lat_sync_names}},
    {"multiput", {lat_window_kinds, multiput_op_names, multiput_sync_names}},
    {"ghost", {ghost_windows, ghost_ops, ghost_sync_names}},
    {NULL, {NULL, NULL, NULL}},
};

static const suite_names *suite_find(const char *name)
{
    for (const suite_names *s = suites; s->name != NULL; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static int check_filters(const bench_opts *o, int rank,
                         const char *const *const *known)
{
    const char *lists[3] = {o->windows, o->ops, o->syncs};
    const char *what[3] = {"window", "op", "sync"};
    char bad[64];
    for (int i = 0; i < 3; i++) {
        if (bench_list_check(lists[i], known[i], bad, sizeof bad) == 0)
            continue;
        if (rank == 0)
            fprintf(stderr, "orma-bench-mpi-%s: unknown %s '%s'\n",
                    MPIB_VARIANT, what[i], bad);
        return -1;
    }
    return 0;
}

/* Everything between MPI_Init and MPI_Finalize. */
static int run(int argc, char **argv, int rank, int size)
{
    const char *suite = "pingpong";
    int first = 1;
    if (argc > 1 && strncmp(argv[1], "-", 1) != 0) {
        suite = argv[1];
        first = 2;
    }
    /* orma-bench notify's job: its own arguments (nt_jobs.c) */
    if (strcmp(suite, "notify") == 0)
        return mpib_notify_main(argc - 2, argv + 2, rank, size);
    /* A suite written with li.h (mpib_li.c), or one of this program's. */
    const li_suite *li = mpib_li_find(suite);
    const suite_names *names = li == NULL ? suite_find(suite) : NULL;
    if (li == NULL && names == NULL) {
        if (rank == 0) {
            fprintf(stderr, "orma-bench-mpi-%s: unknown suite '%s' "
                    "(pingpong, latency, multiput, ghost", MPIB_VARIANT,
                    suite);
            for (int i = 0; mpib_li_at(i) != NULL; i++)
                fprintf(stderr, ", %s", mpib_li_at(i)->name);
            fprintf(stderr, ")\n");
            usage(stderr);
        }
        return BENCH_USAGE;
    }
    int latency = strcmp(suite, "latency") == 0;
    int multiput = strcmp(suite, "multiput") == 0;
    int ghost = strcmp(suite, "ghost") == 0;
    bench_opts opts;
    char err[160];
    int pr = bench_opts_parse(argc, argv, first, &opts, err, sizeof err);
    if (pr != 0) {
        if (rank == 0) {
            if (pr < 0)
                fprintf(stderr, "orma-bench-mpi-%s: %s\n", MPIB_VARIANT, err);
            usage(pr < 0 ? stderr : stdout);
        }
        return BENCH_USAGE;
    }
    if (opts.csv_path != NULL) {
        if (rank == 0)
            fprintf(stderr, "orma-bench-mpi-%s: no --csv here: orma-bench "
                    "pingpong --backends ... --csv FILE writes these rows\n",
                    MPIB_VARIANT);
        return BENCH_USAGE;
    }
    if (ghost)
        ghost_default_sizes(&opts);
    if (multiput)
        multiput_default_options(&opts);
    if (li != NULL && !opts.sizes_given && li->sizes != NULL)
        li->sizes(&opts, size);
    if (!ghost && li == NULL && size != 2) {
        if (rank == 0)
            fprintf(stderr, "orma-bench-mpi-%s: needs exactly 2 ranks, not "
                    "%d\n", MPIB_VARIANT, size);
        return BENCH_USAGE;
    }
    mpib_ctx ctx = {suite, &opts, rank, NULL, NULL, size, NULL, NULL, NULL};
    backend_names nm;
    const char *host_lib = NULL;
    const char *const *li_names[3] = {li_windows, NULL, NULL};
    if (li != NULL) {
        li_names[1] = li->ops;
        li_names[2] = li->syncs;
    }
    int ok = check_filters(&opts, rank, li != NULL ? li_names : names->known) == 0;
    if (!mpib_all_ok(ok))
        return BENCH_USAGE;
    /* The worst status of the ranks: a usage error before a failure. */
    int bst = check_backends(&opts, suite, rank, &ctx, &nm, &host_lib);
    MPIB_CHECK(MPI_Allreduce(MPI_IN_PLACE, &bst, 1, MPI_INT, MPI_MAX,
                             MPI_COMM_WORLD));
    if (bst != BENCH_OK)
        return bst;
    if (mpib_report_open(&ctx) != 0)
        return BENCH_FAIL;
    if (ctx.pair_backend != NULL)
        bench_note("%s and %s measured paired in this job: on windows of "
                   "their own, their batches alternating within every "
                   "point", ctx.rma_backend, ctx.pair_backend);
    if (host_lib != NULL)
        bench_note("%s calls the host's functions: PMPI_* of %s (the "
                   "library of MPI_Send) by dlsym on its handle, none in "
                   "liborma-mpi (dladdr)", ctx.rma_backend, host_lib);
    if (latency || multiput || li != NULL) {
        /* As orma-bench's ranks (bind.h); mpirun's own binding, if any,
         * is replaced. */
        cpu_set_t saved;
        int cpu = bench_bind_rank(rank, &saved), lowest;
        MPIB_CHECK(MPI_Allreduce(&cpu, &lowest, 1, MPI_INT, MPI_MIN,
                                 MPI_COMM_WORLD));
        if (lowest < 0)
            bench_note("ranks not pinned: fewer than 2 CPUs allowed");
    }
    /* multiput's send/recv reference is latency's: one message of S
     * bytes, one way (half a round trip). */
    int st = BENCH_OK;
    if (li != NULL)
        st = mpib_li_run(&ctx, li);
    else if (ghost)
        st = mpib_ghost_run(&ctx);
    else if (ctx.rma_backend != NULL)
        st = latency    ? mpib_lat_run(&ctx)
             : multiput ? mpib_multiput_run(&ctx)
                        : mpib_rma_run(&ctx);
    if (li == NULL && !ghost && st == BENCH_OK && ctx.p2p_backend != NULL)
        st = latency || multiput ? mpib_p2p_latency_run(&ctx)
                                 : mpib_p2p_run(&ctx);
    bench_report_close();
    return st;
}

int main(int argc, char **argv)
{
    int rank, size;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "orma-bench-mpi-%s: MPI_Init failed\n", MPIB_VARIANT);
        return BENCH_FAIL;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int st = run(argc, argv, rank, size);
    fflush(stdout);
    MPI_Finalize();
    return st;
}
