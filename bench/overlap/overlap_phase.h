/* overlap_phase.h -- the parts of one phase of the overlap suite: the
 * target's compute kernel (rank 1) and the origin's timed passive-target
 * accesses (rank 0), with the samples they leave. */
#ifndef BENCH_OVERLAP_PHASE_H
#define BENCH_OVERLAP_PHASE_H

#include <stdatomic.h>
#include <stdint.h>

#include <orma.h>

/* Accesses per sample: reading the clock costs ~30 ns, about what one
 * access to a directly mapped window costs, so a sample is the mean of
 * OV_BATCH consecutive accesses. */
#define OV_BATCH 8

/* What a sample times: a batch of lock(SHARED, 1) + put 8 B + unlock, of
 * lock(SHARED, 1) + get 8 B + unlock, and -- the control, rows "self" --
 * of lock(SHARED, 0) + put 8 B + unlock on rank 0's own window: the same
 * code with a target rank 1 cannot affect, so a busy/idle difference it
 * shares comes from the machine (how the host runs the two vCPUs), not
 * from orma. */
enum { OV_PUT, OV_GET, OV_SELF, OV_NKIND };

/* Per-access latencies in microseconds, v[kind][i] from iteration i.  When
 * full, every other sample is dropped and only every other later
 * iteration is kept, so the samples stay spread evenly over the phases in
 * bounded memory. */
typedef struct ov_samples {
    double *v[OV_NKIND];
    long n, cap;
    long stride, seen;
} ov_samples;

void ov_samples_init(ov_samples *s);
void ov_samples_free(ov_samples *s);

/* Rank 1: how many units of ov_compute last about seconds (timed before
 * any phase, never during one). */
uint64_t ov_calibrate(double seconds);

/* Rank 1: units of plain arithmetic on a private array: no orma call, no
 * system call, no clock. */
void ov_compute(uint64_t units);

typedef struct ov_phase {
    orma_win win;
    orma_aint disp[2];           /* rank r's word in the window */
    _Atomic uint64_t *flag1;     /* rank 1's phase flag (flag.h) */
    uint64_t start, end;         /* the flag's values opening/closing it */
    uint64_t value;              /* rank 0: last value put (either rank) */
    uint64_t last1;              /* rank 0: last value put to rank 1 */
    long bad;                    /* rank 0: gets that missed the value */
} ov_phase;

/* Rank 0: while the phase is open, a batch of each kind in turn, each
 * batch timed (the gets must return the last value put to rank 1); only
 * iterations that began and ended inside the phase are kept. */
void ov_measure(ov_phase *ph, ov_samples *smp);

#endif
