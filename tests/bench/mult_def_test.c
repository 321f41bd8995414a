/* mult_def_test.c -- the mult suite's index formulas, kernel and checks
 * (bench/mult/mult_def.h, bench/mult/mult_area.h), in one process:
 *   - Fig. 7's targets and the sources derived from them agree (what rank
 *     s puts in round l lands on a rank whose source is s), every rank
 *     gets exactly one a and one b per round, and they are A(pi, k) and
 *     B(k, pj) with every k once over the P rounds; Fig. 8's sources too;
 *     a few values worked out by hand from the figures;
 *   - MatMul and MatMulG simulated with memcpy between p ranks' blocks
 *     give every rank the reference block exactly, at several p and n;
 *     a skipped round, a stale block and a changed element are caught;
 *   - the area's check accepts what a version writes and catches a guard
 *     byte, a write into a buffer the version does not use, a changed A. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mult_area.h"
#include "mult_def.h"

#define MAXP 36

static void check_isqrt(void)
{
    CHECK(mult_isqrt(1) == 1 && mult_isqrt(4) == 2 && mult_isqrt(9) == 3);
    CHECK(mult_isqrt(16) == 4 && mult_isqrt(25) == 5);
    CHECK(mult_isqrt(0) == 0 && mult_isqrt(2) == 0 && mult_isqrt(3) == 0);
    CHECK(mult_isqrt(8) == 0 && mult_isqrt(15) == 0 && mult_isqrt(-4) == 0);
    mult_grid g;
    CHECK(mult_grid_init(2, 0, &g) == -1);
    CHECK(mult_grid_init(9, 5, &g) == 0);
    CHECK(g.P == 3 && g.pi == 2 && g.pj == 1);
}

/* The figures' formulas by hand, p = 9, pid = 5 (pi = 2, pj = 1). */
static void check_by_hand(void)
{
    mult_grid g;
    mult_grid_init(9, 5, &g);
    /* Fig. 7 l = 0: ((6 - 2 - 1 + 0) mod 3) * 3 + 2 = 2; B: 0 + 1 * 3. */
    CHECK(mult_put_a_target(&g, 0) == 2 && mult_put_b_target(&g, 0) == 3);
    /* l = 1: (4 mod 3) * 3 + 2 = 5, B: 1 + 3 = 4. */
    CHECK(mult_put_a_target(&g, 1) == 5 && mult_put_b_target(&g, 1) == 4);
    /* Fig. 8 l = 0: ((2 + 1 + 0) mod 3) * 3 + 2 = 2; B: 0 + 3 = 3. */
    CHECK(mult_get_a_source(&g, 0) == 2 && mult_get_b_source(&g, 0) == 3);
    /* l = 2: (5 mod 3) * 3 + 2 = 8; B: 2 + 3 = 5. */
    CHECK(mult_get_a_source(&g, 2) == 8 && mult_get_b_source(&g, 2) == 5);
}

static void check_rounds(int p)
{
    mult_grid g[MAXP];
    for (int r = 0; r < p; r++)
        CHECK(mult_grid_init(p, r, &g[r]) == 0);
    int P = g[0].P;
    int seen_put[MAXP][MAXP] = {{0}}, seen_get[MAXP][MAXP] = {{0}};
    for (int l = 0; l < P; l++) {
        int got_a[MAXP] = {0}, got_b[MAXP] = {0};
        for (int s = 0; s < p; s++) {
            int ta = mult_put_a_target(&g[s], l);
            int tb = mult_put_b_target(&g[s], l);
            CHECK(ta >= 0 && ta < p && tb >= 0 && tb < p);
            CHECK(mult_put_a_source(&g[ta], l) == s);
            CHECK(mult_put_b_source(&g[tb], l) == s);
            got_a[ta]++;
            got_b[tb]++;
        }
        for (int r = 0; r < p; r++) {
            CHECK(got_a[r] == 1 && got_b[r] == 1);
            /* Put: a = A(pi, k), b = B(k, pj), k = put_k. */
            int k = mult_put_k(&g[r], l);
            const mult_grid *sa = &g[mult_put_a_source(&g[r], l)];
            const mult_grid *sb = &g[mult_put_b_source(&g[r], l)];
            CHECK(sa->pi == g[r].pi && sa->pj == k);
            CHECK(sb->pi == k && sb->pj == g[r].pj);
            seen_put[r][k]++;
            /* Get: the same with get_k. */
            k = mult_get_k(&g[r], l);
            sa = &g[mult_get_a_source(&g[r], l)];
            sb = &g[mult_get_b_source(&g[r], l)];
            CHECK(sa->pi == g[r].pi && sa->pj == k);
            CHECK(sb->pi == k && sb->pj == g[r].pj);
            seen_get[r][k]++;
        }
    }
    for (int r = 0; r < p; r++)
        for (int k = 0; k < P; k++)
            CHECK(seen_put[r][k] == 1 && seen_get[r][k] == 1);
}

/* p ranks' A and B blocks, and one rank's multiplication by either figure,
 * with the blocks copied from their owners as the rounds name them.
 * skip: a round not computed (-1: none); stale: a round whose blocks are
 * the previous round's (-1: none). */
typedef struct sim {
    int p;
    size_t n, N;
    mult_grid g[MAXP];
    double *A[MAXP], *B[MAXP];
    double *a, *b, *at, *c, *ref;
} sim;

static void sim_open(sim *s, int p, size_t n)
{
    s->p = p;
    s->n = n;
    for (int r = 0; r < p; r++)
        mult_grid_init(p, r, &s->g[r]);
    s->N = n / (size_t)s->g[0].P;
    size_t bytes = s->N * s->N * sizeof(double);
    for (int r = 0; r < p; r++) {
        s->A[r] = malloc(bytes);
        s->B[r] = malloc(bytes);
        CHECK(s->A[r] != NULL && s->B[r] != NULL);
        mult_block_fill(s->A[r], 0, s->N, s->g[r].pi, s->g[r].pj);
        mult_block_fill(s->B[r], 1, s->N, s->g[r].pi, s->g[r].pj);
    }
    s->a = malloc(bytes);
    s->b = malloc(bytes);
    s->at = malloc(bytes);
    s->c = malloc(bytes);
    s->ref = malloc(bytes);
    CHECK(s->a && s->b && s->at && s->c && s->ref);
}

static void sim_close(sim *s)
{
    for (int r = 0; r < s->p; r++) {
        free(s->A[r]);
        free(s->B[r]);
    }
    free(s->a);
    free(s->b);
    free(s->at);
    free(s->c);
    free(s->ref);
}

static int sim_rank(sim *s, int r, int get, int skip, int stale)
{
    const mult_grid *g = &s->g[r];
    size_t bytes = s->N * s->N * sizeof(double);
    memset(s->c, 0, bytes);
    for (int l = 0; l < g->P; l++) {
        if (l != stale) {
            int sa = get ? mult_get_a_source(g, l) : mult_put_a_source(g, l);
            int sb = get ? mult_get_b_source(g, l) : mult_put_b_source(g, l);
            memcpy(s->a, s->A[sa], bytes);
            memcpy(s->b, s->B[sb], bytes);
        }
        if (l == skip)
            continue;
        mult_transpose(s->a, s->at, s->N);
        mult_acc(s->c, s->at, s->b, s->N);
    }
    CHECK(mult_reference(g, s->n, s->ref) == 0);
    char msg[256];
    return mult_check(g, s->n, s->c, s->ref, msg, sizeof msg);
}

static void check_product(int p, size_t n)
{
    sim s;
    sim_open(&s, p, n);
    for (int r = 0; r < p; r++) {
        CHECK(sim_rank(&s, r, 0, -1, -1));
        CHECK(sim_rank(&s, r, 1, -1, -1));
    }
    if (s.g[0].P > 1) {
        CHECK(!sim_rank(&s, p - 1, 0, 1, -1));
        CHECK(!sim_rank(&s, p - 1, 1, 0, -1));
        CHECK(!sim_rank(&s, 0, 0, -1, 1));
        CHECK(!sim_rank(&s, 0, 1, -1, 1));
    }
    /* One element off by one. */
    CHECK(sim_rank(&s, 0, 0, -1, -1));
    char msg[256];
    s.c[s.N * s.N - 1] += 1.0;
    CHECK(!mult_check(&s.g[0], n, s.c, s.ref, msg, sizeof msg));
    sim_close(&s);
}

static void check_area(size_t N)
{
    mult_area m;
    mult_area_init(N, &m);
    CHECK(m.bytes == MULT_GUARD + MULT_NREGION * (m.block + MULT_GUARD));
    unsigned char *mem = malloc(m.bytes);
    double *A = malloc(m.block), *B = malloc(m.block);
    CHECK(mem && A && B);
    mult_block_fill(A, 0, N, 1, 0);
    mult_block_fill(B, 1, N, 0, 1);
    mult_area_fill(mem, &m, A, B);
    char msg[256];
    CHECK(mult_area_check(mem, &m, MULT_WRITES_ONE, A, B, msg, sizeof msg));
    CHECK(mult_area_check(mem, &m, MULT_WRITES_PUT, A, B, msg, sizeof msg));
    /* What put writes (a1, b1) is fine for put, not for get or send. */
    memcpy(mem + mult_area_off(&m, MULT_A0), A, m.block);
    memcpy(mem + mult_area_off(&m, MULT_B1), B, m.block);
    CHECK(mult_area_check(mem, &m, MULT_WRITES_PUT, A, B, msg, sizeof msg));
    CHECK(!mult_area_check(mem, &m, MULT_WRITES_ONE, A, B, msg, sizeof msg));
    mult_area_clear(mem, &m, MULT_WRITES_PUT);
    CHECK(mult_area_check(mem, &m, MULT_WRITES_ONE, A, B, msg, sizeof msg));
    /* A guard byte: the first, one between regions, the last. */
    size_t guards[] = {0, mult_area_off(&m, MULT_A1) - 1, m.bytes - 1};
    for (size_t i = 0; i < sizeof guards / sizeof guards[0]; i++) {
        mem[guards[i]] ^= 0x10;
        CHECK(!mult_area_check(mem, &m, MULT_WRITES_PUT, A, B, msg,
                               sizeof msg));
        mem[guards[i]] ^= 0x10;
    }
    /* A zeroed area, and a changed byte of B. */
    unsigned char keep = mem[mult_area_off(&m, MULT_B) + m.block / 2];
    mem[mult_area_off(&m, MULT_B) + m.block / 2] ^= 1;
    CHECK(!mult_area_check(mem, &m, MULT_WRITES_PUT, A, B, msg, sizeof msg));
    mem[mult_area_off(&m, MULT_B) + m.block / 2] = keep;
    CHECK(mult_area_check(mem, &m, MULT_WRITES_PUT, A, B, msg, sizeof msg));
    memset(mem, 0, m.bytes);
    CHECK(!mult_area_check(mem, &m, MULT_WRITES_PUT, A, B, msg, sizeof msg));
    free(mem);
    free(A);
    free(B);
}

int main(void)
{
    check_isqrt();
    check_by_hand();
    for (int P = 1; P * P <= MAXP; P++)
        check_rounds(P * P);
    static const size_t orders[] = {1, 2, 3, 4};
    for (int P = 1; P <= 4; P++)
        for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
            check_product(P * P, (size_t)P * orders[i] * 3);
    check_area(1);
    check_area(5);
    check_area(16);
    return 0;
}
