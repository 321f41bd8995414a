/* mpib_p2p.c -- the mpi-p2p backend: a ping-pong with MPI_Send and
 * MPI_Recv, the point-to-point reference of the put round trip, at the
 * same sizes and with the same repetition policy (pp_def.h, reps.h).  One
 * repetition, timed on rank 0: rank 0 sends n bytes of its buffer to
 * rank 1, rank 1 receives them and sends them back, rank 0 receives them.
 * Rows: op "sendrecv", sync and window "none"; mbps counts 2 x n.
 *
 * As for put: up to PP_BATCH_MAX bytes a repetition is a batch of PP_BATCH
 * round trips, rank 0 filling a fresh pattern before each and checking
 * the echo after it inside the timed loop; after every repetition both
 * ranks check what they received, then the next data is made and a
 * barrier settles (where orma's put settles with win_sync + barrier).
 *
 * The latency suite's reference is OSU's osu_latency: half a round trip.
 * Its points are lat_point.h's: batches of round trips timed as a whole,
 * each batch carrying a fresh pattern that both ranks check after it (rank
 * 0 the echo of the last round trip, rank 1 what it received). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lat_point.h"
#include "mpib.h"
#include "pattern.h"
#include "pp_def.h"

#define TAG 17

typedef struct p2p {
    const mpib_ctx *ctx;
    int me;
    unsigned char *send; /* rank 0: the data sent */
    unsigned char *recv; /* what arrived: the echo (rank 0), the data (1) */
    size_t n;
    uint64_t rep;
    int ok;
} p2p;

static uint64_t seed(const p2p *s)
{
    return bench_pattern_seed(s->rep, 0);
}

static void round_trip(p2p *s)
{
    int n = mpib_count(s->n);
    MPI_Comm comm = MPI_COMM_WORLD;
    if (s->me == 0) {
        MPIB_CHECK(MPI_Send(s->send, n, MPI_BYTE, 1, TAG, comm));
        MPIB_CHECK(MPI_Recv(s->recv, n, MPI_BYTE, 1, TAG, comm,
                            MPI_STATUS_IGNORE));
    } else {
        MPIB_CHECK(MPI_Recv(s->recv, n, MPI_BYTE, 0, TAG, comm,
                            MPI_STATUS_IGNORE));
        MPIB_CHECK(MPI_Send(s->recv, n, MPI_BYTE, 0, TAG, comm));
    }
}

static void verify(p2p *s)
{
    size_t off;
    unsigned want, got;
    if (bench_pattern_check(s->recv, s->n, seed(s), &off, &want, &got))
        return;
    if (s->ok)
        fprintf(stderr, "orma-bench-mpi: rank %d: %s, %zu bytes, repetition "
                "%llu: byte %zu is 0x%02x, expected 0x%02x\n", s->me,
                s->ctx->p2p_backend, s->n, (unsigned long long)s->rep, off,
                got, want);
    s->ok = 0;
}

static void fill(p2p *s)
{
    if (s->me == 0)
        bench_pattern_fill(s->send, s->n, seed(s));
}

static double timed(p2p *s)
{
    double t0 = mpib_now();
    if (!pp_batched(PP_PUT, s->n)) {
        round_trip(s);
        return mpib_now() - t0;
    }
    for (int j = 0; j < PP_BATCH - 1; j++) {
        round_trip(s);
        if (s->me == 0)
            verify(s);
        s->rep++;
        fill(s);
    }
    round_trip(s);
    return (mpib_now() - t0) / PP_BATCH;
}

/* One repetition (pp_samples' rep): *sec_p receives the timed part. */
static void repetition(void *arg, double *sec_p)
{
    p2p *s = arg;
    double t = timed(s);
    verify(s);
    s->rep++;
    fill(s);
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (sec_p != NULL)
        *sec_p = t;
}

/* Rank 0's v (pp_samples' and lat_point's bcast). */
static long bcast(void *arg, long v)
{
    (void)arg;
    return mpib_bcast_long(v);
}

static int point(p2p *s, size_t n)
{
    s->n = n;
    s->ok = 1;
    fill(s);
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    pp_reps r = {s, repetition, bcast, mpib_now, mpib_xmalloc};
    double *us;
    long reps = pp_samples(s->ctx->opts, &r, &us);
    int ok = mpib_all_ok(s->ok);
    if (ok)
        mpib_emit(s->ctx->p2p_backend, "sendrecv", "none",
                  "none", n, 2.0 * (double)n, us, reps);
    else if (s->me == 0)
        fprintf(stderr, "orma-bench-mpi: %s, %zu bytes: data did not verify; "
                "stopping\n", s->ctx->p2p_backend, n);
    free(us);
    return ok ? 0 : -1;
}

/* Both suites' state: buffers of the largest size, zeroed. */
static void p2p_open(p2p *s, const mpib_ctx *ctx)
{
    size_t max = bench_opts_max_size(ctx->opts);
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->me = ctx->rank;
    s->send = mpib_xmalloc(max);
    s->recv = mpib_xmalloc(max);
    memset(s->send, 0, max);
    memset(s->recv, 0, max);
}

static void p2p_close(p2p *s)
{
    free(s->send);
    free(s->recv);
}

int mpib_p2p_run(const mpib_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    p2p s;
    p2p_open(&s, ctx);
    int st = BENCH_OK;
    for (int i = 0; i < o->nsizes && st == BENCH_OK; i++) {
        bench_progress(ctx->p2p_backend, o->sizes[i]);
        if (point(&s, o->sizes[i]) != 0)
            st = BENCH_FAIL;
    }
    p2p_close(&s);
    return st;
}

/* The latency suite: lat_point's hooks. */

static void lat_prepare(void *arg)
{
    p2p *s = arg;
    s->rep++;
    fill(s);
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

static double lat_loop(void *arg, long iters)
{
    p2p *s = arg;
    double t0 = mpib_now();
    for (long i = 0; i < iters; i++)
        round_trip(s);
    return mpib_now() - t0;
}

static void lat_check(void *arg, long iters)
{
    (void)iters;
    verify(arg);
}

int mpib_p2p_latency_run(const mpib_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    p2p s;
    p2p_open(&s, ctx);
    lat_hooks h = {&s, lat_prepare, lat_loop, lat_check, bcast};
    int st = BENCH_OK;
    for (int i = 0; i < o->nsizes && st == BENCH_OK; i++) {
        s.n = o->sizes[i];
        s.ok = 1;
        bench_progress(ctx->p2p_backend, s.n);
        lat_samples out;
        lat_point_measure(o, &h, 1, 0, s.n, 2, &out);
        if (mpib_all_ok(s.ok)) {
            mpib_emit(ctx->p2p_backend, "sendrecv", "none",
                      "none", s.n, (double)s.n, out.us, out.n);
        } else {
            if (s.me == 0)
                fprintf(stderr, "orma-bench-mpi: %s, %zu bytes: data did "
                        "not verify; stopping\n", ctx->p2p_backend, s.n);
            st = BENCH_FAIL;
        }
        free(out.us);
    }
    p2p_close(&s);
    return st;
}
