/* pattern.h -- data that changes every repetition, cheap to make and check.
 *
 * Word i (8 bytes, native order) of the pattern with seed s is
 * s * K + i for a large odd K, so two seeds differ in every word and a
 * stale buffer from an earlier repetition never passes the check.  A tail
 * shorter than a word holds the first bytes of the next word. */
#ifndef BENCH_PATTERN_H
#define BENCH_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* The seed of repetition rep of stream salt (e.g. the rank that owns the
 * data), distinct for distinct (rep, salt < 256). */
uint64_t bench_pattern_seed(uint64_t rep, unsigned salt);

/* Word i of the pattern with seed seed. */
uint64_t bench_pattern_word(uint64_t seed, size_t i);

void bench_pattern_fill(void *buf, size_t n, uint64_t seed);

/* 1 when buf[0..n-1] holds the pattern; else 0 with the first wrong byte's
 * offset, expected and found value. */
int bench_pattern_check(const void *buf, size_t n, uint64_t seed,
                        size_t *off_p, unsigned *expected_p, unsigned *got_p);

#endif
