/* caf_mpi_himeno.c -- orma-bench-caf-mpi himeno SIZE MODE [SECONDS]: the
 * Himeno benchmark of caf_bench.f90 (module caf_bench_himeno) written in
 * plain MPI.
 *
 * The same solver as the coarray program, the same arithmetic in the same
 * order (single precision; loops k, j, i; the residual summed point by
 * point in that order on each rank, then over the ranks with MPI_Allreduce
 * SUM of a float, as CO_SUM does), on the same grids (XS 33x33x65,
 * S 65x65x129, M 129x129x257 as imax x jmax x kmax), split the same way
 * along j: the interior planes j = 2..jmax-1 in slabs of jl = (jmax-2)/np,
 * the last rank taking the remainder, local j 0..jn+1 with the halo planes
 * 0 and jn+1.  Arrays are laid out as Fortran lays them out (i fastest,
 * then j, then k): p[(k * jdim + j) * imax + i], jdim = jn + 2, each rank
 * with its own extent.
 *
 * Each iteration exchanges the j planes 1 and jn (strided: kmax runs of
 * imax floats, an MPI_Type_vector) with the neighbours' halo planes jn+1
 * and 0, then sums the residual.  MODE:
 *
 *   sendrecv  MPI_Irecv/MPI_Isend/MPI_Waitall of the planes, as the MPI
 *             Himeno does (the counterpart of the coarray modes' traffic
 *             done with messages);
 *   rma       MPI_Put of the planes into the neighbours' halo planes in a
 *             fence epoch over a window on p (MPI_Win_create), the
 *             counterpart of narrow: p(:, 0, :)[up] = p(:, jn, :).  The
 *             target displacement and the target datatype's stride come
 *             from the target's jn.
 *
 * Calibration and output as in the coarray program: 3 iterations timed,
 * iterations per batch for about 0.1 s (largest over the ranks), batches
 * max(3, seconds / (iters * t)) (largest over the ranks), a batch's time
 * the slowest rank's, rate = 34 (imax-2)(jmax-2)(kmax-2) iters / time / 1e6
 * MFLOPS; the residual after re-initialising and 20 iterations.  Rank 0
 * prints the coarray program's line:
 *
 *   himeno SIZE MODE NP ITERS MEDIAN MIN MAX GOSA */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caf_mpi.h"

typedef struct {
    int imax, jmax, kmax;
    int rank, np;
    int jl, jn, jdim; /* slab width, this rank's planes, local j extent */
    int rma;
    size_t plane, vol; /* floats per k plane (imax * jdim), per array */
    float *p, *a, *b, *c, *bnd, *wrk1, *wrk2;
    MPI_Win win;
    MPI_Datatype jplane;          /* p(:, j, :) here */
    MPI_Datatype up_t, down_t;    /* p(:, j, :) on the neighbours (rma) */
    MPI_Aint down_halo;           /* the down neighbour's plane jn+1 */
} hm_state;

/* Offset of (i, j, k) in a local array. */
static size_t hm_ix(const hm_state *h, int i, int j, int k)
{
    return ((size_t)k * (size_t)h->jdim + (size_t)j) * (size_t)h->imax + (size_t)i;
}

/* The number of interior planes rank r holds. */
static int hm_jn(const hm_state *h, int r)
{
    return r == h->np - 1 ? (h->jmax - 2) - h->jl * (h->np - 1) : h->jl;
}

static void hm_init(hm_state *h)
{
    const float pk_den = (float)((h->kmax - 1) * (h->kmax - 1));
    for (int k = 0; k < h->kmax; k++)
        for (int j = 0; j <= h->jn + 1; j++) {
            int jg = h->rank * h->jl + j + 1; /* global j (1..jmax) */
            float v = jg >= 1 && jg <= h->jmax ? (float)(k * k) / pk_den : 0.0f;
            float *row = h->p + hm_ix(h, 0, j, k);
            for (int i = 0; i < h->imax; i++)
                row[i] = v;
        }
    const float sixth = 1.0f / 6.0f;
    for (size_t x = 0; x < 3 * h->vol; x++)
        h->a[x] = 1.0f;
    for (size_t x = 3 * h->vol; x < 4 * h->vol; x++)
        h->a[x] = sixth;
    for (size_t x = 0; x < 3 * h->vol; x++) {
        h->b[x] = 0.0f;
        h->c[x] = 1.0f;
    }
    for (size_t x = 0; x < h->vol; x++) {
        h->bnd[x] = 1.0f;
        h->wrk1[x] = 0.0f;
        h->wrk2[x] = 0.0f;
    }
}

/* The j planes 1 and jn to the neighbours' halo planes jn+1 and 0. */
static void hm_exchange(const hm_state *h)
{
    const int up = h->rank + 1 < h->np ? h->rank + 1 : MPI_PROC_NULL;
    const int down = h->rank > 0 ? h->rank - 1 : MPI_PROC_NULL;
    float *p = h->p;
    if (!h->rma) {
        MPI_Request rq[4];
        MPI_Status stat[4]; /* not MPI_STATUSES_IGNORE: GCC's bounds check trips on MPICH's */
        MPI_Irecv(p + hm_ix(h, 0, 0, 0), 1, h->jplane, down, 1, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(p + hm_ix(h, 0, h->jn + 1, 0), 1, h->jplane, up, 2, MPI_COMM_WORLD, &rq[1]);
        MPI_Isend(p + hm_ix(h, 0, h->jn, 0), 1, h->jplane, up, 1, MPI_COMM_WORLD, &rq[2]);
        MPI_Isend(p + hm_ix(h, 0, 1, 0), 1, h->jplane, down, 2, MPI_COMM_WORLD, &rq[3]);
        MPI_Waitall(4, rq, stat);
    } else {
        MPI_Win_fence(MPI_MODE_NOPRECEDE, h->win);
        if (up != MPI_PROC_NULL)
            MPI_Put(p + hm_ix(h, 0, h->jn, 0), 1, h->jplane, up, 0, 1, h->up_t, h->win);
        if (down != MPI_PROC_NULL)
            MPI_Put(p + hm_ix(h, 0, 1, 0), 1, h->jplane, down, h->down_halo, 1, h->down_t, h->win);
        MPI_Win_fence(MPI_MODE_NOSUCCEED, h->win);
    }
}

static float hm_jacobi(const hm_state *h, int nn)
{
    const float omega = 0.8f;
    const int imax = h->imax, kmax = h->kmax, jn = h->jn;
    const size_t si = 1, sj = (size_t)imax, sk = h->plane, v = h->vol;
    const float *a = h->a, *b = h->b, *c = h->c, *bnd = h->bnd, *wrk1 = h->wrk1;
    float *p = h->p, *wrk2 = h->wrk2;
    float gosa = 0.0f;
    for (int n = 0; n < nn; n++) {
        float wgosa = 0.0f;
        for (int k = 1; k < kmax - 1; k++)
            for (int j = 1; j <= jn; j++) {
                const size_t o = hm_ix(h, 0, j, k);
                for (size_t x = o + 1; x < o + (size_t)imax - 1; x++) {
                    float s0 = a[x] * p[x + si] + a[v + x] * p[x + sj] + a[2 * v + x] * p[x + sk] +
                               b[x] * (p[x + si + sj] - p[x + si - sj] - p[x - si + sj] + p[x - si - sj]) +
                               b[v + x] * (p[x + sj + sk] - p[x - sj + sk] - p[x + sj - sk] + p[x - sj - sk]) +
                               b[2 * v + x] * (p[x + si + sk] - p[x - si + sk] - p[x + si - sk] + p[x - si - sk]) +
                               c[x] * p[x - si] + c[v + x] * p[x - sj] + c[2 * v + x] * p[x - sk] + wrk1[x];
                    float ss = (s0 * a[3 * v + x] - p[x]) * bnd[x];
                    wgosa = wgosa + ss * ss;
                    wrk2[x] = p[x] + omega * ss;
                }
            }
        for (int k = 1; k < kmax - 1; k++)
            for (int j = 1; j <= jn; j++) {
                const size_t o = hm_ix(h, 1, j, k);
                memcpy(p + o, wrk2 + o, (size_t)(imax - 2) * sizeof *p);
            }
        hm_exchange(h);
        MPI_Allreduce(&wgosa, &gosa, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    }
    return gosa;
}

/* The vector type of a j plane in an array of local j extent jdim. */
static void hm_plane_type(const hm_state *h, int jdim, MPI_Datatype *t)
{
    MPI_Type_vector(h->kmax, h->imax, h->imax * jdim, MPI_FLOAT, t);
    MPI_Type_commit(t);
}

int cm_himeno(const char *size, const char *mode, double seconds)
{
    hm_state h;
    memset(&h, 0, sizeof h);
    h.win = MPI_WIN_NULL;
    h.jplane = h.up_t = h.down_t = MPI_DATATYPE_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &h.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &h.np);
    const int rank = h.rank, np = h.np;

    if (!strcmp(size, "XS")) {
        h.imax = 33, h.jmax = 33, h.kmax = 65;
    } else if (!strcmp(size, "S")) {
        h.imax = 65, h.jmax = 65, h.kmax = 129;
    } else if (!strcmp(size, "M")) {
        h.imax = 129, h.jmax = 129, h.kmax = 257;
    } else {
        if (rank == 0)
            fprintf(stderr, "himeno: rank %d: unknown SIZE '%s' (XS, S, M)\n", rank, size);
        MPI_Barrier(MPI_COMM_WORLD); /* the message out before MPI_Abort */
        return 2;
    }
    if (!strcmp(mode, "sendrecv"))
        h.rma = 0;
    else if (!strcmp(mode, "rma"))
        h.rma = 1;
    else {
        if (rank == 0)
            fprintf(stderr, "himeno: rank %d: unknown MODE '%s' (sendrecv, rma)\n", rank, mode);
        MPI_Barrier(MPI_COMM_WORLD); /* the message out before MPI_Abort */
        return 2;
    }
    h.jl = (h.jmax - 2) / np;
    if (h.jl < 1) {
        if (rank == 0)
            fprintf(stderr, "himeno: rank %d: more ranks (%d) than j planes (%d)\n", rank, np, h.jmax - 2);
        MPI_Barrier(MPI_COMM_WORLD); /* the message out before MPI_Abort */
        return 1;
    }
    h.jn = hm_jn(&h, rank);
    h.jdim = h.jn + 2;
    h.plane = (size_t)h.imax * (size_t)h.jdim;
    h.vol = h.plane * (size_t)h.kmax;

    const int nbatch_cap = 1 << 20;
    double *rate = NULL;
    h.a = malloc(4 * h.vol * sizeof(float));
    h.b = malloc(3 * h.vol * sizeof(float));
    h.c = malloc(3 * h.vol * sizeof(float));
    h.bnd = malloc(h.vol * sizeof(float));
    h.wrk1 = malloc(h.vol * sizeof(float));
    h.wrk2 = malloc(h.vol * sizeof(float));
    h.p = malloc(h.vol * sizeof(float));
    int ok = h.a && h.b && h.c && h.bnd && h.wrk1 && h.wrk2 && h.p, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    int rc = 0;
    if (!all_ok) {
        if (!ok)
            fprintf(stderr, "himeno: rank %d: out of memory\n", rank);
        rc = 1;
        goto done;
    }
    /* The window over p is MPI_Win_create's, not MPI_Win_allocate's: with
     * MPICH 4.0.2 (ch4:ucx), an MPI_Put of a whole plane (vector datatype,
     * 8580 bytes on the XS grid) into MPI_Win_allocate memory of another
     * process on the node lands one element before its place. */
    if (h.rma)
        MPI_Win_create(h.p, (MPI_Aint)(h.vol * sizeof(float)), (int)sizeof(float), MPI_INFO_NULL, MPI_COMM_WORLD,
                       &h.win);

    hm_plane_type(&h, h.jdim, &h.jplane);
    if (h.rma) {
        /* The neighbours' extents: the target's halo plane and stride. */
        if (rank + 1 < np)
            hm_plane_type(&h, hm_jn(&h, rank + 1) + 2, &h.up_t);
        if (rank > 0) {
            int jn_down = hm_jn(&h, rank - 1);
            hm_plane_type(&h, jn_down + 2, &h.down_t);
            h.down_halo = (MPI_Aint)(jn_down + 1) * h.imax;
        }
    }

    hm_init(&h);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Iterations per batch: about a tenth of a second, the largest. */
    const double flop = 34.0 * (h.imax - 2) * (h.jmax - 2) * (h.kmax - 2);
    double c0 = MPI_Wtime();
    float gosa = hm_jacobi(&h, 3);
    double t0 = (MPI_Wtime() - c0) / 3;
    if (t0 < 1e-6)
        t0 = 1e-6;
    int mine = (int)(0.1 / t0), iters, nbatch;
    if (mine < 1)
        mine = 1;
    MPI_Allreduce(&mine, &iters, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    double q = seconds / (iters * t0);
    mine = q >= nbatch_cap ? nbatch_cap : (int)q;
    if (mine < 3)
        mine = 3;
    MPI_Allreduce(&mine, &nbatch, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    rate = malloc((size_t)nbatch * sizeof *rate);
    ok = rate != NULL;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok) {
        if (!ok)
            fprintf(stderr, "himeno: rank %d: out of memory\n", rank);
        rc = 1;
        goto done;
    }

    hm_init(&h);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int batch = 0; batch < nbatch; batch++) {
        c0 = MPI_Wtime();
        gosa = hm_jacobi(&h, iters);
        double t1 = MPI_Wtime() - c0, tmax;
        MPI_Allreduce(&t1, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        rate[batch] = flop * iters / tmax / 1e6;
    }

    /* The residual after a fixed number of iterations from the start. */
    hm_init(&h);
    MPI_Barrier(MPI_COMM_WORLD);
    gosa = hm_jacobi(&h, 20);
    if (rank == 0) {
        cm_sort(rate, nbatch);
        printf("himeno %s %s %d %d %10.1f %10.1f %10.1f %14.7E\n", size, mode, np, iters * nbatch,
               rate[(nbatch + 1) / 2 - 1], rate[0], rate[nbatch - 1], (double)gosa);
        fflush(stdout);
    }

done:
    if (h.up_t != MPI_DATATYPE_NULL)
        MPI_Type_free(&h.up_t);
    if (h.down_t != MPI_DATATYPE_NULL)
        MPI_Type_free(&h.down_t);
    if (h.jplane != MPI_DATATYPE_NULL)
        MPI_Type_free(&h.jplane);
    if (h.win != MPI_WIN_NULL)
        MPI_Win_free(&h.win);
    free(h.p);
    free(h.a);
    free(h.b);
    free(h.c);
    free(h.bnd);
    free(h.wrk1);
    free(h.wrk2);
    free(rate);
    return rc;
}
