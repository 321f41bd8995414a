/* mt.h -- orma-bench's mt suite: the message rate of 8-byte one-sided
 * operations issued by T threads of one origin (rank 0) to a passive
 * target (rank 1) that sleeps meanwhile.  One runner (mt_run.c), with no
 * orma or MPI in it, drives both programs: orma-bench for orma's own calls
 * (mt_orma.c) and orma-bench-mt-mpi-<mpi> for a host MPI's, alone or with
 * liborma-mpi preloaded (mt_mpi.c).  A backend is a table of calls
 * (mt_calls); the runner makes the threads, times the batches and checks
 * every value the calls return.
 *
 * Each window holds MT_MAX_THREADS slots of MT_SLOT bytes at the target:
 * word 0 of slot t is what thread t puts and gets, word 1 the counter its
 * fetch_and_op adds 1 to.  Mode sep: thread t works on window t of its
 * own, slot 0; mode shared: every thread on one window, slot t (a cache
 * line each, so that the threads share the window and not the line). */
#ifndef BENCH_MT_H
#define BENCH_MT_H

#include <stddef.h>
#include <stdint.h>

#define MT_MAX_THREADS 8
#define MT_SLOT 64 /* bytes: a cache line */
#define MT_WIN_BYTES ((size_t)MT_MAX_THREADS * MT_SLOT)
#define MT_MAX_ROUNDS 200

enum mt_op { MT_PUT, MT_GET, MT_FOP, MT_NOPS };
enum mt_mode { MT_SEP, MT_SHARED, MT_NMODES };
extern const char *const mt_op_names[MT_NOPS];   /* put, get, fop */
extern const char *const mt_mode_names[MT_NMODES]; /* sep, shared */

/* What a run measures; both programs get it on their command line
 * (mt_plan_format / mt_plan_parse), so that they follow one schedule. */
typedef struct mt_plan {
    int threads[MT_MAX_THREADS]; /* thread counts, e.g. 1, 2, 4 */
    int nthreads;
    int ops[MT_NOPS];            /* 1: measured */
    int modes[MT_NMODES];
    long batch_ops;              /* operations per thread and batch, at most */
    double batch_s;              /* and at most this long (seconds) */
    int rounds;                  /* counted batches per point */
} mt_plan;

/* "THREADS OPS MODES BATCH_OPS BATCH_US ROUNDS" as six arguments. */
void mt_plan_format(const mt_plan *p, char out[6][64]);
int mt_plan_parse(mt_plan *p, char *const args[6]);

/* A backend's calls.  Each makes one operation and a flush of the target,
 * so that the operation is complete there when it returns, and returns 0
 * or -1 after printing why.  Thread t calls them on its window (sep) or
 * its slot of the shared window; epoch opens (open = 1) or closes a
 * lock_all epoch: in mode sep thread t on its own window, in mode shared
 * the main thread (t = -1) on the shared one around every batch. */
typedef struct mt_calls {
    void *arg;
    int (*put)(void *arg, int mode, int t, uint64_t v);
    int (*get)(void *arg, int mode, int t, uint64_t *v);
    int (*fop)(void *arg, int mode, int t, uint64_t *old); /* SUM of 1 */
    int (*epoch)(void *arg, int mode, int t, int open);
    /* Called in every slot of the schedule (a round's batch of one (op,
     * mode, T)), before (after = 0) and after (after = 1) this backend's
     * batch, whether or not it measures that slot: the backends of a run
     * take turns through it, slot by slot (mt_jobs.c, mt_mpi.c).  NULL:
     * none.  0, or -1 to stop the run. */
    int (*turn)(void *turn_arg, int round, int after);
    void *turn_arg;
} mt_calls;

/* What the target must hold at the end, as the origin knows it: slot t of
 * each mode's window(s), word 0 and the counter.  Every put writes a value
 * never written before; every get must return the last one put, every
 * fetch_and_op the counter as it was. */
typedef struct mt_expect {
    uint64_t put[MT_NMODES][MT_MAX_THREADS];
    uint64_t count[MT_NMODES][MT_MAX_THREADS];
} mt_expect;

/* The samples of a run: microseconds per operation of one batch (its
 * wall time -- the first thread's start to the last thread's end -- over
 * the operations of all its threads), at mt_at(). */
static inline size_t mt_at(const mt_plan *p, int op, int mode, int ti, int round)
{
    return (((size_t)op * MT_NMODES + (size_t)mode) * (size_t)p->nthreads + (size_t)ti) * (size_t)p->rounds +
           (size_t)round;
}
static inline size_t mt_nsamples(const mt_plan *p)
{
    return (size_t)MT_NOPS * MT_NMODES * (size_t)p->nthreads * (size_t)p->rounds;
}

/* The origin: one uncounted round (round -1), then p->rounds rounds; in a
 * round every (op, mode) measured takes one slot per thread count, the
 * counts in an order that rotates from round to round, so that the
 * batches a scaling ratio compares run next to each other.  max_threads:
 * the most threads the backend allows at once (1 when its thread level is
 * below MULTIPLE: the larger counts are not measured, their samples left
 * at 0; 0: none, only the turns).  After a failed batch the run measures
 * nothing more but still takes its turns.  0, or -1 when a call failed or
 * a value did not verify (said on stderr). */
int mt_origin(const mt_plan *p, const mt_calls *c, int max_threads, double *samples, mt_expect *e);

/* The target, at the end: slot t (8-byte words) of mode's window holds
 * what e says.  0, or -1 after printing every difference. */
int mt_check_slot(const mt_expect *e, int mode, int t, const volatile uint64_t *slot, const char *who);

/* The median of v[0..n) (v[i] / over[i] when over is not NULL), and the
 * min and max; n <= MT_MAX_ROUNDS. */
void mt_stats(const double *v, const double *over, int n, double *mn, double *med, double *mx);

/* The MPI program's samples on stdout, which orma-bench reads (mt_mpi.c,
 * mt_jobs.c), a line per batch measured:
 *   sample OP MODE T ROUND US     microseconds per operation */
void mt_print_samples(const mt_plan *p, const double *samples);
int mt_read_sample(const mt_plan *p, const char *line, double *samples);

double mt_now_s(void);

#endif
