/* mpib_notify.c -- orma-bench notify's MPI job (nt_def.h, nt_jobs.c):
 *
 *   mpirun -n P orma-bench-mpi-<variant> notify PLAN... BACKENDS GO DONE
 *
 * the suite's schedule (nt_run.h) on the host MPI, taking turns with
 * orma-bench's ranks through the FIFOs GO and DONE (turns.h):
 *   mpi-rma  kind flag: MPI_Put + MPI_Win_flush + a put of the count
 *            (nt_flag.h) on an MPI_Win_allocate window in one
 *            MPI_Win_lock_all epoch; pingpong, pipeline (2 ranks)
 *   mpi-p2p  kind p2p: MPI_Send / MPI_Recv of the items (pingpong), the
 *            consumer's MPI_Irecv posted ahead into each free slot
 *            (pipeline), a message of no bytes per credit; ghost's
 *            isend/irecv (mpib_ghost.c), P ranks
 *   orma-mpi kind notify, with liborma-mpi preloaded: Intel MPI's notified
 *            extension as liborma-mpi gives it (orma/mpix_notify.h) --
 *            MPIX_Put_notify raising the peer's counter 0 (items) or, with
 *            no bytes, 1 (credits), on an MPI_Win_allocate window with
 *            MPIX_Win_create_notify's 2 counters in one MPI_Win_lock_all
 *            epoch; a waiter polls MPIX_Win_get_notify (the extension's
 *            way to wait) as the flag kind polls its word.  No flush, as
 *            orma's own notify: on one node liborma-mpi's notified put
 *            goes at once.  pingpong, pipeline (2 ranks)
 * Rank 0 prints the samples (nt_print_samples) and "fail WHAT" when a
 * point did not verify.  Exit status 1 when the turns stopped before the
 * schedule ended or a call failed (MPIB_CHECK aborts), or orma-mpi was
 * asked of a job that does not have the extension (not preloaded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma/mpix_notify.h>

#include "bind.h"
#include "mpib.h"
#include "turns.h"
#define BENCH_RMA_MPI /* nt_flag.h in MPI's names (rma_api.h) */
#include "nt_flag.h"

static void ntf_progress(nt_flagwin *f)
{
    int any;
    MPIB_CHECK(MPI_Win_sync(f->win));
    MPIB_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &any, MPI_STATUS_IGNORE));
}

enum { MN_TAG_ITEM = 1, MN_TAG_CREDIT = 2 };
enum { MN_CTR_ITEMS, MN_CTR_CREDITS, MN_NCTRS };

/* The p2p kind's state between its calls. */
struct mn_p2p {
    unsigned char *slots;
    size_t stride;
    int peer;
    int ahead;           /* this batch's receives are posted ahead */
    MPI_Request req[NT_SLOTS];
    long items, posted;  /* this batch's items to receive, receives posted */
    uint64_t credits;    /* credit messages received, ever */
};

struct mn {
    nt_plan plan;
    int rank, size, rma, p2p, xn;
    int bad, lost;
    nt_env env;
    nt_flagwin w;           /* mpi-rma's, or orma-mpi's (counters on it) */
    unsigned char *src, *scratch;
    struct mn_p2p pp;
    nt_calls flag, msgs, xnotify;
    mpib_ghost *ghost;
    bench_turn_peer turns;
};

static void mn_put(void *arg, const unsigned char *src, size_t n, int k, uint64_t seq)
{
    struct mn_p2p *q = arg;
    (void)k;
    (void)seq;
    MPIB_CHECK(MPI_Send(src, mpib_count(n), MPI_BYTE, q->peer, MN_TAG_ITEM, MPI_COMM_WORLD));
}

static void mn_post(struct mn_p2p *q, int k)
{
    MPIB_CHECK(MPI_Irecv(q->slots + (size_t)k * q->stride, mpib_count(q->stride), MPI_BYTE, q->peer, MN_TAG_ITEM,
                         MPI_COMM_WORLD, &q->req[k]));
    q->posted++;
}

static void mn_wait(void *arg, int k, uint64_t seq)
{
    struct mn_p2p *q = arg;
    (void)seq;
    if (q->ahead)
        MPIB_CHECK(MPI_Wait(&q->req[k], MPI_STATUS_IGNORE));
    else
        MPIB_CHECK(MPI_Recv(q->slots + (size_t)k * q->stride, mpib_count(q->stride), MPI_BYTE, q->peer,
                            MN_TAG_ITEM, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* Slot k is free: its next receive posted, then the credit sent, so the
 * item the credit lets in finds its receive. */
static void mn_credit(void *arg, int k, uint64_t seq)
{
    struct mn_p2p *q = arg;
    (void)seq;
    if (q->ahead && q->posted < q->items)
        mn_post(q, k);
    MPIB_CHECK(MPI_Send(NULL, 0, MPI_BYTE, q->peer, MN_TAG_CREDIT, MPI_COMM_WORLD));
}

static void mn_wait_credit(void *arg, uint64_t seq)
{
    struct mn_p2p *q = arg;
    for (; q->credits < seq; q->credits++)
        MPIB_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, q->peer, MN_TAG_CREDIT, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static void mn_begin(void *arg, int part, long items)
{
    struct mn_p2p *q = arg;
    q->ahead = part == NT_PIPELINE;
    q->items = items;
    q->posted = 0;
    for (int k = 0; q->ahead && k < NT_SLOTS && q->posted < items; k++)
        mn_post(q, k);
}

/* orma-mpi's calls: Intel MPI's notified extension (liborma-mpi's). */
static void mnx_put(void *arg, const unsigned char *src, size_t n, int k, uint64_t seq)
{
    nt_flagwin *f = arg;
    (void)seq;
    int c = mpib_count(n);
    MPIB_CHECK(MPIX_Put_notify(src, c, MPI_BYTE, f->peer, (MPI_Aint)((size_t)k * f->stride), c, MPI_BYTE, f->win,
                               MN_CTR_ITEMS));
}

/* Until counter id has reached seq: MPIX_Win_get_notify polled, paused
 * between looks as the flag kind's waiter (flagwait.h; it never sleeps,
 * as nobody raises the idle word). */
static void mnx_poll(nt_flagwin *f, int id, uint64_t seq)
{
    bench_flag_waiter w = {.mine = NULL};
    _Atomic uint64_t idle = 0;
    for (;;) {
        MPI_Count v;
        MPIB_CHECK(MPIX_Win_get_notify(f->win, id, &v));
        if ((uint64_t)v >= seq)
            return;
        bench_flag_pause(&w, &idle, seq, 50);
    }
}

static void mnx_wait(void *arg, int k, uint64_t seq)
{
    (void)k;
    mnx_poll(arg, MN_CTR_ITEMS, seq);
}

static void mnx_credit(void *arg, int k, uint64_t seq)
{
    nt_flagwin *f = arg;
    (void)k;
    (void)seq;
    MPIB_CHECK(MPIX_Put_notify(NULL, 0, MPI_BYTE, f->peer, 0, 0, MPI_BYTE, f->win, MN_CTR_CREDITS));
}

static void mnx_wait_credit(void *arg, uint64_t seq)
{
    mnx_poll(arg, MN_CTR_CREDITS, seq);
}

static double mn_now(void)
{
    return mpib_now();
}

static void mn_barrier(void *arg)
{
    (void)arg;
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

static long mn_bcast(void *arg, long v)
{
    (void)arg;
    return mpib_bcast_long(v);
}

static int mn_has(void *arg, int part, int kind)
{
    struct mn *m = arg;
    if (part == NT_GHOST)
        return kind == NT_P2P && m->p2p;
    return m->size == 2 && ((kind == NT_FLAG && m->rma) || (kind == NT_P2P && m->p2p) || (kind == NT_NOTIFY && m->xn));
}

static nt_calls *mn_calls(struct mn *m, int kind)
{
    return kind == NT_FLAG ? &m->flag : kind == NT_NOTIFY ? &m->xnotify : &m->msgs;
}

static const char *mn_backend(int kind)
{
    return kind == NT_FLAG ? "mpi-rma" : kind == NT_NOTIFY ? "orma-mpi" : "mpi-p2p";
}

static void mn_begin_point(void *arg, int part, size_t bytes)
{
    struct mn *m = arg;
    if (part == NT_GHOST && m->ghost)
        mpib_ghost_begin(m->ghost, bytes, GHOST_P2P);
    else if (part != NT_GHOST)
        m->w.stride = m->pp.stride = m->flag.stride = m->msgs.stride = m->xnotify.stride = nt_stride(bytes);
}

static double mn_batch(void *arg, int part, int kind, size_t bytes, long iters, uint64_t batch)
{
    struct mn *m = arg;
    if (part == NT_GHOST)
        return mpib_ghost_batch(m->ghost, iters, batch);
    nt_calls *c = mn_calls(m, kind);
    if (part == NT_PINGPONG)
        return nt_pingpong(&m->env, c, iters, batch);
    return nt_pipeline(&m->env, c, bytes, iters, batch, m->scratch);
}

static int mn_verified(void *arg, int part, int kind, size_t bytes)
{
    struct mn *m = arg;
    int ok;
    if (part == NT_GHOST) {
        ok = mpib_ghost_ok(m->ghost);
    } else {
        nt_calls *c = mn_calls(m, kind);
        ok = mpib_all_ok(c->ok);
        c->ok = 1;
    }
    if (!ok && m->rank == 0)
        printf("fail %s/%s %s, %zu bytes: data did not verify (see above)\n", mn_backend(kind), MPIB_VARIANT,
               nt_part_names[part], bytes);
    m->bad |= !ok;
    return ok;
}

/* Every rank reads a byte of the turn (turns.h); the barrier before the
 * done byte keeps a rank that had nothing to do in a turn from reading
 * another rank's byte of it as its next turn's. */
static int mn_turn(void *arg, int point, int round, int after)
{
    struct mn *m = arg;
    (void)point;
    (void)round;
    if (after)
        MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int st = after ? (m->rank == 0 ? bench_turn_peer_done(&m->turns) : 0) : bench_turn_peer_wait(&m->turns);
    m->lost |= st != 0;
    return st;
}

static void mn_open(struct mn *m, const mpib_ctx *ctx)
{
    size_t max = nt_max_bytes(&m->plan, NT_PIPELINE), flags;
    max = max > NT_PINGPONG_BYTES ? max : NT_PINGPONG_BYTES;
    size_t bytes = ntf_bytes(max, &flags), stride = nt_stride(max);
    int two = m->size == 2 && (m->plan.parts[NT_PINGPONG] || m->plan.parts[NT_PIPELINE]);
    m->env = (nt_env){.arg = m, .rank = m->rank, .now = mn_now, .barrier = mn_barrier, .bcast = mn_bcast};
    m->src = mpib_xmalloc(flags);
    m->scratch = mpib_xmalloc(stride);
    memset(m->src, 0, flags);
    if (two && (m->rma || m->xn)) {
        m->w.stride = stride;
        m->w.flags = flags;
        m->w.peer = 1 - m->rank;
        MPIB_CHECK(MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &m->w.base, &m->w.win));
        MPIB_CHECK(MPI_Win_set_errhandler(m->w.win, MPI_ERRORS_RETURN));
        memset(m->w.base, 0, bytes);
        if (m->xn)
            MPIB_CHECK(MPIX_Win_create_notify(m->w.win, MN_NCTRS));
        MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPIB_CHECK(MPI_Win_lock_all(0, m->w.win));
        ntf_calls(&m->w, "mpi-rma flag", m->src, &m->flag);
        ntf_calls_with(&m->w, "orma-mpi notify", m->src, mnx_put, mnx_wait, mnx_credit, mnx_wait_credit, &m->xnotify);
    }
    if (two && m->p2p) {
        m->pp.stride = stride;
        m->pp.peer = 1 - m->rank;
        m->pp.slots = mpib_xmalloc(flags);
        memset(m->pp.slots, 0, flags);
        m->msgs = (nt_calls){.arg = &m->pp, .name = "mpi-p2p", .slots = m->pp.slots, .src = m->src,
                             .stride = stride, .put = mn_put, .wait = mn_wait, .credit = mn_credit,
                             .wait_credit = mn_wait_credit, .begin = mn_begin, .ok = 1};
    }
    if (m->plan.parts[NT_GHOST] && m->p2p)
        m->ghost = mpib_ghost_open(ctx, nt_max_bytes(&m->plan, NT_GHOST));
}

static void mn_close(struct mn *m)
{
    if (m->ghost)
        mpib_ghost_close(m->ghost);
    if (m->flag.put) {
        MPIB_CHECK(MPI_Win_unlock_all(m->w.win));
        if (m->xn)
            MPIB_CHECK(MPIX_Win_free_notify(m->w.win));
        MPIB_CHECK(MPI_Win_free(&m->w.win));
    }
    free(m->pp.slots);
    free(m->scratch);
    free(m->src);
}

int mpib_notify_main(int argc, char **argv, int rank, int size)
{
    struct mn m;
    memset(&m, 0, sizeof m);
    m.rank = rank;
    m.size = size;
    if (argc != NT_PLAN_ARGS + 3 || nt_plan_parse(&m.plan, argv)) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -n P orma-bench-mpi-%s notify PARTS KINDS PIPELINE_SIZES GHOST_SIZES "
                            "ROUNDS[q] BACKENDS GO DONE (orma-bench notify starts it)\n", MPIB_VARIANT);
        return BENCH_USAGE;
    }
    const char *backends = argv[NT_PLAN_ARGS];
    m.rma = bench_list_has(backends, "mpi-rma");
    m.p2p = bench_list_has(backends, "mpi-p2p");
    m.xn = bench_list_has(backends, "orma-mpi");
    /* whose MPI_Put this is: liborma-mpi's in the preloaded job alone */
    const char *lib;
    int preloaded = mpib_served_by_orma(&lib);
    if ((m.xn && (!preloaded || !MPIX_Put_notify)) || ((m.rma || m.p2p) && preloaded)) {
        if (rank == 0)
            fprintf(stderr, "orma-bench-mpi-%s notify: backends %s, but MPI_Put is served by %s%s\n", MPIB_VARIANT,
                    backends, lib, m.xn ? " and liborma-mpi's notified calls are needed (preload it)" : "");
        return BENCH_USAGE;
    }
    char p2p_name[64];
    snprintf(p2p_name, sizeof p2p_name, "mpi-p2p/%s", MPIB_VARIANT);
    bench_opts opts;
    memset(&opts, 0, sizeof opts);
    mpib_ctx ctx = {"notify", &opts, rank, NULL, m.p2p ? p2p_name : NULL, size, NULL, NULL, NULL};
    if (bench_turn_peer_open(&m.turns, argv[NT_PLAN_ARGS + 1], argv[NT_PLAN_ARGS + 2], rank == 0))
        MPI_Abort(MPI_COMM_WORLD, 1);
    cpu_set_t saved;
    int cpu = bench_bind_rank(rank, &saved);
    mn_open(&m, &ctx);
    double *samples = calloc(nt_nsamples(&m.plan), sizeof *samples);
    if (!samples)
        MPI_Abort(MPI_COMM_WORLD, 1);
    nt_prog prog = {&m, mn_has, mn_begin_point, mn_batch, mn_verified, mn_turn};
    nt_run(&m.plan, &prog, samples);
    if (rank == 0 && !m.lost)
        nt_print_samples(&m.plan, samples);
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    mn_close(&m);
    if (cpu >= 0)
        bench_bind_restore(&saved);
    bench_turn_peer_close(&m.turns);
    free(samples);
    return m.lost ? BENCH_FAIL : BENCH_OK;
}
