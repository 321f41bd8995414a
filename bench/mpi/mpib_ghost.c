/* mpib_ghost.c -- the ghost suite's MPI backends: the exchange step of
 * ghost_def.h with plain MPI calls, on P ranks (MPI_COMM_WORLD):
 *
 *   p2p    MPI_Irecv x 4 (slot j from the opposite neighbour, tag j),
 *          MPI_Isend x 4 (segment j to the neighbour in direction j, tag
 *          j), MPI_Waitall; the ghost area is malloc'd memory (mpi-p2p)
 *   fence  MPI_Win_fence(MPI_MODE_NOPRECEDE); 4 MPI_Put;
 *          MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT |
 *          MPI_MODE_NOSUCCEED) -- seed 004's Fig. 3
 *   pscw   MPI_Win_post(nbrs); MPI_Win_start(nbrs); 4 MPI_Put;
 *          MPI_Win_complete; MPI_Win_wait, nbrs the distinct neighbours
 *   lock   per direction MPI_Win_lock(MPI_LOCK_SHARED), MPI_Put,
 *          MPI_Win_unlock; then MPI_Barrier
 *
 * on an MPI_Win_allocate window holding the ghost area (mpi-rma; orma-mpi
 * when liborma-mpi is preloaded).  The same steps, data, checks and
 * timing as orma's (ghost_orma.c says why shared locks and why the lock
 * version's barrier is part of the step).  Per size, the point-to-point
 * version runs first, then the one-sided ones, so that a ratio compares
 * times measured seconds apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ghost_def.h"
#include "mpib.h"

struct mpib_ghost {
    const mpib_ctx *ctx;
    ghost_grid g;
    MPI_Win win;            /* MPI_WIN_NULL without mpi-rma / orma-mpi */
    unsigned char *winbase; /* its memory: the one-sided versions' area */
    unsigned char *p2p;     /* the point-to-point version's area */
    unsigned char *area;    /* the current point's */
    MPI_Group nbrs;         /* the distinct neighbours, for PSCW */
    unsigned char *send;    /* ghost_send_size(max) bytes */
    unsigned char *scratch; /* max bytes, for the check */
    size_t n;
    ghost_sync sync;
    uint64_t step, batch;   /* as ghost_orma.c's */
    int ok;
};
typedef struct mpib_ghost mg_state;

static void put_all(mg_state *s, const unsigned char *d)
{
    int c = mpib_count(s->n);
    for (int j = 0; j < GHOST_NDIR; j++)
        MPIB_CHECK(MPI_Put(d + (size_t)j * s->n, c, MPI_BYTE, s->g.nbr[j],
                           (MPI_Aint)ghost_slot_disp(s->n, j), c, MPI_BYTE,
                           s->win));
}

static void steps_p2p(mg_state *s, long iters)
{
    size_t n = s->n;
    int c = mpib_count(n);
    MPI_Request req[2 * GHOST_NDIR];
    /* Not MPI_STATUSES_IGNORE: MPICH's is the pointer 1, which gcc 12
     * takes for an array of no room (-Wstringop-overflow). */
    MPI_Status sts[2 * GHOST_NDIR];
    for (long i = 0; i < iters; i++) {
        const unsigned char *d = ghost_step_data(s->send, n, s->step++,
                                                 s->g.rank);
        for (int j = 0; j < GHOST_NDIR; j++)
            MPIB_CHECK(MPI_Irecv(s->p2p + ghost_slot_disp(n, j), c,
                                 MPI_BYTE, s->g.src[j], j, MPI_COMM_WORLD,
                                 &req[j]));
        for (int j = 0; j < GHOST_NDIR; j++)
            MPIB_CHECK(MPI_Isend(d + (size_t)j * n, c, MPI_BYTE,
                                 s->g.nbr[j], j, MPI_COMM_WORLD,
                                 &req[GHOST_NDIR + j]));
        MPIB_CHECK(MPI_Waitall(2 * GHOST_NDIR, req, sts));
    }
}

static void steps_fence(mg_state *s, long iters)
{
    for (long i = 0; i < iters; i++) {
        const unsigned char *d = ghost_step_data(s->send, s->n, s->step++,
                                                 s->g.rank);
        MPIB_CHECK(MPI_Win_fence(MPI_MODE_NOPRECEDE, s->win));
        put_all(s, d);
        MPIB_CHECK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT |
                                 MPI_MODE_NOSUCCEED, s->win));
    }
}

static void steps_pscw(mg_state *s, long iters)
{
    for (long i = 0; i < iters; i++) {
        const unsigned char *d = ghost_step_data(s->send, s->n, s->step++,
                                                 s->g.rank);
        MPIB_CHECK(MPI_Win_post(s->nbrs, 0, s->win));
        MPIB_CHECK(MPI_Win_start(s->nbrs, 0, s->win));
        put_all(s, d);
        MPIB_CHECK(MPI_Win_complete(s->win));
        MPIB_CHECK(MPI_Win_wait(s->win));
    }
}

static void steps_lock(mg_state *s, long iters)
{
    size_t n = s->n;
    int c = mpib_count(n);
    for (long i = 0; i < iters; i++) {
        const unsigned char *d = ghost_step_data(s->send, n, s->step++,
                                                 s->g.rank);
        for (int j = 0; j < GHOST_NDIR; j++) {
            int t = s->g.nbr[j];
            MPIB_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, s->win));
            MPIB_CHECK(MPI_Put(d + (size_t)j * n, c, MPI_BYTE, t,
                               (MPI_Aint)ghost_slot_disp(n, j), c, MPI_BYTE,
                               s->win));
            MPIB_CHECK(MPI_Win_unlock(t, s->win));
        }
        /* The targets learn here that their slots are filled. */
        MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    }
}

/* The unified model's MPI_Win_sync before reading what others put (it
 * needs a passive epoch: MPI_MODE_NOCHECK, nobody else locks). */
static void win_sync(mg_state *s)
{
    MPIB_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win));
    MPIB_CHECK(MPI_Win_sync(s->win));
    MPIB_CHECK(MPI_Win_unlock_all(s->win));
}

static const char *backend(const mg_state *s)
{
    return s->sync == GHOST_P2P ? s->ctx->p2p_backend : s->ctx->rma_backend;
}

static void verify(mg_state *s, uint64_t batch)
{
    char msg[256];
    if (s->sync != GHOST_P2P)
        win_sync(s);
    if (ghost_area_check(s->area, &s->g, s->n, batch, s->step - 1,
                         s->scratch, msg, sizeof msg))
        return;
    if (s->ok)
        fprintf(stderr, "orma-bench-mpi-%s: rank %d: ghost %s %s: %s\n",
                MPIB_VARIANT, s->g.rank, backend(s),
                ghost_sync_names[s->sync], msg);
    s->ok = 0;
}

double mpib_ghost_batch(void *arg, long iters, uint64_t b)
{
    mg_state *s = arg;
    ghost_fill_batch(s->send, s->n, s->g.rank, b);
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    double t0 = mpib_now();
    switch (s->sync) {
    case GHOST_P2P: steps_p2p(s, iters); break;
    case GHOST_FENCE: steps_fence(s, iters); break;
    case GHOST_PSCW: steps_pscw(s, iters); break;
    default: steps_lock(s, iters); break;
    }
    double t = mpib_now() - t0;
    verify(s, b);
    double slowest;
    MPIB_CHECK(MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX,
                             MPI_COMM_WORLD));
    return slowest;
}

void mpib_ghost_begin(mpib_ghost *s, size_t n, ghost_sync m)
{
    s->n = n;
    s->sync = m;
    s->ok = 1;
    s->area = m == GHOST_P2P ? s->p2p : s->winbase;
    ghost_area_reset(s->area, n, s->g.rank);
    if (m != GHOST_P2P)
        win_sync(s);
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

int mpib_ghost_ok(mpib_ghost *s)
{
    if (mpib_all_ok(s->ok))
        return 1;
    if (s->g.rank == 0)
        fprintf(stderr, "orma-bench-mpi-%s: ghost %s %s, %zu bytes: "
                "data did not verify\n", MPIB_VARIANT, backend(s),
                ghost_sync_names[s->sync], s->n);
    return 0;
}

static int point(mg_state *s, size_t n, ghost_sync m, double *us)
{
    mpib_ghost_begin(s, n, m);
    long nb = ghost_measure(s->ctx->opts, mpib_ghost_batch, s, &s->batch, us);
    if (!mpib_ghost_ok(s))
        return -1;
    mpib_emit(backend(s), ghost_op_name(m), ghost_sync_names[m],
              ghost_window_name(m), n, (double)GHOST_NDIR * (double)n, us,
              nb);
    return 0;
}

static int wanted(const mg_state *s, int m)
{
    /* MPI has no notified access (orma's notify version is its own) */
    if (m == GHOST_NOTIFY || !bench_list_has(s->ctx->opts->syncs, ghost_sync_names[m]))
        return 0;
    return m == GHOST_P2P ? s->ctx->p2p_backend != NULL
                          : s->ctx->rma_backend != NULL;
}

static void open_window(mg_state *s, size_t size)
{
    void *base;
    MPIB_CHECK(MPI_Win_allocate((MPI_Aint)size, 1, MPI_INFO_NULL,
                                MPI_COMM_WORLD, &base, &s->win));
    MPIB_CHECK(MPI_Win_set_errhandler(s->win, MPI_ERRORS_RETURN));
    s->winbase = base;
    MPI_Group all;
    MPIB_CHECK(MPI_Comm_group(MPI_COMM_WORLD, &all));
    MPIB_CHECK(MPI_Group_incl(all, s->g.ndistinct, s->g.distinct,
                              &s->nbrs));
    MPIB_CHECK(MPI_Group_free(&all));
}

mpib_ghost *mpib_ghost_open(const mpib_ctx *ctx, size_t max)
{
    mg_state *s = mpib_xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->win = MPI_WIN_NULL;
    s->nbrs = MPI_GROUP_NULL;
    ghost_grid_init(ctx->size, ctx->rank, &s->g);
    s->send = mpib_xmalloc(ghost_send_size(max));
    s->scratch = mpib_xmalloc(max);
    if (ctx->p2p_backend != NULL)
        s->p2p = mpib_xmalloc(ghost_area_size(max));
    if (ctx->rma_backend != NULL)
        open_window(s, ghost_area_size(max));
    return s;
}

void mpib_ghost_close(mpib_ghost *s)
{
    if (s->win != MPI_WIN_NULL) {
        MPIB_CHECK(MPI_Group_free(&s->nbrs));
        MPIB_CHECK(MPI_Win_free(&s->win));
    }
    free(s->p2p);
    free(s->scratch);
    free(s->send);
    free(s);
}

int mpib_ghost_run(const mpib_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    mg_state *s = mpib_ghost_open(ctx, bench_opts_max_size(o));
    double *us = mpib_xmalloc((size_t)ghost_max_batches(o) * sizeof *us);
    int st = BENCH_OK;
    for (int i = 0; i < o->nsizes; i++)
        for (int m = 0; m < GHOST_NSYNC; m++) {
            if (!wanted(s, m))
                continue;
            bench_progress(ghost_sync_names[m], o->sizes[i]);
            if (point(s, o->sizes[i], (ghost_sync)m, us) != 0)
                st = BENCH_FAIL;
        }
    mpib_ghost_close(s);
    free(us);
    return st;
}
