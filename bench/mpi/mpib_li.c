/* mpib_li.c -- li.h's backends in the MPI program, and its table of the
 * suites written with li.h:
 *
 *   one-sided (mpi-rma, or orma-mpi when liborma-mpi is preloaded):
 *     areas are MPI_Win_allocate windows (displacement unit 1, zeroed),
 *     opened with MPI_Win_fence(MPI_MODE_NOPRECEDE), synchronized with
 *     MPI_Win_fence(0), closed with MPI_Win_fence(MPI_MODE_NOSUCCEED)
 *     before MPI_Win_free -- orma's discipline, written once in
 *     li_fence.h; put and get are MPI_Put and MPI_Get of MPI_BYTE;
 *   two-sided (mpi-p2p): MPI_Irecv into a growing array of requests,
 *     MPI_Send, MPI_Waitall of them all -- seed 003's send versions (its
 *     best two-sided pair: "MPI_Irecv and MPI_Send").
 *
 * Both: MPI_Barrier, MPI_Allreduce, MPI_Bcast on MPI_COMM_WORLD, the clock
 * of mpib_now, rows through li_run.h.  A failed call ends the job
 * (MPIB_CHECK). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "li_run.h"
#include "li_suites.h"
#include "mpib.h"

/* One row per suite written with li.h (and one in orma-bench's
 * li_suite.c). */
static const li_suite *const mpib_li_suites[] = {&li_as, &li_mult, &li_rdx,
                                                 NULL};

typedef struct mpib_li {
    li_lib lib; /* first: the functions get &lib */
    MPI_Request *reqs;
    MPI_Status *sts; /* not MPI_STATUSES_IGNORE: see mpib_ghost.c */
    size_t nreq, cap;
} mpib_li;

#define BENCH_RMA_MPI /* li_fence.h in MPI's names (rma_api.h) */
#include "li_fence.h"

static void *li_b_allocate(size_t bytes, MPI_Win *w)
{
    void *base;
    MPIB_CHECK(MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL,
                                MPI_COMM_WORLD, &base, w));
    MPIB_CHECK(MPI_Win_set_errhandler(*w, MPI_ERRORS_RETURN));
    return base;
}

static void irecv(li_lib *l, int pid, void *dst, size_t n)
{
    mpib_li *m = l->impl;
    if (m->nreq == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 16;
        m->reqs = realloc(m->reqs, m->cap * sizeof *m->reqs);
        m->sts = realloc(m->sts, m->cap * sizeof *m->sts);
        if (m->reqs == NULL || m->sts == NULL) {
            fprintf(stderr, "orma-bench-mpi-%s: out of memory\n",
                    MPIB_VARIANT);
            MPI_Abort(MPI_COMM_WORLD, BENCH_FAIL);
            exit(BENCH_FAIL);
        }
    }
    MPIB_CHECK(MPI_Irecv(dst, mpib_count(n), MPI_BYTE, pid, 0,
                         MPI_COMM_WORLD, &m->reqs[m->nreq]));
    m->nreq++;
}

static void send(li_lib *l, int pid, const void *src, size_t n)
{
    (void)l;
    MPIB_CHECK(MPI_Send(src, mpib_count(n), MPI_BYTE, pid, 0,
                        MPI_COMM_WORLD));
}

static void waitall(li_lib *l)
{
    mpib_li *m = l->impl;
    if (m->nreq > 0)
        MPIB_CHECK(MPI_Waitall(mpib_count(m->nreq), m->reqs, m->sts));
    m->nreq = 0;
}

static void barrier(li_lib *l)
{
    (void)l;
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

static double max(li_lib *l, double v)
{
    (void)l;
    double m;
    MPIB_CHECK(MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX,
                             MPI_COMM_WORLD));
    return m;
}

static long bcast(li_lib *l, long v)
{
    (void)l;
    return mpib_bcast_long(v);
}

static int all_ok(li_lib *l, int ok)
{
    (void)l;
    return mpib_all_ok(ok);
}

/* For this job's run (mpib_report_job). */
static void init(mpib_li *m, const li_suite *s, const char *backend,
                 int two_sided)
{
    memset(m, 0, sizeof *m);
    li_lib *l = &m->lib;
    l->backend = backend;
    li_run_init(l, mpib_report_job(), s->name, m);
    l->two_sided = two_sided;
    if (two_sided) {
        l->irecv = irecv;
        l->send = send;
        l->waitall = waitall;
    } else {
        li_fence_areas(l);
    }
    l->barrier = barrier;
    l->now = mpib_now;
    l->max = max;
    l->bcast = bcast;
    l->all_ok = all_ok;
}

const li_suite *mpib_li_find(const char *name)
{
    for (int i = 0; mpib_li_suites[i] != NULL; i++)
        if (strcmp(mpib_li_suites[i]->name, name) == 0)
            return mpib_li_suites[i];
    return NULL;
}

const li_suite *mpib_li_at(int i)
{
    int n = 0;
    while (mpib_li_suites[n] != NULL)
        n++;
    return i >= 0 && i < n ? mpib_li_suites[i] : NULL;
}

int mpib_li_run(const mpib_ctx *ctx, const li_suite *s)
{
    int st = BENCH_OK;
    mpib_li m;
    if (ctx->rma_backend != NULL) {
        init(&m, s, ctx->rma_backend, 0);
        st = s->run(&m.lib);
    }
    if (ctx->p2p_backend != NULL) {
        init(&m, s, ctx->p2p_backend, 1);
        int pst = s->run(&m.lib);
        free(m.reqs);
        free(m.sts);
        if (st == BENCH_OK)
            st = pst;
    }
    return st;
}
