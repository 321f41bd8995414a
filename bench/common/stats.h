/* stats.h -- summary statistics of per-repetition samples. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

typedef struct bench_stats {
    double min, median, max;
} bench_stats;

/* Sorts v[0..n-1] in place (callers keep no order) and summarizes it; the
 * median of an even count is the mean of the two middle samples.  n == 0
 * gives all zeros. */
void bench_stats_compute(double *v, long n, bench_stats *s);

#endif
