/* stats.c -- see stats.h.  Medians, not means: on a shared machine a
 * descheduled rank makes a few samples huge, and the median ignores them. */
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_stats_compute(double *v, long n, bench_stats *s)
{
    if (n <= 0) {
        s->min = s->median = s->max = 0.0;
        return;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    s->min = v[0];
    s->max = v[n - 1];
    s->median = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
