/* rdx_def_test.c -- the rdx suite's arithmetic (bench/rdx/rdx_def.h), in one
 * process:
 *   - a run straddling rank boundaries splits into the right pieces, and
 *     rdx_overlap sees the same pieces from the receivers' side;
 *   - the input depends on the global index alone; the count sort is
 *     stable; the sequential sort sorts (against qsort);
 *   - the parallel sort simulated with memcpy between p arrays, routed
 *     both ways (a copy per piece as the puts do, and one message per
 *     destination placed by rdx_unpack as the send version does), sorts
 *     what the sequential one sorts, for p = 1..7 and inputs whose runs
 *     straddle many ranks (few keys, all keys alike in a digit);
 *   - rdx_check passes a sorted output and catches an unsorted rank, a
 *     bad boundary and a key that changed. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rdx_def.h"

#define MAXP 7

static void check_pieces(void)
{
    /* 10 keys from global position 5, 4 keys per rank: 1 on rank 1 at
     * offset 1 (3 keys), all 4 of rank 2, 3 keys at the start of rank 3. */
    rdx_piece pc = rdx_piece_at(5, 10, 4);
    CHECK(pc.pid == 1 && pc.off == 1 && pc.len == 3);
    pc = rdx_piece_at(8, 7, 4);
    CHECK(pc.pid == 2 && pc.off == 0 && pc.len == 4);
    pc = rdx_piece_at(12, 3, 4);
    CHECK(pc.pid == 3 && pc.off == 0 && pc.len == 3);
    /* A run that ends exactly at a boundary has one piece. */
    pc = rdx_piece_at(6, 2, 4);
    CHECK(pc.pid == 1 && pc.off == 2 && pc.len == 2);

    size_t off;
    CHECK(rdx_overlap(5, 10, 0, 4, &off) == 0 && off == 0);
    CHECK(rdx_overlap(5, 10, 1, 4, &off) == 3 && off == 1);
    CHECK(rdx_overlap(5, 10, 2, 4, &off) == 4 && off == 0);
    CHECK(rdx_overlap(5, 10, 3, 4, &off) == 3 && off == 0);
    CHECK(rdx_overlap(5, 10, 4, 4, &off) == 0);
    CHECK(rdx_overlap(5, 0, 1, 4, &off) == 0);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void check_keys_and_sorts(void)
{
    enum { N = 3000 };
    static uint32_t k[N], t[N], ref[N];
    uint64_t seed = rdx_seed(N, 3);
    CHECK(seed != rdx_seed(N, 4) && seed != rdx_seed(N + 1, 3));
    uint64_t h = rdx_keys_fill(k, N, seed, 0);
    CHECK(h == rdx_keys_hash(k, N));
    /* Keys by global index: a rank's share is the same keys. */
    uint64_t h2 = rdx_keys_fill(t, 100, seed, 1000);
    CHECK(memcmp(t, k + 1000, 100 * sizeof *t) == 0);
    CHECK(h2 == rdx_keys_hash(k + 1000, 100));

    /* Stable: keys with the same low digit keep their order. */
    uint32_t cnt[RDX_RADIX];
    rdx_count(k, N, 0, cnt);
    rdx_scatter(k, N, 0, cnt, t);
    size_t start[RDX_RADIX];
    rdx_starts(cnt, start);
    for (size_t i = 0; i < N; i++) {
        unsigned d = rdx_digit(k[i], 0);
        CHECK(t[start[d]++] == k[i]);
    }

    memcpy(ref, k, sizeof k);
    qsort(ref, N, sizeof *ref, cmp_u32);
    rdx_seq_sort(k, t, N);
    CHECK(memcmp(k, ref, sizeof k) == 0);
    rdx_seq_sort(k, t, 1);
    CHECK(memcmp(k, ref, sizeof k) == 0);
}

/* One round of the parallel sort over p ranks of m keys, in memory:
 * in[q] to out[q].  by_message: the send version's routing. */
static void sim_round(int p, size_t m, int r, uint32_t *const *in,
                      uint32_t *const *out, uint32_t *const *local,
                      int by_message)
{
    static uint32_t table[MAXP * RDX_RADIX];
    static uint64_t g[MAXP * RDX_RADIX];
    for (int q = 0; q < p; q++) {
        uint32_t *c = table + (size_t)q * RDX_RADIX;
        rdx_count(in[q], m, r, c);
        rdx_scatter(in[q], m, r, c, local[q]);
    }
    rdx_prefix_all(table, p, g);
    for (int q = 0; q < p; q++) {
        uint64_t row[RDX_RADIX];
        rdx_prefix(table, p, q, row);
        CHECK(memcmp(row, g + (size_t)q * RDX_RADIX, sizeof row) == 0);
    }
    for (int s = 0; s < p; s++) {
        const uint32_t *c = table + (size_t)s * RDX_RADIX;
        const uint64_t *gs = g + (size_t)s * RDX_RADIX;
        if (by_message) {
            size_t sendc[MAXP], off = 0, total = 0;
            rdx_send_counts(gs, c, p, m, sendc);
            for (int q = 0; q < p; q++) {
                CHECK(sendc[q] == rdx_recv_count(gs, c, q, m));
                rdx_unpack(local[s] + off, gs, c, q, m, out[q]);
                off += sendc[q];
                total += sendc[q];
            }
            CHECK(total == m);
            continue;
        }
        size_t start[RDX_RADIX];
        rdx_starts(c, start);
        for (int d = 0; d < RDX_RADIX; d++) {
            const uint32_t *src = local[s] + start[d];
            uint64_t at = gs[d];
            size_t left = c[d];
            while (left > 0) {
                rdx_piece pc = rdx_piece_at(at, left, m);
                CHECK(pc.pid < p && pc.off + pc.len <= m && pc.len > 0);
                memcpy(out[pc.pid] + pc.off, src, pc.len * sizeof *src);
                src += pc.len;
                at += pc.len;
                left -= pc.len;
            }
        }
    }
}

/* keys: n = p * m keys, sorted in place through the simulation. */
static void sim_sort(int p, size_t m, uint32_t *keys, int by_message)
{
    uint32_t *a[MAXP], *b[MAXP], *loc[MAXP];
    uint32_t *buf = calloc((size_t)p * m * 3, sizeof *buf);
    CHECK(buf != NULL);
    for (int q = 0; q < p; q++) {
        a[q] = buf + (size_t)q * m;
        b[q] = buf + ((size_t)p + (size_t)q) * m;
        loc[q] = buf + (2 * (size_t)p + (size_t)q) * m;
        memcpy(a[q], keys + (size_t)q * m, m * sizeof *keys);
    }
    for (int r = 0; r < RDX_ROUNDS; r++)
        sim_round(p, m, r, r % 2 ? b : a, r % 2 ? a : b, loc, by_message);
    for (int q = 0; q < p; q++)
        memcpy(keys + (size_t)q * m, a[q], m * sizeof *keys);
    free(buf);
}

static void check_parallel(int p, size_t m, int skew)
{
    size_t n = (size_t)p * m;
    uint32_t *k = malloc(n * sizeof *k), *ref = malloc(n * sizeof *k);
    uint32_t *tmp = malloc(n * sizeof *k);
    CHECK(k != NULL && ref != NULL && tmp != NULL);
    rdx_keys_fill(ref, n, rdx_seed(n, 0), 0);
    /* skew: one value in the low digits, so a round's runs are few and
     * long and straddle every rank. */
    for (size_t i = 0; skew && i < n; i++)
        ref[i] = (ref[i] & 0xff030000u) | 0x00001234u;
    memcpy(k, ref, n * sizeof *k);
    rdx_seq_sort(ref, tmp, n);
    for (int by_message = 0; by_message < 2; by_message++) {
        memcpy(tmp, k, n * sizeof *k);
        sim_sort(p, m, tmp, by_message);
        CHECK(memcmp(tmp, ref, n * sizeof *k) == 0);
    }
    free(tmp);
    free(ref);
    free(k);
}

static void check_check(void)
{
    enum { P = 3, M = 4 };
    uint32_t out[P * M] = {1, 2, 2, 5, 5, 7, 9, 9, 10, 20, 30, 40};
    uint32_t in[P * M] = {9, 2, 40, 5, 7, 1, 30, 9, 10, 5, 20, 2};
    rdx_rec recs[P];
    char msg[200];
    for (int q = 0; q < P; q++)
        rdx_rec_make(rdx_keys_hash(in + q * M, M), out + q * M, M, &recs[q]);
    for (int q = 0; q < P; q++)
        CHECK(rdx_check(recs, P, q, M, msg, sizeof msg));

    rdx_rec bad[P];
    /* Rank 1 unsorted. */
    memcpy(bad, recs, sizeof bad);
    uint32_t o1[M] = {5, 9, 7, 9};
    rdx_rec_make(recs[1].in_hash, o1, M, &bad[1]);
    CHECK(bad[1].unsorted == 1);
    CHECK(!rdx_check(bad, P, 1, M, msg, sizeof msg));
    CHECK(strstr(msg, "not sorted") != NULL);
    CHECK(rdx_check(bad, P, 2, M, msg, sizeof msg));
    /* Rank 0's last above rank 1's first. */
    memcpy(bad, recs, sizeof bad);
    uint32_t o0[M] = {1, 2, 2, 6};
    rdx_rec_make(recs[0].in_hash, o0, M, &bad[0]);
    CHECK(!rdx_check(bad, P, 0, M, msg, sizeof msg));
    CHECK(strstr(msg, "rank 1's first") != NULL);
    /* A key changed (still sorted, boundaries fine): rank 0 sees it. */
    memcpy(bad, recs, sizeof bad);
    uint32_t o2[M] = {10, 20, 31, 40};
    rdx_rec_make(recs[2].in_hash, o2, M, &bad[2]);
    CHECK(rdx_check(bad, P, 2, M, msg, sizeof msg));
    CHECK(!rdx_check(bad, P, 0, M, msg, sizeof msg));
    CHECK(strstr(msg, "permutation") != NULL);
}

int main(void)
{
    check_pieces();
    check_keys_and_sorts();
    static const size_t ms[] = {1, 2, 3, 100, 1000};
    for (int p = 1; p <= MAXP; p++)
        for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
            for (int skew = 0; skew < 2; skew++)
                check_parallel(p, ms[i], skew);
    check_check();
    return 0;
}
