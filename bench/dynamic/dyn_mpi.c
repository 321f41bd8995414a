/* dyn_mpi.c -- orma-bench-dynamic-mpi-<mpi>: the dynamic suite's
 * measurements with MPI's own calls (dyn.h), run by orma-bench under the
 * host MPI's mpirun, alone (mpi-rma) or with liborma-mpi preloaded
 * (orma-mpi).  It prints one line per result, which orma-bench reads:
 *   row OP SYNC WINDOW BYTES REPS MIN MEDIAN MAX    (microseconds)
 *   spawned K US           one MPI_Comm_spawn of K processes took US
 *   paired OP SYNC BYTES SPAWNED CONNECTED   the medians of each round's
 *                          ratio of those pairs' batches to the static
 *                          pair's (0: that pair not measured)
 *   skip WHY
 *
 *   spawn K REPS           (-n 1) MPI_Comm_spawn of K processes
 *   pairs SIZES ROUNDS [FILE]   (-n 2) put/get latency between rank 0 and
 *                          rank 1 (static), a spawned rank and, with FILE,
 *                          a rank of another job that connects to the
 *                          port whose name rank 0 writes to FILE (the jobs
 *                          need Open MPI's name server), taking turns
 *   connect SIZES ROUNDS FILE   (-n 1, beside pairs) that job
 * and, started by MPI_Comm_spawn:
 *   child                  connect, disconnect
 *   partner SIZES ROUNDS   the spawned partner of pairs */
#include <mpi.h>

#include "bind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KINDS 3
#define MAX_SIZES 16
#define MAX_BYTES ((size_t)4 << 20)
#define MAX_REPS 256

static const char *const kind_names[KINDS] = {"static", "spawned", "connected"};
enum { PUT_FLUSH, GET_FLUSH, PUT_FENCE, NOPS };
static const char *const op_names[NOPS] = {"put", "get", "put"};
static const char *const op_syncs[NOPS] = {"flush", "flush", "fence"};

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void row(const char *op, const char *sync, const char *window, size_t bytes, double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    printf("row %s %s %s %zu %d %.3f %.3f %.3f\n", op, sync, window, bytes, n, v[0], med, v[n - 1]);
    fflush(stdout);
}

/* The line "paired": the medians of the rounds' own ratios of the
 * spawned and the connected pair's batch to the static one's (0: not
 * measured), as orma-bench's notes give them for orma (dyn_suite.c). */
static void paired(const char *op, const char *sync, size_t bytes, double v[KINDS][MAX_REPS], const MPI_Comm *pair,
                   int n)
{
    double med[KINDS] = {0};
    for (int k = 1; k < KINDS; k++) {
        if (pair[k] == MPI_COMM_NULL || pair[0] == MPI_COMM_NULL)
            continue;
        double r[MAX_REPS];
        for (int i = 0; i < n; i++)
            r[i] = v[k][i] / v[0][i];
        qsort(r, (size_t)n, sizeof *r, cmp);
        med[k] = n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
    }
    printf("paired %s %s %zu %.4f %.4f\n", op, sync, bytes, med[1], med[2]);
}

static long batch_ops(size_t bytes)
{
    long n = (long)((size_t)32 << 20) / (long)bytes; /* as dyn_batch_ops (dyn_pairs.c) */
    return n < 8 ? 8 : n > 20000 ? 20000 : n;
}

static unsigned char byte_at(size_t i, int round) { return (unsigned char)((i * 131 + (size_t)round * 17) % 251); }

/* as dyn_offset (dyn_pairs.c): round r's place in the window's region */
static size_t offset_at(size_t bytes, int round) { return (size_t)round % (MAX_BYTES / bytes) * bytes; }

struct plan {
    size_t sizes[MAX_SIZES];
    int nsizes, rounds;
};

static int parse(struct plan *p, const char *sizes, const char *rounds)
{
    memset(p, 0, sizeof *p);
    p->rounds = atoi(rounds);
    for (const char *s = sizes; *s && p->nsizes < MAX_SIZES;) {
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || !v || v > MAX_BYTES)
            return -1;
        p->sizes[p->nsizes++] = (size_t)v;
        s = *end == ',' ? end + 1 : end;
    }
    return p->nsizes && p->rounds > 0 && p->rounds <= MAX_REPS ? 0 : -1;
}

static void die(const char *what)
{
    fprintf(stderr, "orma-bench-dynamic-mpi: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* MPI_Comm_spawn of k processes, reps times after one uncounted, each
 * call's time on a line of its own as it ends (orma-bench makes the row:
 * Open MPI 4.1.4 here now and then leaves a spawned child stuck in
 * PMIx_Init and the spawn waiting for ever, and it then starts this
 * program again for the calls still missing). */
static void spawn_times(char *self, int k, int reps)
{
    char *args[] = {"child", NULL};
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i <= reps; i++) {
        MPI_Comm inter;
        double t0 = now_us();
        int rc = MPI_Comm_spawn(self, args, k, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE);
        double t = now_us() - t0;
        if (rc != MPI_SUCCESS) {
            char msg[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(rc, msg, &len);
            for (char *c = msg; *c; c++)
                if (*c == '\n')
                    *c = ' ';
            printf("skip MPI_Comm_spawn fails here: %.200s\n", msg);
            return;
        }
        MPI_Comm_disconnect(&inter);
        if (i > 0) {
            printf("spawned %d %.3f\n", k, t);
            fflush(stdout);
        }
    }
}

/* A barrier whose waiters sleep (the host's MPI_Barrier polls a core):
 * the partners between their batches, so that they leave the cores to the
 * pair whose turn it is, as orma's waiting ranks do (dyn_pairs.c).  They
 * look every millisecond: two idle partners looking every 50 us on the
 * active partner's CPU made its fences 1.2-1.35x slower, and not alike
 * for every kind (their MPI_Test costs differ). */
static void idle_barrier(MPI_Comm comm)
{
    MPI_Request req;
    int done = 0;
    MPI_Ibarrier(comm, &req);
    for (;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

#define SETTLE_US 3000

/* One side of the pairs: the origin (rank 0 of each pair) times batches,
 * the partner follows and checks the puts.  kind: the partner's, or -1 at
 * the origin.  The origin is pinned to one CPU and the partners to
 * another; before each batch the origin lets the others settle, then
 * wakes its partner, then both start (dyn_pairs.c says why). */
static int pairs(const struct plan *p, MPI_Comm pair[KINDS], int kind)
{
    MPI_Win win[KINDS];
    unsigned char *mem[KINDS], *buf = malloc(MAX_BYTES);
    int bad = 0;
    cpu_set_t saved; /* bound before the windows are made, as dyn_pairs.c says */
    (void)bench_bind_rank(kind < 0 ? 0 : 1, &saved);
    for (int k = 0; k < KINDS; k++) {
        if (pair[k] == MPI_COMM_NULL)
            continue;
        MPI_Win_allocate((MPI_Aint)(2 * MAX_BYTES), 1, MPI_INFO_NULL, pair[k], &mem[k], &win[k]);
        for (size_t i = 0; i < MAX_BYTES; i++)
            mem[k][MAX_BYTES + i] = byte_at(i, 7);
        MPI_Barrier(pair[k]);
    }
    static double v[3][MAX_SIZES][KINDS][MAX_REPS];
    for (int op = 0; op < NOPS; op++)
        for (int z = 0; z < p->nsizes; z++) {
            size_t bytes = p->sizes[z];
            long ops = batch_ops(bytes);
            for (int r = 0; r < p->rounds; r++)
                for (int t = 0; t < KINDS; t++) {
                    int k = (r + t) % KINDS;
                    if ((kind >= 0 && k != kind) || pair[k] == MPI_COMM_NULL)
                        continue;
                    size_t off = offset_at(bytes, r);
                    if (kind < 0) {
                        struct timespec ts = {0, SETTLE_US * 1000L};
                        nanosleep(&ts, NULL);
                    }
                    idle_barrier(pair[k]);
                    MPI_Barrier(pair[k]);
                    if (kind < 0) {
                        for (size_t i = 0; i < bytes && op != GET_FLUSH; i++)
                            buf[i] = byte_at(i, r);
                        if (op == PUT_FENCE)
                            MPI_Win_fence(0, win[k]);
                        else
                            MPI_Win_lock_all(0, win[k]);
                        double t0 = now_us();
                        for (long i = 0; i < ops; i++) {
                            if (op == GET_FLUSH)
                                MPI_Get(buf, (int)bytes, MPI_BYTE, 1, (MPI_Aint)(MAX_BYTES + off), (int)bytes,
                                        MPI_BYTE, win[k]);
                            else
                                MPI_Put(buf, (int)bytes, MPI_BYTE, 1, (MPI_Aint)off, (int)bytes, MPI_BYTE, win[k]);
                            if (op == PUT_FENCE)
                                MPI_Win_fence(0, win[k]);
                            else
                                MPI_Win_flush(1, win[k]);
                        }
                        v[op][z][k][r] = (now_us() - t0) / (double)ops;
                        if (op == PUT_FENCE)
                            MPI_Win_fence(0, win[k]);
                        else
                            MPI_Win_unlock_all(win[k]);
                        for (size_t i = 0; i < bytes && op == GET_FLUSH; i++)
                            bad |= buf[i] != byte_at(off + i, 7);
                    } else if (op == PUT_FENCE) {
                        for (long i = 0; i < ops + 2; i++)
                            MPI_Win_fence(0, win[k]);
                    }
                    MPI_Barrier(pair[k]);
                    if (kind >= 0 && op != GET_FLUSH) {
                        MPI_Win_sync(win[k]);
                        for (size_t i = 0; i < bytes; i++)
                            bad |= mem[k][off + i] != byte_at(i, r);
                    }
                    MPI_Barrier(pair[k]);
                }
        }
    bench_bind_restore(&saved);
    for (int k = 0; k < KINDS; k++) {
        if (pair[k] == MPI_COMM_NULL)
            continue;
        int all = 0;
        MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_LOR, pair[k]);
        bad |= all;
        MPI_Win_free(&win[k]);
    }
    if (kind < 0 && !bad)
        for (int op = 0; op < NOPS; op++)
            for (int z = 0; z < p->nsizes; z++) {
                paired(op_names[op], op_syncs[op], p->sizes[z], v[op][z], pair, p->rounds);
                for (int k = 0; k < KINDS; k++)
                    if (pair[k] != MPI_COMM_NULL)
                        row(op_names[op], op_syncs[op], kind_names[k], p->sizes[z], v[op][z][k], p->rounds);
            }
    free(buf);
    return bad;
}

/* The connecting job's side: the port name in file, once it is there
 * ("skip": the other side could not open one). */
static void read_port(const char *file, char *port)
{
    for (int tries = 0; tries < 12000; tries++) {
        FILE *f = fopen(file, "r");
        if (f) {
            int ok = fgets(port, MPI_MAX_PORT_NAME, f) && strchr(port, '\n');
            fclose(f);
            if (ok) {
                port[strcspn(port, "\n")] = '\0';
                return;
            }
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    die("no port name within a minute");
}

/* The accepting side (the pairs job): rank 0 opens a port and names it in
 * file; 1 with the intercommunicator, 0 when no port could be opened. */
static int accept_other(const char *file, MPI_Comm *inter)
{
    char port[MPI_MAX_PORT_NAME] = "skip";
    int rank, ok = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        ok = MPI_Open_port(MPI_INFO_NULL, port) == MPI_SUCCESS;
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", file);
        FILE *f = fopen(tmp, "w");
        if (!f || fprintf(f, "%s\n", ok ? port : "skip") < 0 || fclose(f) || rename(tmp, file))
            die("cannot write the port's name");
        if (!ok)
            printf("skip MPI_Open_port fails here: the connected pair is not measured\n");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok)
        return 0;
    if (MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter) != MPI_SUCCESS)
        die("MPI_Comm_accept failed");
    if (rank == 0)
        MPI_Close_port(port);
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 2)
        die("usage: spawn K REPS | pairs SIZES ROUNDS [FILE] | connect SIZES ROUNDS FILE");
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm parent, inter, merged, pair[KINDS] = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL};
    MPI_Comm_get_parent(&parent);
    struct plan p;
    int bad = 0;
    if (!strcmp(argv[1], "spawn") && argc == 4) {
        int k = atoi(argv[2]), reps = atoi(argv[3]);
        if (k < 1 || k > 64)
            die("bad number of processes to spawn");
        spawn_times(argv[0], k, reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps);
    } else if (!strcmp(argv[1], "child") && parent != MPI_COMM_NULL) {
        MPI_Comm_disconnect(&parent);
    } else if (!strcmp(argv[1], "pairs") && (argc == 4 || argc == 5) && size == 2) {
        if (parse(&p, argv[2], argv[3]))
            die("bad sizes or rounds");
        char *args[] = {"partner", argv[2], argv[3], NULL};
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        if (MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE) !=
            MPI_SUCCESS) {
            if (rank == 0)
                printf("skip MPI_Comm_spawn fails here: the spawned pair is not measured\n");
            MPI_Finalize();
            return 0;
        }
        MPI_Intercomm_merge(inter, 0, &merged);
        MPI_Comm_dup(MPI_COMM_WORLD, &pair[0]);
        MPI_Comm_split(merged, rank == 0 ? 0 : MPI_UNDEFINED, 0, &pair[1]); /* with the child, below */
        MPI_Comm cinter = MPI_COMM_NULL, cmerged = MPI_COMM_NULL;
        if (argc == 5 && accept_other(argv[4], &cinter)) {
            MPI_Intercomm_merge(cinter, 0, &cmerged);
            MPI_Comm_split(cmerged, rank == 0 ? 0 : MPI_UNDEFINED, 0, &pair[2]);
        }
        if (rank == 0)
            bad = pairs(&p, pair, -1);
        else
            bad = pairs(&p, pair, 0);
        MPI_Comm_free(&merged);
        MPI_Comm_disconnect(&inter);
        if (cinter != MPI_COMM_NULL) {
            MPI_Comm_free(&cmerged);
            MPI_Comm_disconnect(&cinter);
        }
    } else if (!strcmp(argv[1], "connect") && argc == 5) {
        if (parse(&p, argv[2], argv[3]))
            die("bad sizes or rounds");
        char port[MPI_MAX_PORT_NAME];
        read_port(argv[4], port);
        if (strcmp(port, "skip")) {
            if (MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter) != MPI_SUCCESS)
                die("MPI_Comm_connect failed");
            MPI_Intercomm_merge(inter, 1, &merged);
            MPI_Comm_split(merged, 0, 1, &pair[2]);
            bad = pairs(&p, pair, 2);
            MPI_Comm_free(&merged);
            MPI_Comm_disconnect(&inter);
        }
    } else if (!strcmp(argv[1], "partner") && argc == 4 && parent != MPI_COMM_NULL) {
        if (parse(&p, argv[2], argv[3]))
            die("bad sizes or rounds");
        MPI_Intercomm_merge(parent, 1, &merged);
        MPI_Comm_split(merged, 0, 1, &pair[1]);
        bad = pairs(&p, pair, 1);
        MPI_Comm_free(&merged);
        MPI_Comm_disconnect(&parent);
    } else {
        die("unknown mode");
    }
    if (bad)
        fprintf(stderr, "orma-bench-dynamic-mpi: a transfer did not verify\n");
    for (int k = 0; k < KINDS; k++)
        if (pair[k] != MPI_COMM_NULL)
            MPI_Comm_free(&pair[k]);
    MPI_Finalize();
    return bad;
}
