/* mult_def.h -- what one Cannon multiplication of the mult suite is,
 * whoever runs it (seed 003 section 4, Figs 7 and 8): the block grid and
 * the index formulas of each round, the matrices, the compute kernel, the
 * reference product and the checks.  The algorithm (mult_alg.c, written
 * against li.h) and orma-bench's serial reference time (mult_serial.c)
 * both use these; nothing here depends on orma or MPI.
 *
 * Matrices are n x n doubles, column-major (element (i, j) at j * n + i),
 * split into P x P blocks of N x N, P = sqrt(p), N = n / P.  Rank pid is
 * block row pi = pid mod P, block column pj = pid div P (pid = pj * P +
 * pi: the blocks numbered column-major too), holds blocks A(pi, pj) and
 * B(pi, pj) and computes C(pi, pj) = sum over k of A(pi, k) x B(k, pj).
 *
 * Round l (0 <= l < P) of MatMul (Fig. 7, put or send): every rank sends
 * its A block to ((2P - pi - pj + l) mod P) * P + pi -- the rank of block
 * row pi and block column q = (l - pi - pj) mod P -- and its B block to
 * ((2P - pi - pj + l) mod P) + pj * P: block row q, block column pj.  So
 * rank (pi, pj) receives, in round l, A(pi, k) and B(k, pj) with k = (l -
 * pi - pj) mod P: over the P rounds every k once, the whole sum.  Within
 * a block row the map column c -> (l - pi - c) mod P is its own inverse,
 * so a rank receives its a block from the rank it sends its A block to
 * (and b from B's target).
 *
 * Round l of MatMulG (Fig. 8, get): rank (pi, pj) gets the A block of
 * ((pi + pj + l) mod P) * P + pi and the B block of ((pi + pj + l) mod P)
 * + pj * P: A(pi, k), B(k, pj) with k = (pi + pj + l) mod P.  (The
 * figures' "pj = pid div p" is div P: the square root was lost in print.)
 *
 * Then, both versions: at = transpose(a), C += at^T x b, the loop over
 * columns of at and b the seed describes (mult_acc).
 *
 * Values: A(i, j) and B(i, j) are small integers in [-4, 4], a hash
 * of the global (i, j), so every product and partial sum is an integer
 * far below 2^53: exact in double whatever the order of the additions, and
 * the parallel result must equal the reference bit for bit. */
#ifndef BENCH_MULT_DEF_H
#define BENCH_MULT_DEF_H

#include <stddef.h>

#include "opts.h"

typedef struct mult_grid {
    int p, P;   /* ranks, and P * P == p */
    int pid;
    int pi, pj; /* block row pid mod P, block column pid div P */
} mult_grid;

/* P with P * P == p, or 0 when p is not a square (or not positive). */
int mult_isqrt(int p);

/* The grid of rank pid of p.  Returns 0, or -1 when p is not a square. */
int mult_grid_init(int p, int pid, mult_grid *g);

/* The rank of block row bi, block column bj. */
static inline int mult_grid_rank(const mult_grid *g, int bi, int bj)
{
    return bj * g->P + bi;
}

/* Fig. 7, round l: where this rank's A and B blocks go, and whose A and B
 * blocks arrive here. */
int mult_put_a_target(const mult_grid *g, int l);
int mult_put_b_target(const mult_grid *g, int l);
int mult_put_a_source(const mult_grid *g, int l);
int mult_put_b_source(const mult_grid *g, int l);

/* Fig. 8, round l: whose A and B blocks this rank gets. */
int mult_get_a_source(const mult_grid *g, int l);
int mult_get_b_source(const mult_grid *g, int l);

/* The block index k of the A(pi, k) and B(k, pj) this rank multiplies in
 * round l: of MatMul (put, send) and of MatMulG (get). */
int mult_put_k(const mult_grid *g, int l);
int mult_get_k(const mult_grid *g, int l);

/* The elements, in [-4, 4]. */
double mult_a_elem(size_t i, size_t j);
double mult_b_elem(size_t i, size_t j);

/* Block (bi, bj) of A (or B when b is 1), N x N column-major, of the n x
 * n matrix. */
void mult_block_fill(double *blk, int b, size_t N, int bi, int bj);

/* at = transpose(a), N x N. */
void mult_transpose(const double *a, double *at, size_t N);

/* c += at^T x b, N x N: c(i, j) += column i of at . column j of b --
 * Fig. 7's line 9 with the transposition of line 8, which turns the row
 * of a into a contiguous column. */
void mult_acc(double *c, const double *at, const double *b, size_t N);

/* The reference block C(pi, pj) of the n x n product, straight from the
 * element formulas (another loop order than mult_acc's, no transposition):
 * ref has N x N doubles.  Returns 0, or -1 when its scratch memory could
 * not be allocated. */
int mult_reference(const mult_grid *g, size_t n, double *ref);

/* 1 when c equals ref (N x N); else 0 with a message in msg naming the
 * first wrong element (local and global indices, what it held and should)
 * and how many are wrong. */
int mult_check(const mult_grid *g, size_t n, const double *c,
               const double *ref, char *msg, size_t len);

/* The suite's default orders n for nprocs ranks (li_suite's sizes): 320
 * and 640 (seed 003's Table 1), with --quick 64 and 160, each rounded up to
 * a multiple of P = sqrt(nprocs) when nprocs is a square. */
void mult_default_sizes(bench_opts *o, int nprocs);

/* Larger n are refused: the serial reference holds four n x n matrices. */
#define MULT_MAX_N 4096

/* 1 when order n can be split among P x P ranks: a positive multiple of P
 * up to MULT_MAX_N (the suite skips the others with a note). */
static inline int mult_size_ok(size_t n, int P)
{
    return n > 0 && n % (size_t)P == 0 && n <= MULT_MAX_N;
}

#endif
