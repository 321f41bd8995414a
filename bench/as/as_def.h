/* as_def.h -- the data of the as suite (seed 003 section 3), whoever runs
 * it: where each rank's words land, what they hold, and their check.
 * Nothing here depends on orma, MPI or li.h's backends.
 *
 * Area (the li area of the one-sided backends, a malloc'd buffer of the
 * two-sided one), in 32-bit words, laid out for h words per pair:
 *
 *   guard, slot 0, guard, slot 1, ..., guard, slot P-1, guard
 *
 * each guard AS_GUARD words, slot s (h words) what rank s sent this rank.
 * The fixed tests (Full, Simple, Scatter) use the layout of h = 1; the
 * total exchange that of its h.  The area is zeroed when opened, and a
 * word that was sent is never zero, so a put that strays into a guard or
 * another slot is seen.
 *
 * Words: the word rank src sends rank dst at repetition seq is
 * as_word(seq, src, dst, 0), a hash of the three (never 0).  seq counts
 * the repetitions of the run on every rank alike, so each repetition sends
 * other values than the one before, and a word left over from an earlier
 * repetition or sender does not pass.  The total exchange stamps word 0
 * of each pair's h words so per repetition and fills the others per
 * sample (as_fill_word, from the sample's first seq), untimed: filling
 * h x P words per repetition would cost as much as sending them.
 *
 * Check: each rank keeps what its area must hold (the expected words,
 * updated after a sample with what arrived) and compares: after every
 * sample the words of the current layout, after every point the whole
 * area. */
#ifndef BENCH_AS_DEF_H
#define BENCH_AS_DEF_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"

#define AS_GUARD 16                  /* words: 64 bytes */
#define AS_MAX_H ((size_t)1 << 20)   /* words per pair, a sanity bound */

/* The word offset of slot s for h words per pair; as_slot(h, P) is where
 * the last guard begins. */
static inline size_t as_slot(size_t h, int s)
{
    return AS_GUARD + (size_t)s * (h + AS_GUARD);
}

/* Words of an area for h words per pair and p ranks: the layout and its
 * last guard. */
static inline size_t as_area_words(size_t h, int p)
{
    return as_slot(h, p) + AS_GUARD;
}

uint32_t as_word(uint64_t seq, int src, int dst, size_t pos);

/* The total exchange's words 1..h-1 from src to dst in a sample that
 * begins at repetition seq: an arithmetic progression of odd words, base
 * as_fill_base(seq, src, dst), step AS_FILL_STEP -- cheap enough to write
 * and check h x P of them per sample, never 0, different at every
 * position (the step is twice an odd number: two positions less than
 * 2^31 apart differ), and different from every other sample, sender and
 * receiver in every word (the base is a hash of the three). */
#define AS_FILL_STEP UINT32_C(0x3c6ef372)

static inline uint32_t as_fill_base(uint64_t seq, int src, int dst)
{
    return as_word(seq, src, dst, 1) | 1;
}

static inline uint32_t as_fill_word(uint32_t base, size_t pos)
{
    return base + (uint32_t)pos * AS_FILL_STEP;
}

/* The words per pair of a --sizes entry (bytes per pair), or 0 when it
 * is none: not a multiple of 4, 0, or above AS_MAX_H words. */
size_t as_words_of(size_t bytes);

/* Default --sizes (bytes per pair) for p ranks: h = p, 2p, 4p, ... words
 * up to 64K (--quick: p, 4p, 16p, ... up to 16K). */
void as_default_sizes(bench_opts *o, int p);

/* Compare got with want over words [from, to) of an area laid out for h
 * words per pair and p ranks.  Returns 1 when equal; else 0 with the first
 * difference in msg (its offset, the slot or guard it is in, the two
 * values). */
int as_check(const uint32_t *got, const uint32_t *want, size_t from,
             size_t to, size_t h, int p, char *msg, size_t len);

#endif
