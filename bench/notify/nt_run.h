/* nt_run.h -- the notify suite's loops and schedule (nt_def.h), written
 * once for both programs: orma-bench's ranks (nt_orma.c) and the MPI
 * program's (mpi/mpib_notify.c).  No orma or MPI here: a kind is a table
 * of calls (nt_calls), a program a table of its kinds and turns
 * (nt_prog). */
#ifndef BENCH_NT_RUN_H
#define BENCH_NT_RUN_H

#include "nt_def.h"

/* How an item of a kind travels (pingpong and pipeline), between this
 * rank and its peer (ranks 0 and 1).  Counts are the kind's own, from 0
 * when the program starts, and only grow: the loops keep them (both ranks
 * know the peer's).  Each call fails loudly itself (the program ends). */
typedef struct nt_calls {
    void *arg;
    const char *name;     /* for messages: "orma notify" */
    unsigned char *slots; /* this rank's NT_SLOTS receive slots */
    unsigned char *src;   /* its NT_SLOTS source buffers */
    size_t stride;        /* from one slot (buffer) to the next: the
                             point's nt_stride, set by the program */
    /* n bytes of src into the peer's slot k, then its item count raised
     * to seq: when the peer sees seq, it sees the bytes */
    void (*put)(void *arg, const unsigned char *src, size_t n, int k, uint64_t seq);
    /* until this rank's item count has reached seq (the item in slot k) */
    void (*wait)(void *arg, int k, uint64_t seq);
    /* the peer's credit count raised to seq: this rank's slot k is free */
    void (*credit)(void *arg, int k, uint64_t seq);
    /* until this rank's credit count has reached seq */
    void (*wait_credit)(void *arg, uint64_t seq);
    /* a batch begins: part, and the items this rank will receive; NULL:
     * nothing to prepare */
    void (*begin)(void *arg, int part, long items);
    uint64_t sent, got, credits_sent, credits_got; /* the counts */
    int ok;                                        /* 0 once a check failed */
} nt_calls;

/* A program's services for the loops. */
typedef struct nt_env {
    void *arg;
    int rank;
    double (*now)(void);          /* seconds, CLOCK_MONOTONIC */
    void (*barrier)(void *arg);   /* every rank of the job */
    long (*bcast)(void *arg, long v); /* rank 0's v on every rank */
} nt_env;

/* One batch of iters round trips of 8 bytes (ranks 0 and 1): rank 0's
 * seconds for them, the same on both ranks.  Every item's stamp is
 * checked where it lands. */
double nt_pingpong(const nt_env *e, nt_calls *c, long iters, uint64_t batch);

/* One batch of items items of n bytes through the ring, rank 0 producing,
 * rank 1 consuming and checking each item's stamps: rank 0's seconds from
 * its first item to its last credit back, the same on both ranks.
 * Before it the producer fills its sources; after it the consumer checks
 * its slots whole. */
double nt_pipeline(const nt_env *e, nt_calls *c, size_t n, long items, uint64_t batch, unsigned char *scratch);

/* A program: the kinds it measures and how. */
typedef struct nt_prog {
    void *arg;
    /* 1 when this program measures kind in part */
    int (*has)(void *arg, int part, int kind);
    /* collective: a point of part at bytes begins (ghost's areas) */
    void (*begin)(void *arg, int part, size_t bytes);
    /* collective: a batch of kind, iters iterations, seconds (the same on
     * every rank); batch numbers the data */
    double (*batch)(void *arg, int part, int kind, size_t bytes, long iters, uint64_t batch);
    /* collective: 1 when every batch of kind since begin verified on
     * every rank (rank 0 says which did not) */
    int (*verified)(void *arg, int part, int kind, size_t bytes);
    /* before (after = 0) and after (after = 1) this program's batches of
     * every round of every point (round -1: the calibration): the
     * programs take turns there (turns.h).  0, or -1: no more turns. */
    int (*turn)(void *arg, int point, int round, int after);
} nt_prog;

/* Every point of the plan in order: its calibration round, then
 * p->rounds rounds, this program's kinds in an order that rotates from
 * round to round.  samples (nt_at) gets us per item, step or round trip
 * (nt_def.h); a kind whose data did not verify in a point keeps 0 there.
 * Returns 0, or -1 when a point did not verify or the turns stopped. */
int nt_run(const nt_plan *p, const nt_prog *prog, double *samples);

/* The samples of a point whose part is pingpong are one-way times: half
 * the batch's round trips, but the floor's, which stay round trips. */
double nt_sample_us(int part, int kind, double seconds, long iters);

#endif
