/* mt_mpi.c -- orma-bench-mt-mpi-<mpi>: the mt suite (mt.h) with MPI's
 * one-sided calls, started by orma-bench under the host MPI's mpirun,
 * alone (mpi-rma) or with liborma-mpi preloaded (orma-mpi), 2 ranks:
 *
 *   orma-bench-mt-mpi-<mpi> THREADS OPS MODES BATCH_OPS BATCH_US ROUNDS [GO DONE]
 *
 * The same runner as orma's (mt_run.c) on MPI_Win_allocate windows,
 * MPI_Win_lock_all epochs, MPI_Put / MPI_Get / MPI_Fetch_and_op and
 * MPI_Win_flush.  With GO and DONE (FIFOs: mt_jobs.c), rank 0 waits for a
 * byte on GO before every slot of the schedule and writes one to DONE
 * after it, so that orma-bench hands the turns between the backends.
 * Rank 0 prints mt_print_samples' lines, and
 *   note WHAT    for orma-bench's notes
 *   fail WHY     MPI_Init_thread did not give MPI_THREAD_MULTIPLE: only 1
 *                thread is measured, and orma-bench fails the run
 * Exit status 1 when a call failed or data did not verify. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mt.h"
#include "turns.h"

struct mt_mpi {
    MPI_Win sep[MT_MAX_THREADS], shared;
    uint64_t *sep_base[MT_MAX_THREADS], *shared_base;
    int nsep;
};

static int mt_mpi_fail(const char *what, int t, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "orma-bench-mt-mpi: thread %d: %s: %s\n", t, what, msg);
    return -1;
}

static MPI_Win mt_mpi_win(struct mt_mpi *m, int mode, int t, MPI_Aint *disp)
{
    *disp = mode == MT_SEP ? 0 : (MPI_Aint)t * MT_SLOT;
    return mode == MT_SEP ? m->sep[t] : m->shared;
}

static int mt_mpi_put(void *arg, int mode, int t, uint64_t v)
{
    MPI_Aint d;
    MPI_Win w = mt_mpi_win(arg, mode, t, &d);
    int rc = MPI_Put(&v, 1, MPI_UINT64_T, 1, d, 1, MPI_UINT64_T, w);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(1, w);
    return rc == MPI_SUCCESS ? 0 : mt_mpi_fail("MPI_Put + MPI_Win_flush", t, rc);
}

static int mt_mpi_get(void *arg, int mode, int t, uint64_t *v)
{
    MPI_Aint d;
    MPI_Win w = mt_mpi_win(arg, mode, t, &d);
    int rc = MPI_Get(v, 1, MPI_UINT64_T, 1, d, 1, MPI_UINT64_T, w);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(1, w);
    return rc == MPI_SUCCESS ? 0 : mt_mpi_fail("MPI_Get + MPI_Win_flush", t, rc);
}

static int mt_mpi_fop(void *arg, int mode, int t, uint64_t *old)
{
    static const uint64_t one = 1;
    MPI_Aint d;
    MPI_Win w = mt_mpi_win(arg, mode, t, &d);
    int rc = MPI_Fetch_and_op(&one, old, MPI_UINT64_T, 1, d + 8, MPI_SUM, w);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(1, w);
    return rc == MPI_SUCCESS ? 0 : mt_mpi_fail("MPI_Fetch_and_op + MPI_Win_flush", t, rc);
}

static int mt_mpi_epoch(void *arg, int mode, int t, int open)
{
    struct mt_mpi *m = arg;
    MPI_Win w = mode == MT_SEP ? m->sep[t] : m->shared;
    int rc = open ? MPI_Win_lock_all(0, w) : MPI_Win_unlock_all(w);
    return rc == MPI_SUCCESS ? 0 : mt_mpi_fail(open ? "MPI_Win_lock_all" : "MPI_Win_unlock_all", t, rc);
}

static void mt_mpi_open(struct mt_mpi *m, int nsep)
{
    memset(m, 0, sizeof *m);
    for (; m->nsep < nsep; m->nsep++) {
        MPI_Win_allocate(MT_SLOT, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &m->sep_base[m->nsep], &m->sep[m->nsep]);
        MPI_Win_set_errhandler(m->sep[m->nsep], MPI_ERRORS_RETURN);
        memset(m->sep_base[m->nsep], 0, MT_SLOT);
    }
    MPI_Win_allocate(MT_WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &m->shared_base, &m->shared);
    MPI_Win_set_errhandler(m->shared, MPI_ERRORS_RETURN);
    memset(m->shared_base, 0, MT_WIN_BYTES);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The target's wait: a barrier whose waiter sleeps a millisecond between
 * tests (MPI_Barrier polls a core, which the origin's threads need). */
static void mt_mpi_sleep_barrier(void)
{
    MPI_Request req;
    int done = 0;
    struct timespec ms = {0, 1000000};
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    for (;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            break;
        nanosleep(&ms, NULL);
    }
}

/* The turns (mt_calls' turn, turns.h): a byte from go before the slot,
 * one to done after it. */
static int mt_mpi_turn(void *arg, int round, int after)
{
    (void)round;
    return after ? bench_turn_peer_done(arg) : bench_turn_peer_wait(arg);
}

/* Rank 1: its windows against what the origin knows; 0 or -1. */
static int mt_mpi_check(struct mt_mpi *m, const mt_expect *e)
{
    int st = 0;
    for (int mode = 0; mode < MT_NMODES; mode++)
        for (int t = 0; t < m->nsep; t++) {
            MPI_Win w = mode == MT_SEP ? m->sep[t] : m->shared;
            const uint64_t *slot = mode == MT_SEP ? m->sep_base[t] : m->shared_base + (size_t)t * MT_SLOT / 8;
            /* the public copy of the window, in a local epoch */
            MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w);
            MPI_Win_sync(w);
            if (mt_check_slot(e, mode, t, slot, "MPI"))
                st = -1;
            MPI_Win_unlock(1, w);
        }
    return st;
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_plan p;
    if ((argc != 7 && argc != 9) || size != 2 || mt_plan_parse(&p, argv + 1)) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -n 2 orma-bench-mt-mpi THREADS OPS MODES BATCH_OPS BATCH_US ROUNDS "
                            "[GO DONE]\n");
        MPI_Finalize();
        return 2;
    }
    int max_threads = provided == MPI_THREAD_MULTIPLE ? MT_MAX_THREADS : 1;
    if (rank == 0 && max_threads == 1)
        printf("fail MPI_Init_thread(MPI_THREAD_MULTIPLE) gave level %d: only 1 thread is measured\n", provided);
    if (rank == 0)
        printf("note the target waits in MPI_Ibarrier, testing it once a millisecond and asleep between: a "
               "library that needs the target's calls to progress passive operations gets them that often\n");
    int most = 1;
    for (int i = 0; i < p.nthreads; i++)
        most = p.threads[i] > most ? p.threads[i] : most;
    struct mt_mpi m;
    mt_mpi_open(&m, most);
    double *samples = calloc(mt_nsamples(&p), sizeof *samples);
    mt_expect e;
    memset(&e, 0, sizeof e);
    int st = 0;
    bench_turn_peer f = {-1, -1};
    if (rank == 0 && argc == 9 && bench_turn_peer_open(&f, argv[7], argv[8], 1))
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0) {
        mt_calls c = {&m, mt_mpi_put, mt_mpi_get, mt_mpi_fop, mt_mpi_epoch, f.go >= 0 ? mt_mpi_turn : NULL, &f};
        st = samples ? mt_origin(&p, &c, max_threads, samples, &e) : -1;
        if (st) {
            /* a library whose call failed may not free or finalize:
             * end the job now, loudly, not at orma-bench's time limit */
            fprintf(stderr, "orma-bench-mt-mpi: a call failed or data did not verify: MPI_Abort\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        /* the target's barrier is nonblocking: so must this one be (MPI
         * matches no blocking collective with a nonblocking one) */
        MPI_Request req;
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        mt_mpi_sleep_barrier();
    }
    MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 1 && !st && mt_mpi_check(&m, &e))
        st = -1;
    MPI_Bcast(&st, 1, MPI_INT, 1, MPI_COMM_WORLD);
    if (rank == 0 && !st)
        mt_print_samples(&p, samples);
    if (st && rank == 0)
        fprintf(stderr, "orma-bench-mt-mpi: a call failed or data did not verify\n");
    for (int t = 0; t < m.nsep; t++)
        MPI_Win_free(&m.sep[t]);
    MPI_Win_free(&m.shared);
    free(samples);
    MPI_Finalize();
    return st ? 1 : 0;
}
