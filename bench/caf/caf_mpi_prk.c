/* caf_mpi_prk.c -- orma-bench-caf-mpi prk KERNEL [SECONDS]: the Parallel
 * Research Kernels' patterns in plain MPI, the counterpart of caf_prk.f90
 * (same definitions, same data movement, same output line; that file's
 * header has the details):
 *
 *   nstream    per rank A, B, C of 2^21 doubles, A = 0, B = 2, C = 2; an
 *              iteration: A = A + B + 3*C.  No communication.
 *   stencil    radius 2 star stencil on a 1000 x 1000 grid, IN(i,j) = i+j,
 *              OUT = 0; OUT += stencil(IN) at the interior points, then
 *              IN += 1.  Rows (the slow index, contiguous; the coarray
 *              version's columns) in balanced blocks; the 2 edge rows go
 *              to the neighbours' halo rows with MPI_Irecv, MPI_Isend and
 *              MPI_Waitall.
 *   transpose  order 1024 matrices in column blocks (each block stored
 *              column-major: A[jl*N + i]), A(i,j) = j*N+i, B = 0;
 *              B(i,j) += A(j,i), then A += 1.  In phase q a rank packs
 *              the rows of rank me-q from its columns, sends them there
 *              and receives from rank me+q (MPI_Sendrecv; the coarray
 *              version reads from image me+q), then adds the block's
 *              transpose into B.  N must be divisible by the ranks.
 *   p2p        the pipeline v(i,j) = v(i-1,j) + v(i,j-1) - v(i-1,j-1) on a
 *              1000 x 1000 grid (i fastest), v(i,0) = i, v(0,j) = j, then
 *              v(0,0) = -v(m-1,n-1).  i in balanced blocks; per row a
 *              rank receives one double from the left (MPI_Recv), computes
 *              its part of the row and sends its last value to the right
 *              (MPI_Send); the last rank sends -v(m-1,n-1) to rank 0,
 *              which receives it at the end of the iteration.
 *
 * Checks after K iterations (all of them since the initialisation,
 * calibration included): nstream sum |A| = np * 2^21 * 8K, stencil mean
 * |OUT| over the interior = 2K, p2p v(m-1,n-1) = K(m+n-2) (relative error
 * below 1e-8), transpose B(i,j) = K*A0(j,i) + K(K-1)/2 (summed absolute
 * error below 1e-8).
 *
 * Timing: after a barrier, 3 iterations give t0 (at least 1e-6 s); a rank
 * wants max(1, (int)(0.1/t0)) iterations per batch and
 * max(3, (int)(seconds/(iters*t0))) batches, the largest over the ranks is
 * taken; each batch starts with a barrier and its time is the largest over
 * the ranks.  Rank 0 prints
 *
 *   prk KERNEL NP ITERS MIN MED MAX BAD
 *
 * ITERS = iters * batches, MIN MED MAX microseconds per iteration over the
 * batches, BAD the failed checks (0: right). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caf_mpi.h"

#define PRK_TOL 1e-8

typedef void prk_iterate_fn(void *state, int n);

/* The calibration and the batches: *iters, *nbatch and *times (malloc'd,
 * seconds per batch, the largest over the ranks).  0, or 1 after a
 * message. */
static int prk_measure(prk_iterate_fn *iterate, void *state, double seconds, int rank, int *iters,
                       int *nbatch, double **times)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double c0 = MPI_Wtime();
    iterate(state, 3);
    double t0 = (MPI_Wtime() - c0) / 3;
    if (t0 < 1e-6)
        t0 = 1e-6;
    int it = (int)(0.1 / t0);
    if (it < 1)
        it = 1;
    MPI_Allreduce(MPI_IN_PLACE, &it, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int nb = (int)(seconds / ((double)it * t0));
    if (nb < 3)
        nb = 3;
    MPI_Allreduce(MPI_IN_PLACE, &nb, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    double *t = malloc((size_t)nb * sizeof *t);
    if (!t) {
        fprintf(stderr, "orma-bench-caf-mpi prk: rank %d: out of memory\n", rank);
        return 1;
    }
    for (int b = 0; b < nb; b++) {
        MPI_Barrier(MPI_COMM_WORLD);
        c0 = MPI_Wtime();
        iterate(state, it);
        t[b] = MPI_Wtime() - c0;
        MPI_Allreduce(MPI_IN_PLACE, &t[b], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    *iters = it;
    *nbatch = nb;
    *times = t;
    return 0;
}

/* The result line, on rank 0. */
static void prk_report(const char *kernel, double *t, int nb, int iters, int bad, int rank, int np)
{
    if (rank != 0)
        return;
    for (int b = 0; b < nb; b++)
        t[b] = t[b] * 1e6 / iters;
    cm_sort(t, nb);
    printf("prk %s %d %d %.3f %.3f %.3f %d\n", kernel, np, iters * nb, t[0], t[(nb + 1) / 2 - 1], t[nb - 1], bad);
    fflush(stdout);
}

/* 1 unless got is within the relative tolerance of want. */
static int prk_off(double got, double want)
{
    return fabs(got - want) <= PRK_TOL * fabs(want) ? 0 : 1;
}

/* The balanced block partition of n over np: part p starts at *first and
 * holds *width elements. */
static void prk_block(int n, int np, int p, int *first, int *width)
{
    *first = p * (n / np) + (p < n % np ? p : n % np);
    *width = n / np + (p < n % np ? 1 : 0);
}

/* A message on rank 0 about a problem every rank has, then 1 everywhere. */
static int prk_fail_all(int rank, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "orma-bench-caf-mpi prk: rank %d: %s\n", rank, msg);
    MPI_Barrier(MPI_COMM_WORLD);
    return 1;
}

static int prk_nomem(int rank, const char *kernel)
{
    fprintf(stderr, "orma-bench-caf-mpi prk %s: rank %d: out of memory\n", kernel, rank);
    return 1;
}

/* ---- nstream ---- */

enum { NSTREAM_L = 1 << 21 };

struct nstream {
    double *a, *b, *c;
};

static void nstream_iterate(void *state, int n)
{
    struct nstream *s = state;
    double *restrict a = s->a;
    const double *restrict b = s->b, *restrict c = s->c;
    const double scalar = 3;
    for (int it = 0; it < n; it++)
        for (int i = 0; i < NSTREAM_L; i++)
            a[i] = a[i] + b[i] + scalar * c[i];
}

static int prk_nstream(double seconds, int rank, int np)
{
    struct nstream s;
    s.a = malloc(NSTREAM_L * sizeof(double));
    s.b = malloc(NSTREAM_L * sizeof(double));
    s.c = malloc(NSTREAM_L * sizeof(double));
    if (!s.a || !s.b || !s.c) {
        free(s.a), free(s.b), free(s.c);
        return prk_nomem(rank, "nstream");
    }
    for (int i = 0; i < NSTREAM_L; i++) {
        s.a[i] = 0;
        s.b[i] = 2;
        s.c[i] = 2;
    }
    int iters, nbatch;
    double *t;
    if (prk_measure(nstream_iterate, &s, seconds, rank, &iters, &nbatch, &t)) {
        free(s.a), free(s.b), free(s.c);
        return 1;
    }
    int k = 3 + iters * nbatch;
    double asum = 0;
    for (int i = 0; i < NSTREAM_L; i++)
        asum += fabs(s.a[i]);
    MPI_Allreduce(MPI_IN_PLACE, &asum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int bad = prk_off(asum, (double)np * NSTREAM_L * (2 + 3.0 * 2) * k);
    prk_report("nstream", t, nbatch, iters, bad, rank, np);
    free(s.a), free(s.b), free(s.c), free(t);
    return 0;
}

/* ---- stencil ---- */

enum { STENCIL_N = 1000, STENCIL_R = 2 };

struct stencil {
    int me, np, w, jlo, jhi;
    double weight[STENCIL_R];
    double *in;  /* rows -R..w+R-1: in[(jl + R) * n + i] */
    double *out; /* rows 0..w-1 */
};

static void stencil_iterate(void *state, int nn)
{
    struct stencil *s = state;
    const int n = STENCIL_N, r = STENCIL_R;
    const size_t nz = (size_t)n;
    for (int it = 0; it < nn; it++) {
        if (s->np > 1) {
            MPI_Request rq[4];
            MPI_Status st[4];
            int nr = 0;
            if (s->me > 0) {
                MPI_Irecv(s->in, r * n, MPI_DOUBLE, s->me - 1, 1, MPI_COMM_WORLD, &rq[nr++]);
                MPI_Isend(s->in + (size_t)r * nz, r * n, MPI_DOUBLE, s->me - 1, 1, MPI_COMM_WORLD, &rq[nr++]);
            }
            if (s->me < s->np - 1) {
                MPI_Irecv(s->in + (size_t)(s->w + r) * nz, r * n, MPI_DOUBLE, s->me + 1, 1, MPI_COMM_WORLD,
                          &rq[nr++]);
                MPI_Isend(s->in + (size_t)s->w * nz, r * n, MPI_DOUBLE, s->me + 1, 1, MPI_COMM_WORLD, &rq[nr++]);
            }
            MPI_Waitall(nr, rq, st);
        }
        for (int j = s->jlo; j <= s->jhi; j++)
            for (int k = 1; k <= r; k++) {
                double *restrict o = s->out + (size_t)j * nz;
                const double *restrict c = s->in + (size_t)(j + r) * nz;
                const double *restrict up = s->in + (size_t)(j + r + k) * nz;
                const double *restrict dn = s->in + (size_t)(j + r - k) * nz;
                const double wk = s->weight[k - 1];
                for (int i = r; i < n - r; i++)
                    o[i] = o[i] + wk * (up[i] - dn[i] + c[i + k] - c[i - k]);
            }
        double *own = s->in + (size_t)r * nz;
        for (size_t i = 0; i < (size_t)s->w * nz; i++)
            own[i] = own[i] + 1;
    }
}

static int prk_stencil(double seconds, int rank, int np)
{
    const int n = STENCIL_N, r = STENCIL_R;
    const size_t nz = (size_t)n;
    if (n / np < r)
        return prk_fail_all(rank, "stencil: fewer than 2 grid rows per rank (n = 1000)");
    struct stencil s;
    int js;
    s.me = rank;
    s.np = np;
    prk_block(n, np, rank, &js, &s.w);
    for (int k = 1; k <= r; k++)
        s.weight[k - 1] = 1.0 / (2 * k * r);
    s.in = calloc((size_t)(s.w + 2 * r) * nz, sizeof(double));
    s.out = calloc((size_t)s.w * nz, sizeof(double));
    if (!s.in || !s.out) {
        free(s.in), free(s.out);
        return prk_nomem(rank, "stencil");
    }
    for (int j = 0; j < s.w; j++)
        for (int i = 0; i < n; i++)
            s.in[(size_t)(j + r) * nz + (size_t)i] = i + (js + j);
    s.jlo = r - js > 0 ? r - js : 0;
    s.jhi = n - 1 - r - js < s.w - 1 ? n - 1 - r - js : s.w - 1;
    int iters, nbatch;
    double *t;
    if (prk_measure(stencil_iterate, &s, seconds, rank, &iters, &nbatch, &t)) {
        free(s.in), free(s.out);
        return 1;
    }
    int k = 3 + iters * nbatch;
    double norm = 0;
    for (int j = s.jlo; j <= s.jhi; j++)
        for (int i = r; i < n - r; i++)
            norm += fabs(s.out[(size_t)j * nz + (size_t)i]);
    MPI_Allreduce(MPI_IN_PLACE, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    norm = norm / ((double)(n - 2 * r) * (n - 2 * r));
    int bad = prk_off(norm, 2.0 * k);
    prk_report("stencil", t, nbatch, iters, bad, rank, np);
    free(s.in), free(s.out), free(t);
    return 0;
}

/* ---- transpose ---- */

enum { TRANSPOSE_N = 1024, TRANSPOSE_TILE = 32 };

struct transpose {
    int me, np, cb;
    double *a, *b;  /* columns cb, rows N: a[jl * N + i] */
    double *work;   /* cb x cb, column-major: work[c * cb + r] */
    double *send;
};

static void transpose_iterate(void *state, int nn)
{
    struct transpose *s = state;
    const int n = TRANSPOSE_N, cb = s->cb, tile = TRANSPOSE_TILE;
    const size_t nz = (size_t)n, cbz = (size_t)cb;
    for (int it = 0; it < nn; it++) {
        for (int q = 0; q < s->np; q++) {
            int src = (s->me + q) % s->np, dst = (s->me - q + s->np) % s->np;
            /* The rows of rank dst (its columns) from my columns. */
            double *pack = q == 0 ? s->work : s->send;
            for (int c = 0; c < cb; c++)
                memcpy(pack + (size_t)c * cbz, s->a + (size_t)c * nz + (size_t)dst * cbz, cbz * sizeof(double));
            if (q > 0)
                MPI_Sendrecv(s->send, cb * cb, MPI_DOUBLE, dst, 2, s->work, cb * cb, MPI_DOUBLE, src, 2,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            /* work[c*cb + r] = A(my row me*cb + r, src's column c): B(row of
             * src's column c, my column r) gets it. */
            const size_t sb = (size_t)src * cbz;
            for (int jj = 0; jj < cb; jj += tile)
                for (int ii = 0; ii < cb; ii += tile)
                    for (int r = jj; r < jj + tile && r < cb; r++)
                        for (int c = ii; c < ii + tile && c < cb; c++)
                            s->b[(size_t)r * nz + sb + (size_t)c] += s->work[(size_t)c * cbz + (size_t)r];
        }
        for (size_t i = 0; i < nz * cbz; i++)
            s->a[i] = s->a[i] + 1;
    }
}

static int prk_transpose(double seconds, int rank, int np)
{
    const int n = TRANSPOSE_N;
    const size_t nz = (size_t)n;
    if (n % np != 0)
        return prk_fail_all(rank, "transpose: the order 1024 is not divisible by the number of ranks");
    struct transpose s;
    s.me = rank;
    s.np = np;
    s.cb = n / np;
    const int cb = s.cb;
    s.a = malloc((size_t)n * (size_t)cb * sizeof(double));
    s.b = calloc((size_t)n * (size_t)cb, sizeof(double));
    s.work = malloc((size_t)cb * (size_t)cb * sizeof(double));
    s.send = malloc((size_t)cb * (size_t)cb * sizeof(double));
    if (!s.a || !s.b || !s.work || !s.send) {
        free(s.a), free(s.b), free(s.work), free(s.send);
        return prk_nomem(rank, "transpose");
    }
    for (int j = 0; j < cb; j++)
        for (int i = 0; i < n; i++)
            s.a[(size_t)j * nz + (size_t)i] = (double)(rank * cb + j) * n + i;
    int iters, nbatch;
    double *t;
    if (prk_measure(transpose_iterate, &s, seconds, rank, &iters, &nbatch, &t)) {
        free(s.a), free(s.b), free(s.work), free(s.send);
        return 1;
    }
    double kk = 3 + (double)iters * nbatch, err = 0;
    for (int j = 0; j < cb; j++)
        for (int i = 0; i < n; i++) /* B(i,j) against K*A0(j,i) + K(K-1)/2, A0(j,i) = i*N + j */
            err += fabs(s.b[(size_t)j * nz + (size_t)i] - (kk * ((double)i * n + (rank * cb + j)) + kk * (kk - 1) / 2));
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int bad = err < PRK_TOL ? 0 : 1;
    prk_report("transpose", t, nbatch, iters, bad, rank, np);
    free(s.a), free(s.b), free(s.work), free(s.send), free(t);
    return 0;
}

/* ---- p2p ---- */

enum { P2P_M = 1000, P2P_N = 1000 };

struct p2p {
    int me, np, w, ilo;
    double *v; /* v[j * (w+1) + il]: il = 1..w global first + il - 1, 0 the halo */
};

static void p2p_iterate(void *state, int nn)
{
    struct p2p *s = state;
    const int n = P2P_N, w = s->w;
    const size_t ld = (size_t)w + 1;
    double *v = s->v;
    for (int it = 0; it < nn; it++) {
        for (int j = 1; j < n; j++) {
            double *row = v + (size_t)j * ld, *prev = v + (size_t)(j - 1) * ld;
            if (s->me > 0)
                MPI_Recv(row, 1, MPI_DOUBLE, s->me - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = s->ilo; i <= w; i++)
                row[i] = row[i - 1] + prev[i] - prev[i - 1];
            if (s->me < s->np - 1)
                MPI_Send(row + w, 1, MPI_DOUBLE, s->me + 1, 3, MPI_COMM_WORLD);
        }
        double corner = -v[(size_t)(n - 1) * ld + (size_t)w];
        if (s->np == 1)
            v[1] = corner;
        else if (s->me == s->np - 1)
            MPI_Send(&corner, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
        else if (s->me == 0)
            MPI_Recv(&v[1], 1, MPI_DOUBLE, s->np - 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static int prk_p2p(double seconds, int rank, int np)
{
    const int m = P2P_M, n = P2P_N;
    if (m / np < 2)
        return prk_fail_all(rank, "p2p: fewer than 2 grid points per rank along i (m = 1000)");
    struct p2p s;
    int is;
    s.me = rank;
    s.np = np;
    prk_block(m, np, rank, &is, &s.w);
    const size_t ld = (size_t)s.w + 1;
    s.v = calloc(ld * (size_t)n, sizeof(double));
    if (!s.v)
        return prk_nomem(rank, "p2p");
    for (int i = 0; i <= s.w; i++)
        s.v[i] = is + i - 1;
    if (rank == 0) {
        s.v[0] = 0;
        for (int j = 0; j < n; j++)
            s.v[(size_t)j * ld + 1] = j;
    }
    s.ilo = rank == 0 ? 2 : 1;
    int iters, nbatch;
    double *t;
    if (prk_measure(p2p_iterate, &s, seconds, rank, &iters, &nbatch, &t)) {
        free(s.v);
        return 1;
    }
    int k = 3 + iters * nbatch, bad = 0;
    if (rank == np - 1)
        bad = prk_off(s.v[(size_t)(n - 1) * ld + (size_t)s.w], (double)k * (m + n - 2));
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    prk_report("p2p", t, nbatch, iters, bad, rank, np);
    free(s.v), free(t);
    return 0;
}

int cm_prk(const char *kernel, double seconds)
{
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (!strcmp(kernel, "nstream"))
        return prk_nstream(seconds, rank, np);
    if (!strcmp(kernel, "stencil"))
        return prk_stencil(seconds, rank, np);
    if (!strcmp(kernel, "transpose"))
        return prk_transpose(seconds, rank, np);
    if (!strcmp(kernel, "p2p"))
        return prk_p2p(seconds, rank, np);
    if (rank == 0)
        fprintf(stderr, "orma-bench-caf-mpi prk: rank %d: unknown KERNEL '%s' (nstream, stencil, transpose, p2p)\n",
                rank, kernel);
    MPI_Barrier(MPI_COMM_WORLD);
    return 2;
}
