/* rdx_def.c -- the rdx suite's arithmetic (rdx_def.h). */
#include <stdio.h>
#include <string.h>

#include "mix64.h"
#include "rdx_def.h"

const char *const rdx_op_names[] = {"put", "put_opt", "send", NULL};
const char *const rdx_sync_names[] = {"fence", "p2p", NULL};

const char *rdx_sync_name(rdx_version v)
{
    return v == RDX_SEND ? "p2p" : "fence";
}

const char *rdx_window_name(rdx_version v)
{
    return v == RDX_SEND ? "none" : "allocate";
}

int rdx_version_on(const bench_opts *o, rdx_version v, int two_sided)
{
    return (v == RDX_SEND) == (two_sided != 0) &&
           bench_list_has(o->ops, rdx_op_names[v]) &&
           bench_list_has(o->syncs, rdx_sync_name(v));
}

void rdx_default_sizes(bench_opts *o, int nprocs)
{
    /* 15 x 2^k keys: near 64K, 1M and 4M, and divisible by every p up
     * to 6 and by 8, 10, 12, 15, 16 (a power of two is not by 3), so that
     * runs at those p sort the same keys. */
    size_t p = nprocs > 0 ? (size_t)nprocs : 1;
    o->sizes[0] = o->quick ? (size_t)60 << 10 : (size_t)960 << 10;
    o->sizes[1] = o->quick ? (size_t)960 << 10 : (size_t)3840 << 10;
    o->nsizes = 2;
    for (int i = 0; i < o->nsizes; i++)
        o->sizes[i] -= o->sizes[i] % p;
}

uint64_t rdx_seed(size_t n, uint64_t s)
{
    return bench_mix64(bench_mix64((uint64_t)n) + s);
}

/* splitmix64's i-th output: random access by index, which is what makes
 * the input independent of how it is distributed. */
uint32_t rdx_key(uint64_t seed, uint64_t i)
{
    return (uint32_t)(bench_mix64(seed + (i + 1) * UINT64_C(0x9e3779b97f4a7c15)) >>
                      32);
}

/* Another mix than the generator's, so that the hash of a key is not a
 * neighbour of the state that made it. */
static uint64_t key_hash(uint32_t k)
{
    return bench_mix64((uint64_t)k ^ UINT64_C(0x5851f42d4c957f2d));
}

uint64_t rdx_keys_fill(uint32_t *keys, size_t m, uint64_t seed,
                       uint64_t first)
{
    uint64_t h = 0;
    for (size_t i = 0; i < m; i++) {
        keys[i] = rdx_key(seed, first + i);
        h += key_hash(keys[i]);
    }
    return h;
}

uint64_t rdx_keys_hash(const uint32_t *keys, size_t m)
{
    uint64_t h = 0;
    for (size_t i = 0; i < m; i++)
        h += key_hash(keys[i]);
    return h;
}

void rdx_count(const uint32_t *keys, size_t m, int round,
               uint32_t cnt[RDX_RADIX])
{
    memset(cnt, 0, RDX_RADIX * sizeof *cnt);
    for (size_t i = 0; i < m; i++)
        cnt[rdx_digit(keys[i], round)]++;
}

void rdx_starts(const uint32_t cnt[RDX_RADIX], size_t start[RDX_RADIX])
{
    size_t s = 0;
    for (int d = 0; d < RDX_RADIX; d++) {
        start[d] = s;
        s += cnt[d];
    }
}

void rdx_scatter(const uint32_t *keys, size_t m, int round,
                 const uint32_t cnt[RDX_RADIX], uint32_t *out)
{
    size_t pos[RDX_RADIX];
    rdx_starts(cnt, pos);
    for (size_t i = 0; i < m; i++)
        out[pos[rdx_digit(keys[i], round)]++] = keys[i];
}

void rdx_seq_sort(uint32_t *keys, uint32_t *tmp, size_t n)
{
    uint32_t cnt[RDX_RADIX];
    uint32_t *src = keys, *dst = tmp;
    for (int r = 0; r < RDX_ROUNDS; r++) {
        rdx_count(src, n, r, cnt);
        rdx_scatter(src, n, r, cnt, dst);
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    /* An even number of rounds ends where it began. */
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
}

/* base[d]: where digit d begins in the whole sorted sequence. */
static void digit_bases(const uint32_t *table, int p, uint64_t base[RDX_RADIX])
{
    uint64_t s = 0;
    for (int d = 0; d < RDX_RADIX; d++) {
        base[d] = s;
        for (int q = 0; q < p; q++)
            s += table[(size_t)q * RDX_RADIX + (size_t)d];
    }
}

void rdx_prefix(const uint32_t *table, int p, int pid, uint64_t g[RDX_RADIX])
{
    digit_bases(table, p, g);
    for (int q = 0; q < pid; q++)
        for (int d = 0; d < RDX_RADIX; d++)
            g[d] += table[(size_t)q * RDX_RADIX + (size_t)d];
}

void rdx_prefix_all(const uint32_t *table, int p, uint64_t *g)
{
    digit_bases(table, p, g);
    for (int q = 1; q < p; q++)
        for (int d = 0; d < RDX_RADIX; d++) {
            size_t i = (size_t)q * RDX_RADIX + (size_t)d;
            g[i] = g[i - RDX_RADIX] + table[i - RDX_RADIX];
        }
}

size_t rdx_overlap(uint64_t g, size_t len, int r, size_t m, size_t *off_p)
{
    uint64_t lo = (uint64_t)r * m, hi = lo + m;
    uint64_t a = g > lo ? g : lo, b = g + len < hi ? g + len : hi;
    *off_p = a < b ? (size_t)(a - lo) : 0;
    return a < b ? (size_t)(b - a) : 0;
}

size_t rdx_recv_count(const uint64_t g[RDX_RADIX],
                      const uint32_t cnt[RDX_RADIX], int r, size_t m)
{
    size_t k = 0, off;
    for (int d = 0; d < RDX_RADIX; d++)
        k += rdx_overlap(g[d], cnt[d], r, m, &off);
    return k;
}

void rdx_send_counts(const uint64_t g[RDX_RADIX],
                     const uint32_t cnt[RDX_RADIX], int p, size_t m,
                     size_t *out)
{
    memset(out, 0, (size_t)p * sizeof *out);
    for (int d = 0; d < RDX_RADIX; d++) {
        uint64_t at = g[d];
        size_t left = cnt[d];
        while (left > 0) {
            rdx_piece pc = rdx_piece_at(at, left, m);
            out[pc.pid] += pc.len;
            at += pc.len;
            left -= pc.len;
        }
    }
}

void rdx_unpack(const uint32_t *msg, const uint64_t g[RDX_RADIX],
                const uint32_t cnt[RDX_RADIX], int r, size_t m,
                uint32_t *dst)
{
    for (int d = 0; d < RDX_RADIX; d++) {
        size_t off;
        size_t k = rdx_overlap(g[d], cnt[d], r, m, &off);
        memcpy(dst + off, msg, k * sizeof *msg);
        msg += k;
    }
}

void rdx_rec_make(uint64_t in_hash, const uint32_t *out, size_t m,
                  rdx_rec *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->in_hash = in_hash;
    rec->out_hash = rdx_keys_hash(out, m);
    rec->unsorted = m;
    for (size_t i = 0; i + 1 < m; i++)
        if (out[i] > out[i + 1]) {
            rec->unsorted = i;
            break;
        }
    rec->first = out[0];
    rec->last = out[m - 1];
}

int rdx_check(const rdx_rec *recs, int p, int pid, size_t m, char *msg,
              size_t len)
{
    const rdx_rec *me = &recs[pid];
    if (me->unsorted < m) {
        snprintf(msg, len, "its keys are not sorted: key %llu of %zu is "
                 "above the next",
                 (unsigned long long)me->unsorted, m);
        return 0;
    }
    if (pid + 1 < p && me->last > recs[pid + 1].first) {
        snprintf(msg, len, "its last key %lu is above rank %d's first %lu",
                 (unsigned long)me->last, pid + 1,
                 (unsigned long)recs[pid + 1].first);
        return 0;
    }
    if (pid == 0) {
        uint64_t in = 0, out = 0;
        for (int q = 0; q < p; q++) {
            in += recs[q].in_hash;
            out += recs[q].out_hash;
        }
        if (in != out) {
            snprintf(msg, len, "the output is not a permutation of the "
                     "input (key hash sums %016llx in, %016llx out)",
                     (unsigned long long)in, (unsigned long long)out);
            return 0;
        }
    }
    return 1;
}
