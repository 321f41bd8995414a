/* dyn.h -- orma-bench's dynamic suite: seed 000's measurements of spawned
 * and connected processes.  The suite (dyn_suite.c) runs as ranks 0 and 1
 * of an orma-run job; the processes it spawns or connects to run
 * orma-bench-dynamic-peer (dyn_peer.c).  Both sides of the latency pairs
 * (dyn_pairs.c) follow one schedule, derived from the arguments they share. */
#ifndef BENCH_DYN_H
#define BENCH_DYN_H

#include <stddef.h>

#include <orma.h>

#define DYN_KINDS 3 /* the pairs: static, spawned, connected */
#define DYN_MAX_SIZES 16
#define DYN_MAX_BYTES ((size_t)4 << 20)

extern const char *const dyn_kind_names[DYN_KINDS];

/* The schedule both sides follow. */
typedef struct dyn_plan {
    size_t sizes[DYN_MAX_SIZES];
    int nsizes;
    int rounds; /* batches per (op, size, kind) */
} dyn_plan;

/* The operations of a pair, in schedule order. */
enum dyn_op { DYN_PUT_FLUSH, DYN_GET_FLUSH, DYN_PUT_FENCE, DYN_NOPS };
extern const char *const dyn_op_names[DYN_NOPS];
extern const char *const dyn_op_syncs[DYN_NOPS];

/* "8,64,..." <-> a plan's sizes. */
void dyn_plan_format(const dyn_plan *p, char *buf, size_t len);
int dyn_plan_parse(dyn_plan *p, const char *sizes, const char *rounds);

/* Operations per batch at a size: enough to time, not so many that a
 * point takes long. */
long dyn_batch_ops(size_t bytes);

/* The origin's side (rank 0 of the suite): pair[k] is a team of 2 with the
 * origin at rank 0, or ORMA_TEAM_NULL when that kind is not measured; each
 * batch's time per operation into samples[op][size][kind][round]
 * (microseconds).  The partners run dyn_pairs_partner on their pair with
 * the same plan.  0, or -1 when a transfer did not verify or a call failed
 * (said on stderr). */
int dyn_pairs_origin(const dyn_plan *p, const orma_team pair[DYN_KINDS], double *samples);
int dyn_pairs_partner(const dyn_plan *p, orma_team pair, int kind);

/* Index into dyn_pairs_origin's samples. */
static inline size_t dyn_sample_at(const dyn_plan *p, int op, int size, int kind, int round)
{
    return (((size_t)op * (size_t)p->nsizes + (size_t)size) * DYN_KINDS + (size_t)kind) * (size_t)p->rounds +
           (size_t)round;
}

double dyn_now_us(void);

/* dyn_peer.c's and the suite's: the pair of rank 0 (the origin) and the
 * other job's rank of merged (spawned or connected), split from it:
 * collective over merged; other: the merged rank of the partner. */
int dyn_pair_split(orma_team merged, int other, orma_team *pair_p);

/* path of a program beside this one (orma-run, the peer), or -1. */
int dyn_beside(const char *name, char *path, size_t len);

#endif
