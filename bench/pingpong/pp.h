/* pp.h -- one orma pingpong series (one operation on one window), shared
 * by pp_orma.c (sizes, repetition counts, data and its verification of
 * put and get), pp_atomic.c (the accumulate-family ops' data, pp_acc.h, on
 * an orma window) and pp_sync.c (the timed exchange and the epochs around it, for each
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
#include "pp_acc.h"
#include "pp_def.h"
#include "windows.h"

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
    pp_acc acc;              /* accumulate-family ops: the plan (pp_acc.h) */
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
