/* rdx_def.h -- the rdx suite's arithmetic, without communication: seed
 * 003's parallel radix sort (section 5, Figs. 9 and 10) of n uint32 keys
 * over p ranks, m = n / p keys per rank.
 *
 * Input: key i (the global index, 0 <= i < n) of sample s is a uniformly
 * random 32-bit value fixed by (n, s, i) alone (rdx_key), so every rank
 * count sorts the same set; rank pid holds keys pid * m .. pid * m + m - 1.
 * Output: the same keys sorted, rank pid holding positions pid * m ..
 * pid * m + m - 1 of the sorted sequence.
 *
 * A sort is RDX_ROUNDS rounds of count sort on 8-bit digits, least
 * significant first.  In a round every rank counts its keys per digit
 * (cnt, 256 counts) and scatters them stably into digit order (the local
 * count sort); the counts of every rank form the table T[s][d]; the keys of
 * digit d on rank s go to the global positions
 *
 *   G[s][d] = sum over d' < d of (sum over all s' of T[s'][d'])
 *             + sum over s' < s of T[s'][d]
 *
 * onwards (rdx_prefix), in local order -- which keeps the count sort
 * stable across ranks.  The run of digit d may straddle rank boundaries
 * (it is split into pieces, one per destination rank: rdx_piece_at), and
 * because G[s][.] increases with d, the destination of a rank's keys in
 * local (digit) order never decreases: the keys a rank sends to one
 * destination are contiguous after its local count sort (rdx_send_counts),
 * which is what lets the send version combine them into one message.
 *
 * Verification (rdx_rec, rdx_check): each rank's part sorted, the last key
 * of rank i not above the first of rank i + 1, and the output a
 * permutation of the input: the order-independent sums of a 64-bit mix of
 * every key (rdx_keys_hash) over all ranks equal before and after. */
#ifndef BENCH_RDX_DEF_H
#define BENCH_RDX_DEF_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"

#define RDX_ROUNDS 4
#define RDX_BITS 8
#define RDX_RADIX 256

/* The versions (rdx_alg.c), their rows' op, sync and window:
 *   RDX_PUT      put      fence  allocate   (Fig. 9, RDXSORT)
 *   RDX_PUT_OPT  put_opt  fence  allocate   (Fig. 10, RDXSORTOPT)
 *   RDX_SEND     send     p2p    none       (two-sided backends only) */
typedef enum rdx_version { RDX_PUT, RDX_PUT_OPT, RDX_SEND, RDX_NVERSIONS }
    rdx_version;

extern const char *const rdx_op_names[];   /* by version, NULL-terminated */
extern const char *const rdx_sync_names[]; /* fence, p2p, NULL */
const char *rdx_sync_name(rdx_version v);
const char *rdx_window_name(rdx_version v);

/* 1 when v runs on a backend (two_sided or not) under --op and --sync. */
int rdx_version_on(const bench_opts *o, rdx_version v, int two_sided);

/* The default key counts n (li_suite's sizes, when --sizes is not
 * given): 960K and 3840K (--quick: 60K and 960K), rounded down to a
 * multiple of nprocs. */
void rdx_default_sizes(bench_opts *o, int nprocs);

static inline unsigned rdx_digit(uint32_t key, int round)
{
    return (key >> (RDX_BITS * round)) & (RDX_RADIX - 1);
}

/* The seed of sample s of an n-key point: the same for every p. */
uint64_t rdx_seed(size_t n, uint64_t s);

/* Key i of the input of seed. */
uint32_t rdx_key(uint64_t seed, uint64_t i);

/* keys[0..m) = keys first .. first + m - 1 of seed; returns their hash
 * (rdx_keys_hash). */
uint64_t rdx_keys_fill(uint32_t *keys, size_t m, uint64_t seed,
                       uint64_t first);

/* The order-independent hash of a multiset of keys: the sum (mod 2^64) of
 * a 64-bit mix of each key. */
uint64_t rdx_keys_hash(const uint32_t *keys, size_t m);

/* The local count sort of one round: cnt[d] = how many keys[0..m) have
 * digit d, and out = keys ordered by digit, stably (out, m keys, does not
 * overlap keys). */
void rdx_count(const uint32_t *keys, size_t m, int round,
               uint32_t cnt[RDX_RADIX]);
void rdx_scatter(const uint32_t *keys, size_t m, int round,
                 const uint32_t cnt[RDX_RADIX], uint32_t *out);

/* start[d] = where digit d begins in rdx_scatter's out. */
void rdx_starts(const uint32_t cnt[RDX_RADIX], size_t start[RDX_RADIX]);

/* The sequential radix sort (the p = 1 reference): the same RDX_ROUNDS
 * count sorts on keys[0..n), tmp n keys of scratch; sorted in keys. */
void rdx_seq_sort(uint32_t *keys, uint32_t *tmp, size_t n);

/* G from the table T (p rows of RDX_RADIX counts, row s rank s's cnt):
 * g[d] = G[pid][d] (rdx_prefix), or all rows (rdx_prefix_all, g p rows). */
void rdx_prefix(const uint32_t *table, int p, int pid,
                uint64_t g[RDX_RADIX]);
void rdx_prefix_all(const uint32_t *table, int p, uint64_t *g);

/* The first piece of a run of len > 0 keys going to global positions g
 * onwards, m keys per rank: the rank it lands on, the offset there, and
 * how many of the run's keys land there; the rest of the run continues at
 * g + len of the piece (on the next rank). */
typedef struct rdx_piece {
    int pid;
    size_t off;
    size_t len;
} rdx_piece;

static inline rdx_piece rdx_piece_at(uint64_t g, size_t len, size_t m)
{
    rdx_piece pc;
    pc.pid = (int)(g / m);
    pc.off = (size_t)(g % m);
    pc.len = m - pc.off < len ? m - pc.off : len;
    return pc;
}

/* How many keys of the run [g, g + len) land on rank r (m keys per rank);
 * *off_p = where the first of them goes on r (0 when none). */
size_t rdx_overlap(uint64_t g, size_t len, int r, size_t m, size_t *off_p);

/* How many of rank s's keys go to rank r: the size of its message to r
 * (g and cnt: s's rows of G and T). */
size_t rdx_recv_count(const uint64_t g[RDX_RADIX],
                      const uint32_t cnt[RDX_RADIX], int r, size_t m);

/* The send version's message sizes of rank s (G's row g, its counts cnt):
 * out[r] = how many of its keys go to rank r, for every r < p. */
void rdx_send_counts(const uint64_t g[RDX_RADIX],
                     const uint32_t cnt[RDX_RADIX], int p, size_t m,
                     size_t *out);

/* Receiver r's placing of sender s's message (its keys for r in digit
 * order, rdx_send_counts' out[r] of them): each digit's piece goes to its
 * place in dst (r's m keys).  g and cnt are s's row of G and of T. */
void rdx_unpack(const uint32_t *msg, const uint64_t g[RDX_RADIX],
                const uint32_t cnt[RDX_RADIX], int r, size_t m,
                uint32_t *dst);

/* What a rank tells every other after a sort, for the check. */
typedef struct rdx_rec {
    uint64_t in_hash;  /* rdx_keys_hash of its input */
    uint64_t out_hash; /* of its output */
    uint64_t unsorted; /* first i with out[i] > out[i + 1], else m */
    uint32_t first, last;
} rdx_rec;

/* This rank's record of its input hash and its m >= 1 output keys. */
void rdx_rec_make(uint64_t in_hash, const uint32_t *out, size_t m,
                  rdx_rec *rec);

/* Rank pid's share of the check of everyone's records (p of them, m keys
 * each): its own part sorted, its last key not above rank pid + 1's first,
 * and on rank 0 the permutation (hash sums).  Returns 1, or 0 with what
 * was wrong in msg. */
int rdx_check(const rdx_rec *recs, int p, int pid, size_t m, char *msg,
              size_t len);

#endif
