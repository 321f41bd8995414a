/* pp_def.h -- what a pingpong round trip is, whoever makes it: the
 * operations, the synchronization modes, the sizes an operation takes and
 * the repetition policy of a point.  orma's series and the MPI
 * program of the MPI backends (mpi/mpib.h) both use these, so that their
 * numbers measure the same thing; nothing here depends on orma or MPI.
 *
 * A point: PP_WARMUP uncounted repetitions; without --reps, PP_CALIB more
 * timed to choose the count (reps.h), which rank 0 decides; then the
 * counted ones.  A repetition of a batched point (pp_batched) is PP_BATCH
 * round trips timed as a whole and reported per round trip, each still
 * carrying fresh data that rank 0 checks inside the timed loop. */
#ifndef BENCH_PP_DEF_H
#define BENCH_PP_DEF_H

#include <stddef.h>

#include "opts.h"

typedef enum pp_sync {
    PP_FENCE,    /* fence after each direction */
    PP_PSCW,     /* post/start/complete/wait, each rank target in turn */
    PP_LOCK,     /* lock(SHARED)/op/unlock per direction */
    PP_LOCK_ALL, /* lock_all/op/unlock_all per direction */
    PP_FLUSH,    /* op + flush inside one lock_all epoch per point */
    PP_NSYNC
} pp_sync;

/* Names by pp_sync, NULL-terminated: the --sync names and the rows' sync. */
extern const char *const pp_sync_names[];

/* The window flavours (windows.h, mpi/mpib_win.h), NULL-terminated: the
 * --window names and the rows' window.  The five most suites take
 * (bench_window_kinds), a default run's, and create_fit and stack, made
 * per point and only when --window names them (fit.h). */
extern const char *const pp_window_kinds[];

typedef enum pp_op {
    PP_PUT,
    PP_GET,
    PP_ACC,  /* accumulate, SUM on uint64 */
    PP_GACC, /* get_accumulate, SUM on uint64, old values back */
    PP_FOP,  /* fetch_and_op, SUM on one uint64 */
    PP_CAS,  /* compare_and_swap on one uint64, always succeeding */
    PP_NOP
} pp_op;

/* Names by pp_op, NULL-terminated: the --op names and the rows' op. */
extern const char *const pp_op_names[];

/* PP_NOP when name is none of them. */
pp_op pp_op_by_name(const char *name);

/* The accumulate-family ops (pp_acc.h) move uint64 elements: their sizes
 * are multiples of 8, and fop and cas move exactly one.  Inline: put asks
 * inside its timed batch. */
static inline int pp_op_is_atomic(pp_op op)
{
    return op == PP_ACC || op == PP_GACC || op == PP_FOP || op == PP_CAS;
}

int pp_op_size_ok(pp_op op, size_t n);

/* 1 when some size of o's --sizes suits op; *skipped (unless NULL) is set
 * to whether some does not. */
int pp_op_sizes(pp_op op, const bench_opts *o, int *skipped);

#define PP_WARMUP 3 /* page faults, cold caches, lazy set-up in the library */
#define PP_CALIB 4  /* repetitions timed to choose the count */

/* A point's repetitions as above, whoever makes them: rep(arg, sec) makes
 * one, with *sec its timed seconds (sec NULL: not counted); bcast(arg, v)
 * is rank 0's v on both ranks; now() reads the clock (CLOCK_MONOTONIC);
 * xmalloc ends the job when memory runs out.  pp_samples returns the
 * count, the same on both ranks, and the counted samples in microseconds
 * in *us_p (xmalloc'd; the caller frees).  One call per repetition
 * through a pointer: outside its timed part. */
typedef struct pp_reps {
    void *arg;
    void (*rep)(void *arg, double *sec);
    long (*bcast)(void *arg, long v);
    double (*now)(void);
    void *(*xmalloc)(size_t n);
} pp_reps;

long pp_samples(const bench_opts *o, const pp_reps *r, double **us_p);

/* Small puts are timed in batches, as the cache-line floor is: one round
 * trip (~0.1-0.3 us) is near the cost of reading the clock (~30 ns here).
 * Every op but get is batched at sizes up to PP_BATCH_MAX. */
#define PP_BATCH 32
#define PP_BATCH_MAX 64 /* bytes */

static inline int pp_batched(pp_op op, size_t n)
{
    return op != PP_GET && n <= PP_BATCH_MAX;
}

#endif
