/* caf_mpi_pp.c -- orma-bench-caf-mpi pp OP [SECONDS]: the ping-pong of
 * caf_bench.f90 (module caf_bench_pp) written in plain MPI.
 *
 * Ranks 0 and 1 (images 1 and 2 of the coarray program) move n bytes,
 * n = 8, 64, 512, 4096, 32768, 131072, 524288, 1048576; the other ranks
 * only join the collectives.  The target memory is a window of 1 MiB (and
 * a small guard tail) from MPI_Win_allocate, the coarray x(:), held in
 * MPI_Win_lock_all for the whole run.  OP:
 *
 *   put       the coarray put ping-pong: rank 0 puts n bytes into rank 1's
 *             window, flushes and sends a zero-byte message (what SYNC
 *             IMAGES gives the coarray program), waits for rank 1's; rank 1
 *             receives, puts n bytes back into rank 0's window, flushes and
 *             sends.  Time per operation: half a round trip.
 *   get       rank 0 reads n bytes of rank 1's window (MPI_Get + flush).
 *             Time per read.
 *   sendrecv  MPI_Send/MPI_Recv ping-pong of n bytes.  Half a round trip.
 *   put1      rank 0 puts n bytes into rank 1's window and flushes, one
 *             way, no notification (the coarray put1: assignment + SYNC
 *             MEMORY).  Time per put.
 *
 * Calibration and batches as in the coarray program: iterations per batch
 * multiplied by 4 until a batch takes more than 2 ms (the largest time over
 * the ranks) or reaches 1e6; nb = max(5, min(200, seconds / 8 / that
 * time)) batches (largest over the ranks), each batch between barriers.
 * Rank 0 prints, per size, the line the coarray program prints:
 *
 *   pp OP BYTES BATCHES MIN MEDIAN MAX BAD
 *
 * (microseconds per operation over the batches).  The source bytes are
 * mod(k + s + me, 127) as in the coarray program (k the 1-based byte index,
 * s the 1-based size index, me the 1-based image); after the batches the
 * bytes of the last transfer are checked where they landed, and so is the
 * byte just after them, which must still hold the sentinel the target
 * memory was filled with before the size (a value the pattern never
 * takes).  BAD is the number of failed checks so far, summed over ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caf_mpi.h"

enum { PP_MAXN = 1048576, PP_GUARD = 64, PP_NSIZES = 8 };

static const int pp_sizes[PP_NSIZES] = {8, 64, 512, 4096, 32768, 131072, 524288, 1048576};

/* Fills the target memory before each size; the pattern is 0..126. */
static const unsigned char pp_sentinel = 0xff;

typedef enum { PP_PUT, PP_GET, PP_SENDRECV, PP_PUT1 } pp_op;

typedef struct {
    pp_op op;
    int rank;
    int n;
    MPI_Win win;
    unsigned char *x;   /* the window (PP_MAXN + PP_GUARD bytes) */
    unsigned char *src; /* what is sent */
    unsigned char *dst; /* where get and sendrecv land */
} pp_state;

/* The coarray program's byte k (0-based here) of size s (0-based) on the
 * rank (0-based): mod(k + s + me, 127) with 1-based k, s and me. */
static unsigned char pp_byte(int k, int s, int rank)
{
    return (unsigned char)((k + s + rank + 3) % 127);
}

/* Counts 1 when buf[0..n) is not rank's pattern for size s, or when the
 * byte buf[n] is not the sentinel. */
static int pp_check(const unsigned char *buf, int n, int s, int rank)
{
    for (int k = 0; k < n; k++)
        if (buf[k] != pp_byte(k, s, rank))
            return 1;
    return buf[n] != pp_sentinel;
}

/* One batch of iters operations; the time per operation. */
static double pp_round(const pp_state *st, int iters)
{
    const int n = st->n;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    switch (st->op) {
    case PP_PUT:
        for (int i = 0; i < iters; i++) {
            if (st->rank == 0) {
                MPI_Put(st->src, n, MPI_BYTE, 1, 0, n, MPI_BYTE, st->win);
                MPI_Win_flush(1, st->win);
                MPI_Send(NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (st->rank == 1) {
                MPI_Recv(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Put(st->src, n, MPI_BYTE, 0, 0, n, MPI_BYTE, st->win);
                MPI_Win_flush(0, st->win);
                MPI_Send(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        break;
    case PP_GET:
        if (st->rank == 0)
            for (int i = 0; i < iters; i++) {
                MPI_Get(st->dst, n, MPI_BYTE, 1, 0, n, MPI_BYTE, st->win);
                MPI_Win_flush(1, st->win);
            }
        break;
    case PP_SENDRECV:
        for (int i = 0; i < iters; i++) {
            if (st->rank == 0) {
                MPI_Send(st->src, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(st->dst, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (st->rank == 1) {
                MPI_Recv(st->dst, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(st->src, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        break;
    case PP_PUT1:
        if (st->rank == 0)
            for (int i = 0; i < iters; i++) {
                MPI_Put(st->src, n, MPI_BYTE, 1, 0, n, MPI_BYTE, st->win);
                MPI_Win_flush(1, st->win);
            }
        break;
    }
    double t = MPI_Wtime() - t0;
    if (st->op == PP_PUT || st->op == PP_SENDRECV)
        t /= 2;
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

/* The checks of the last transfer of size s (0-based): failed ones. */
static int pp_checks(const pp_state *st, int s)
{
    const int n = st->n, me = st->rank;
    int bad = 0;
    /* The flushes came before the round's closing barrier; make the
     * public copy of the window visible to this process's loads. */
    MPI_Win_sync(st->win);
    switch (st->op) {
    case PP_PUT:
        if (me == 0 || me == 1)
            bad += pp_check(st->x, n, s, 1 - me);
        break;
    case PP_PUT1:
        if (me == 1)
            bad += pp_check(st->x, n, s, 0);
        break;
    case PP_GET:
        if (me == 0)
            bad += pp_check(st->dst, n, s, 1);
        if (me == 1) /* the source itself must be as it was */
            bad += pp_check(st->x, n, s, 1);
        break;
    case PP_SENDRECV:
        if (me == 0 || me == 1)
            bad += pp_check(st->dst, n, s, 1 - me);
        break;
    }
    return bad;
}

int cm_pp(const char *op, double seconds)
{
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    pp_state st = {.rank = rank, .win = MPI_WIN_NULL};
    if (!strcmp(op, "put"))
        st.op = PP_PUT;
    else if (!strcmp(op, "get"))
        st.op = PP_GET;
    else if (!strcmp(op, "sendrecv"))
        st.op = PP_SENDRECV;
    else if (!strcmp(op, "put1"))
        st.op = PP_PUT1;
    else {
        if (rank == 0)
            fprintf(stderr, "pp: rank %d: unknown OP '%s' (put, get, sendrecv, put1)\n", rank, op);
        MPI_Barrier(MPI_COMM_WORLD); /* the message out before MPI_Abort */
        return 2;
    }
    if (np < 2) {
        if (rank == 0)
            printf("# pp needs 2 images\n");
        return 0;
    }

    const size_t len = (size_t)PP_MAXN + PP_GUARD;
    double *t;
    st.src = malloc(len);
    st.dst = malloc(len);
    t = malloc(200 * sizeof *t);
    int ok = st.src && st.dst && t, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok) {
        if (!ok)
            fprintf(stderr, "pp: rank %d: out of memory\n", rank);
        free(st.src);
        free(st.dst);
        free(t);
        return 1;
    }
    MPI_Win_allocate((MPI_Aint)len, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &st.x, &st.win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, st.win);

    int bad = 0, bad_all = 0;
    for (int s = 0; s < PP_NSIZES; s++) {
        const int n = st.n = pp_sizes[s];
        /* Fresh target memory for this size: the sentinel, and for get
         * rank 1's pattern as the source.  The previous size's transfers
         * were flushed before the barriers that ended it. */
        MPI_Win_sync(st.win);
        memset(st.x, pp_sentinel, len);
        memset(st.dst, pp_sentinel, len);
        memset(st.src, 0, len);
        for (int k = 0; k < n; k++)
            st.src[k] = pp_byte(k, s, rank);
        if (st.op == PP_GET && rank == 1)
            memcpy(st.x, st.src, (size_t)n);
        MPI_Win_sync(st.win);
        MPI_Barrier(MPI_COMM_WORLD);

        /* Iterations per batch: a few milliseconds, the slowest rank's. */
        int iters = 1;
        double one;
        for (;;) {
            double mine = pp_round(&st, iters);
            MPI_Allreduce(&mine, &one, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (one > 2e-3 || iters >= 1000000)
                break;
            iters *= 4;
        }
        double q = seconds / PP_NSIZES / (one > 1e-6 ? one : 1e-6);
        int nb_mine = q >= 200 ? 200 : (int)q, nb;
        if (nb_mine < 5)
            nb_mine = 5;
        MPI_Allreduce(&nb_mine, &nb, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        for (int b = 0; b < nb; b++)
            t[b] = pp_round(&st, iters);

        /* The last transfer's bytes, where they landed (pp_round ended
         * with a barrier after the last flush). */
        bad += pp_checks(&st, s);
        int sum;
        MPI_Allreduce(&bad, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        bad_all = sum;
        if (rank == 0) {
            cm_sort(t, nb);
            printf("pp %s %d %d %.4f %.4f %.4f %d\n", op, n, nb, t[0] * 1e6 / iters,
                   t[(nb + 1) / 2 - 1] * 1e6 / iters, t[nb - 1] * 1e6 / iters, bad_all);
            fflush(stdout);
        }
    }

    MPI_Win_unlock_all(st.win);
    MPI_Win_free(&st.win);
    free(st.src);
    free(st.dst);
    free(t);
    return 0;
}
