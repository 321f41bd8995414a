/* pp.h -- one orma pingpong series (one operation on one window), shared
 * by pp_orma.c (sizes, repetition counts, data and its verification of
 * put and get), pp_atomic.c (the data of the accumulate-family ops) and
 * pp_sync.c (the timed exchange and the epochs around it, for each
 * synchronization mode).
 *
 * A series opens its window once and, for every size, runs one point per
 * selected mode in the order of pp_sync_names, so that the modes of a size
 * are measured seconds apart: on a virtual machine the cross-core latency
 * drifts within seconds, and the modes are compared with each other and
 * with the cache-line floor. */
#ifndef BENCH_PP_H
#define BENCH_PP_H

#include <stddef.h>
#include <stdint.h>

#include <orma.h>

#include "bench.h"
#include "flag.h"
#include "windows.h"

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

typedef enum pp_op {
    PP_PUT,
    PP_GET,
    PP_ACC,  /* orma_accumulate, ORMA_SUM on uint64 */
    PP_GACC, /* orma_get_accumulate, ORMA_SUM on uint64, old values back */
    PP_FOP,  /* orma_fetch_and_op, ORMA_SUM on one uint64 */
    PP_CAS,  /* orma_compare_and_swap on one uint64, always succeeding */
    PP_NOP
} pp_op;

/* Names by pp_op, NULL-terminated: the --op names and the rows' op. */
extern const char *const pp_op_names[];

/* The accumulate-family ops (pp_atomic.c) move uint64 elements: their
 * sizes are multiples of 8, and fop and cas move exactly one.  Inline: put
 * asks inside its timed batch. */
static inline int pp_op_is_atomic(pp_op op)
{
    return op == PP_ACC || op == PP_GACC || op == PP_FOP || op == PP_CAS;
}

int pp_op_size_ok(pp_op op, size_t n);

/* Word i (uint64, native order) of a linear pattern is c + d * i, modulo
 * 2^64.  The element-wise sum of two is linear too, so what a window holds
 * after any chain of uint64 SUM accumulates is known exactly. */
typedef struct pp_lin {
    uint64_t c, d;
} pp_lin;

typedef struct pp_state {
    const bench_ctx *ctx;
    bench_window w;
    pp_op op;
    int me, peer;
    pp_sync sync;         /* mode of the current point */
    unsigned char *send;  /* put: rank 0's origin buffer */
    unsigned char *recv;  /* get: the origin buffer; gacc, fop, cas: the
                             result buffer */
    size_t n;             /* message size of the current point */
    uint64_t rep;         /* repetition number, across points */
    int ok;               /* nothing wrong yet in the current point */
    int fence_open;       /* a fence epoch is open on w */
    orma_group peer_group;   /* {peer}, for PSCW (NULL without pscw) */
    int have_flags;          /* fw is open (some passive mode selected) */
    bench_flag_win fw;       /* the passive modes' notification flags */
    uint64_t turn;           /* last flag value raised, both ranks alike */
    /* Accumulate-family ops, the same on both ranks (pp_atomic.c): */
    pp_lin cur[2];   /* what rank r's window holds before the round trip */
    pp_lin next[2];  /* ... and after it */
    pp_lin add;      /* rank 0's operand (send) of this round trip */
    uint64_t cmp;    /* cas: this rank's compare value, read by the call */
} pp_state;

/* Collective; at the start and end of a series.  syncs is the --sync
 * list, to set up only what the selected modes need. */
void pp_sync_series_open(pp_state *s, const char *syncs);
void pp_sync_series_close(pp_state *s);

/* Collective: open and close the epochs of a point of mode s->sync.
 * begin is called after the point's first data were prepared and ends
 * with a synchronization that publishes them. */
void pp_sync_point_begin(pp_state *s);
void pp_sync_point_end(pp_state *s);

/* One round trip of mode s->sync; returns its seconds (rank 0's clock). */
double pp_sync_timed(pp_state *s);

/* Untimed, after verification and the next repetition's data: nobody
 * writes a buffer the other rank still checks, and new window contents
 * are visible before they are read. */
void pp_sync_settle(pp_state *s);

/* The data of the accumulate-family ops (pp_atomic.c).  begin, at the
 * start of a point: each rank writes a fresh pattern into its window's
 * first n bytes, then the first round trip is planned.  next, after each
 * round trip on both ranks (inside a batch too): the next one is planned
 * (rank 0's operand written).  verify: this rank checks the elements its
 * call returned and, when window is non-zero, its window against the
 * plan; 0 when they are wrong (reported, s->ok cleared). */
void pp_atomic_begin(pp_state *s);
void pp_atomic_next(pp_state *s);
int pp_atomic_verify(pp_state *s, int window);

#endif
