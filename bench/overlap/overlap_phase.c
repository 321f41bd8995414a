/* overlap_phase.c -- see overlap_phase.h. */
#include <stdlib.h>

#include "check.h"
#include "flag.h"
#include "overlap_phase.h"

#define SAMPLE_CAP (1L << 18)
#define ARRAY 2048 /* doubles: 16 KB, stays in L1; one unit = one sweep */
#define CALIB_MIN_S 0.02

static double work[ARRAY];
/* The result goes somewhere the compiler cannot see through. */
static volatile double sink;

void ov_samples_init(ov_samples *s)
{
    s->cap = SAMPLE_CAP;
    for (int k = 0; k < OV_NKIND; k++)
        s->v[k] = bench_xmalloc((size_t)s->cap * sizeof *s->v[k]);
    s->n = 0;
    s->stride = 1;
    s->seen = 0;
}

void ov_samples_free(ov_samples *s)
{
    for (int k = 0; k < OV_NKIND; k++) {
        free(s->v[k]);
        s->v[k] = NULL;
    }
}

static void samples_add(ov_samples *s, const double *us)
{
    /* Keep iterations 0, stride, 2 stride, ... of the phases. */
    if (s->seen++ % s->stride != 0)
        return;
    if (s->n == s->cap) {
        for (int k = 0; k < OV_NKIND; k++)
            for (long i = 0; i < s->cap / 2; i++)
                s->v[k][i] = s->v[k][2 * i];
        s->n = s->cap / 2;
        /* This iteration, cap x the old stride, is a multiple of the new. */
        s->stride *= 2;
    }
    for (int k = 0; k < OV_NKIND; k++)
        s->v[k][s->n] = us[k];
    s->n++;
}

void ov_compute(uint64_t units)
{
    for (uint64_t u = 0; u < units; u++)
        for (int i = 0; i < ARRAY; i++)
            work[i] = work[i] * 0.999999 + 1e-6;
    sink = work[units % ARRAY];
}

uint64_t ov_calibrate(double seconds)
{
    for (int i = 0; i < ARRAY; i++)
        work[i] = (double)i;
    ov_compute(4); /* warm-up */
    uint64_t units = 16;
    double best = 0.0;
    for (;;) {
        double t0 = orma_wtime();
        ov_compute(units);
        double t = orma_wtime() - t0;
        if (t >= CALIB_MIN_S) {
            /* Three tries at this length; the fastest is the least
             * disturbed by the machine. */
            best = t;
            for (int k = 0; k < 2; k++) {
                t0 = orma_wtime();
                ov_compute(units);
                t = orma_wtime() - t0;
                if (t < best)
                    best = t;
            }
            break;
        }
        units *= 2;
    }
    double per_unit = best / (double)units;
    uint64_t n = (uint64_t)(seconds / per_unit);
    return n > 0 ? n : 1;
}

/* OV_BATCH puts of fresh values to target's word, under shared locks. */
static void put_batch(ov_phase *ph, int target)
{
    for (int k = 0; k < OV_BATCH; k++) {
        /* The origin buffer of the put stays untouched until unlock. */
        uint64_t v = ++ph->value;
        BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, target, 0, ph->win));
        BENCH_CHECK(orma_put(&v, 1, ORMA_UINT64, target, ph->disp[target], 1,
                             ORMA_UINT64, ph->win));
        BENCH_CHECK(orma_win_unlock(target, ph->win));
    }
}

/* OV_BATCH gets of rank 1's word, which must hold want. */
static void get_batch(ov_phase *ph, uint64_t want)
{
    for (int k = 0; k < OV_BATCH; k++) {
        uint64_t got = 0;
        BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, 1, 0, ph->win));
        BENCH_CHECK(orma_get(&got, 1, ORMA_UINT64, 1, ph->disp[1], 1,
                             ORMA_UINT64, ph->win));
        BENCH_CHECK(orma_win_unlock(1, ph->win));
        if (got != want)
            ph->bad++;
    }
}

void ov_measure(ov_phase *ph, ov_samples *smp)
{
    bench_flag_wait(NULL, ph->flag1, ph->start);
    while (atomic_load_explicit(ph->flag1, memory_order_acquire) < ph->end) {
        double t[OV_NKIND + 1];
        t[0] = orma_wtime();
        put_batch(ph, 1);
        /* Rank 1 last received value; the control's puts come after. */
        uint64_t last = ph->value;
        t[1] = orma_wtime();
        get_batch(ph, last);
        t[2] = orma_wtime();
        put_batch(ph, 0);
        t[3] = orma_wtime();
        ph->last1 = last;
        /* Still inside the phase after the iteration: it counts. */
        if (atomic_load_explicit(ph->flag1, memory_order_acquire) < ph->end) {
            double us[OV_NKIND];
            for (int k = 0; k < OV_NKIND; k++)
                us[k] = (t[k + 1] - t[k]) * 1e6 / OV_BATCH;
            samples_add(smp, us);
        }
    }
}
