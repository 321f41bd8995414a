/* bspbench_def.h -- the data of the bspbench suite (bspbench.h), whoever
 * runs it: its h-relation, the words it moves and their check.  Nothing
 * here calls BSPlib or orma.
 *
 * The h-relation is the one of bspbench in Bisseling's BSPedupack ("Parallel
 * Scientific Computation", 2004), reimplemented: process s sends h 8-byte
 * words, word i to process (s + 1 + i mod (p-1)) mod p -- one of the p-1
 * others, cyclically -- at word index s + (i div (p-1)) x p of that
 * process's destination array; so every process sends h words and receives
 * h, each word in its own place.  On one process, word i goes to index i
 * of its own array.
 *
 * Destination array of a process t (p > 1): index j holds, when j mod p is
 * a process s other than t, word k x (p-1) + c of s, k = j div p, c = (t -
 * s - 1) mod p, if that word is below h; every other word is 0.  A few
 * trailing guard words stay 0.
 *
 * Words: word i of process s in sample seq is bb_word(seq, s, i), a hash
 * of the three, never 0; seq counts the samples alike on every process,
 * so a word left over from another sample, sender or position does not
 * pass. */
#ifndef BENCH_BSPBENCH_DEF_H
#define BENCH_BSPBENCH_DEF_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"

#define BB_GUARD 8                   /* words after the layout */
#define BB_MAX_H ((size_t)1 << 16)   /* words per process, a sanity bound */
#define BB_MAX_POINTS (BENCH_MAX_SIZES + 1) /* h = 0 and --sizes */

/* Where word i of process s goes: *pid, and the word index *index. */
void bb_target(int s, int p, size_t i, int *pid, size_t *index);

/* Words of a destination array for up to hmax words per process, its
 * guard included. */
size_t bb_dest_words(int p, size_t hmax);

uint64_t bb_word(uint64_t seq, int s, size_t i);

/* What index j of process t's destination array must hold after a
 * sample seq of h words per process. */
uint64_t bb_expect(uint64_t seq, int t, int p, size_t h, size_t j);

/* Compare dest (words of them) with bb_expect.  Returns 1 when equal;
 * else 0 with the first difference in msg (index, the sender and word it
 * should hold, the two values) and the number of wrong words. */
int bb_check(const uint64_t *dest, size_t words, uint64_t seq, int t, int p,
             size_t h, char *msg, size_t len);

/* The h of a run: 0, then --sizes (words per process, ascending, each
 * once), or by default 1..16 and 32, 48, ... 256 (--quick: 1, 2, 4, ...
 * 256).  Returns how many, into hs (room for BB_MAX_POINTS); -1 when an
 * h is above BB_MAX_H. */
int bb_hs(const bench_opts *o, size_t *hs);

/* A least-squares line t = l + g h through (h[i], t[i]) for the i whose h
 * lies in [lo, hi]: 1 with *l_p, *g_p and the number of points *n_p, or
 * 0 with fewer than 2 points or all at one h. */
int bb_fit(const size_t *h, const double *t, int n, size_t lo, size_t hi,
           double *l_p, double *g_p, int *n_p);

#endif
