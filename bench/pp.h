/* pp.h -- one orma pingpong series (one operation on one window), shared
 * by pp_orma.c (sizes, repetition counts, data and its verification) and
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

typedef struct pp_state {
    const bench_ctx *ctx;
    bench_window w;
    int put;              /* 1: put, 0: get */
    int me, peer;
    pp_sync sync;         /* mode of the current point */
    unsigned char *send;  /* put: rank 0's origin buffer */
    unsigned char *recv;  /* get: the origin buffer */
    size_t n;             /* message size of the current point */
    uint64_t rep;         /* repetition number, across points */
    int ok;               /* nothing wrong yet in the current point */
    int fence_open;       /* a fence epoch is open on w */
    orma_group peer_group;   /* {peer}, for PSCW (NULL without pscw) */
    int have_flags;          /* fw is open (some passive mode selected) */
    bench_flag_win fw;       /* the passive modes' notification flags */
    uint64_t turn;           /* last flag value raised, both ranks alike */
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

#endif
