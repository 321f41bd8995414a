/* mult_def.c -- see mult_def.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix64.h"
#include "mult_def.h"

int mult_isqrt(int p)
{
    int r = 1;
    while ((long)r * r < p)
        r++;
    return p > 0 && (long)r * r == p ? r : 0;
}

int mult_grid_init(int p, int pid, mult_grid *g)
{
    int P = mult_isqrt(p);
    if (P == 0)
        return -1;
    g->p = p;
    g->P = P;
    g->pid = pid;
    g->pi = pid % P;
    g->pj = pid / P;
    return 0;
}

/* (2P - pi - pj + l) mod P, the column (row) of Fig. 7's lines 5 and 6;
 * 2P keeps the sum positive for pi, pj < P. */
static int put_index(const mult_grid *g, int l)
{
    return (2 * g->P - g->pi - g->pj + l) % g->P;
}

/* (pi + pj + l) mod P, Fig. 8's lines 5 and 6. */
static int get_index(const mult_grid *g, int l)
{
    return (g->pi + g->pj + l) % g->P;
}

int mult_put_a_target(const mult_grid *g, int l)
{
    return put_index(g, l) * g->P + g->pi;
}

int mult_put_b_target(const mult_grid *g, int l)
{
    return put_index(g, l) + g->pj * g->P;
}

/* Rank (pi, c) puts its A into block column (l - pi - c) mod P of row pi:
 * the sender of this rank's a is the c with (l - pi - c) = pj (mod P),
 * c = (l - pi - pj) mod P -- put_index again. */
int mult_put_a_source(const mult_grid *g, int l)
{
    return mult_grid_rank(g, g->pi, put_index(g, l));
}

/* Rank (r, pj) puts its B into block row (l - r - pj) mod P of column pj:
 * the sender of this rank's b has r = (l - pi - pj) mod P. */
int mult_put_b_source(const mult_grid *g, int l)
{
    return mult_grid_rank(g, put_index(g, l), g->pj);
}

int mult_get_a_source(const mult_grid *g, int l)
{
    return get_index(g, l) * g->P + g->pi;
}

int mult_get_b_source(const mult_grid *g, int l)
{
    return get_index(g, l) + g->pj * g->P;
}

int mult_put_k(const mult_grid *g, int l)
{
    return put_index(g, l);
}

int mult_get_k(const mult_grid *g, int l)
{
    return get_index(g, l);
}

/* A hash of (i, j, which matrix) reduced to [-4, 4]: a linear formula
 * modulo 9 repeats every 9 rows and columns, and with N a multiple of 9
 * every block would be equal -- a block from the wrong rank or round
 * would go unnoticed.  The mixing is splitmix64's finalizer. */
static double elem(uint64_t i, uint64_t j, uint64_t which)
{
    uint64_t x = i * UINT64_C(0x9e3779b97f4a7c15) ^
                 (j + which * UINT64_C(0x632be59bd9b4e019)) *
                     UINT64_C(0xc2b2ae3d27d4eb4f);
    return (double)(int)(bench_mix64(x) % 9) - 4.0;
}

double mult_a_elem(size_t i, size_t j)
{
    return elem(i, j, 0);
}

double mult_b_elem(size_t i, size_t j)
{
    return elem(i, j, 1);
}

void mult_block_fill(double *blk, int b, size_t N, int bi, int bj)
{
    size_t i0 = (size_t)bi * N, j0 = (size_t)bj * N;
    for (size_t j = 0; j < N; j++)
        for (size_t i = 0; i < N; i++)
            blk[j * N + i] = b ? mult_b_elem(i0 + i, j0 + j)
                               : mult_a_elem(i0 + i, j0 + j);
}

void mult_transpose(const double *restrict a, double *restrict at, size_t N)
{
    for (size_t j = 0; j < N; j++)
        for (size_t i = 0; i < N; i++)
            at[i * N + j] = a[j * N + i];
}

void mult_acc(double *restrict c, const double *restrict at,
              const double *restrict b, size_t N)
{
    for (size_t j = 0; j < N; j++) {
        const double *bj = b + j * N;
        for (size_t i = 0; i < N; i++) {
            const double *ai = at + i * N;
            double s = 0.0;
            for (size_t k = 0; k < N; k++)
                s += ai[k] * bj[k];
            c[j * N + i] += s;
        }
    }
}

/* The block row of A (N x n) and block column of B (n x N) this rank's C
 * needs, then C = sum over k of A(:, k) B(k, :) as column updates: the
 * loop order of no version of the algorithm. */
int mult_reference(const mult_grid *g, size_t n, double *ref)
{
    size_t N = n / (size_t)g->P;
    size_t i0 = (size_t)g->pi * N, j0 = (size_t)g->pj * N;
    double *arow = malloc(N * n * sizeof *arow);
    double *bcol = malloc(n * N * sizeof *bcol);
    if (arow == NULL || bcol == NULL) {
        free(arow);
        free(bcol);
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < N; i++)
            arow[k * N + i] = mult_a_elem(i0 + i, k);
    for (size_t j = 0; j < N; j++)
        for (size_t k = 0; k < n; k++)
            bcol[j * n + k] = mult_b_elem(k, j0 + j);
    for (size_t j = 0; j < N; j++) {
        double *cj = ref + j * N;
        for (size_t i = 0; i < N; i++)
            cj[i] = 0.0;
        for (size_t k = 0; k < n; k++) {
            double bkj = bcol[j * n + k];
            const double *ak = arow + k * N;
            for (size_t i = 0; i < N; i++)
                cj[i] += ak[i] * bkj;
        }
    }
    free(arow);
    free(bcol);
    return 0;
}

int mult_check(const mult_grid *g, size_t n, const double *c,
               const double *ref, char *msg, size_t len)
{
    size_t N = n / (size_t)g->P;
    size_t bad = 0, first = 0;
    for (size_t x = 0; x < N * N; x++)
        /* memcmp: exact, and a NaN from a block that never arrived is
         * wrong too. */
        if (memcmp(&c[x], &ref[x], sizeof c[x]) != 0 && bad++ == 0)
            first = x;
    if (bad == 0)
        return 1;
    size_t i = first % N, j = first / N;
    snprintf(msg, len,
             "C block (%d, %d) element (%zu, %zu), global (%zu, %zu), is "
             "%g instead of %g (%zu of %zu elements wrong)",
             g->pi, g->pj, i, j, (size_t)g->pi * N + i,
             (size_t)g->pj * N + j, c[first], ref[first], bad, N * N);
    return 0;
}

static const size_t seed_sizes[] = {320, 640};
static const size_t quick_sizes[] = {64, 160};

void mult_default_sizes(bench_opts *o, int nprocs)
{
    const size_t *s = o->quick ? quick_sizes : seed_sizes;
    size_t P = (size_t)mult_isqrt(nprocs);
    if (P == 0)
        P = 1;
    o->nsizes = 2;
    for (int i = 0; i < o->nsizes; i++)
        o->sizes[i] = (s[i] + P - 1) / P * P;
}
