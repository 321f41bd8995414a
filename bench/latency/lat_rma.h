/* lat_rma.h -- a series of one-sided latency points (one operation on one
 * window, every size and selected mode) and their data, for every backend:
 * orma's calls (lat_orma.c) and the MPI program's (mpi/mpib_lat.c) supply
 * the epochs and the loop as lat_rma_ops; the data, its checks, the order
 * of the points and their repetitions (lat_point.h) are here, once.  No
 * orma or MPI here.  The multiput suite's points are these too, with the
 * put split in pieces (multiput_def.h) and its own order of the points.
 *
 * A series runs on a set of backends measured together (lat_rma_set): one
 * (orma; an MPI backend alone), or the MPI program's mpi-rma and orma-mpi
 * in one process, each with its own state, window and buffers here.  Per
 * point their batches alternate (lat_point.h); everything below -- data,
 * checks, rows -- is per backend, as when it runs alone.
 *
 * Windows: a backend's window of a series is opened once for all its
 * points, max + 2 x LAT_GUARD bytes -- or, for the flavours made per point
 * (fit.h: create_fit, stack), once per point, sized to it (lat_def.h:
 * n + 2 x lat_window_guard); a stack window too large for the stack skips
 * its point on every backend (noted by the suite).  In a set, each
 * backend's window is opened inside the previous one's run (a stack
 * window's frame holds the others' and the points).
 *
 * Roles: rank 0 is the origin and rank 1 the target in the passive modes;
 * in fence and pscw both ranks are both (OSU's loops, lat_def.h).  The
 * target region of a window is [guard, guard + n), guard its flavour's
 * lat_window_guard; get's result buffer is max + 2 x LAT_GUARD bytes, its
 * region [LAT_GUARD, LAT_GUARD + n).  Per point each rank fills window
 * and result buffer whole with a background byte; per batch, untimed:
 *
 *   before  put: each origin writes a fresh pattern into its send buffer;
 *           get: each target writes one into its region;
 *           acc: each origin a fresh pattern S, each target one P (uint64
 *           words) into its region;
 *   after   put: each target's region must hold its origin's pattern;
 *           get: each origin's result region the target's, and the
 *           target's region its own still;
 *           acc: each target's word i P_i + iters x S_i (modulo 2^64: the
 *           loop added S once per iteration);
 *           and the guard bytes before and after each region (window,
 *           result buffer) the background.
 * At the end of the point every byte of the windows and result buffers
 * outside the checked regions must still be the background (a rank that
 * is no target in the mode: its whole window).  A wrong byte is reported
 * once per point with the rank, the point, the batch and the offset; the
 * point is not reported and the series stops (the exit status is 1).
 *
 * A put of n bytes may be made as s->pieces puts of adjacent bytes in the
 * same epoch (the multiput suite): s->piece bytes each, the last taking
 * the rest (n - (pieces - 1) x piece), piece j from byte j x piece of the
 * origin buffer to byte j x piece of the target region.  The data and the
 * checks do not change: the region must hold the whole pattern, every
 * piece in place. */
#ifndef BENCH_LAT_RMA_H
#define BENCH_LAT_RMA_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "lat_def.h"
#include "lat_point.h"
#include "opts.h"

typedef struct lat_rma lat_rma;

typedef struct lat_rma_ops {
    /* Collective: fn(arg) with a window of s->kind of bytes, opened before
     * and freed after (windows.h's bench_window_run); what fn returns, or
     * -1 for an unknown kind (fn not called). */
    int (*window_run)(lat_rma *s, size_t bytes, int (*fn)(void *arg),
                      void *arg);
    /* Collective, on the window window_run just opened and before it is
     * freed: s->win := its memory at this rank, and what the points need
     * of it made (PSCW's group {peer}) and freed. */
    void (*window_begin)(lat_rma *s);
    void (*window_end)(lat_rma *s);
    /* Collective: this rank's stores into its window and buffers are
     * visible to the peer and every operation of the peer's last loop is
     * complete here, and nobody goes on before both ranks arrived (fence:
     * a fence; else a memory barrier for the window and a barrier). */
    void (*settle)(lat_rma *s);
    /* Collective: open and close the epochs a point of mode s->sync keeps
     * open across its batches (flush, flush_local: rank 0's lock(SHARED,
     * 1)); point_end also closes a fence epoch. */
    void (*point_begin)(lat_rma *s);
    void (*point_end)(lat_rma *s);
    /* Collective: iters iterations of the mode's loop (lat_def.h), op to
     * lat_rma_disp(s) from lat_rma_origin() (get: into lat_rma_result());
     * rank 0's elapsed seconds.  flush_local completes the last operation
     * at the target (a flush) after the clock stopped. */
    double (*loop)(lat_rma *s, long iters);
    long (*bcast)(lat_rma *s, long v); /* rank 0's v */
    int (*all_ok)(lat_rma *s, int ok); /* 1 when ok on both ranks */
} lat_rma_ops;

struct lat_rma {
    /* set by the backend before the series */
    const lat_rma_ops *ops;
    void *impl;            /* the backend's: its window, group, ... */
    const bench_opts *opts;
    const bench_ctx *ctx;  /* the run as report.h sees it: the rows' */
    const char *suite;     /* the rows' suite, for messages */
    const char *backend;   /* for messages */
    const char *kind;      /* window flavour */
    pp_op op;              /* PP_PUT, PP_GET or PP_ACC */
    const char *op_name;   /* the rows' op, set per point: pp_op_names[op],
                              or multiput's put<k> */
    int me, peer;          /* ranks 0 and 1 */
    unsigned char *win;    /* this rank's window memory, win_size bytes */
    size_t win_size;       /* set with the window: lat_rma_bytes(max), or
                              the point's n + 2 x guard */
    size_t guard;          /* lat_window_guard(kind) */
    unsigned char *send;   /* origin data, max bytes */
    unsigned char *recv;   /* get's result buffer, lat_rma_bytes() */
    /* state of the current point */
    lat_sync sync;
    int lock_open;         /* rank 0 holds the flush modes' lock */
    size_t n;
    int pieces;            /* puts that make the put of n bytes: 1, or
                              the multiput suite's k */
    size_t piece;          /* bytes of each but the last: n / pieces */
    size_t size;           /* lat_rma_bytes(max): recv's */
    uint64_t batch;        /* batches so far (seeds), across points */
    unsigned points;       /* points so far (background byte) */
    int ok;                /* nothing wrong yet in the current point */
};

/* Bytes of a window and of the result buffer for sizes up to max. */
static inline size_t lat_rma_bytes(size_t max)
{
    return max + 2 * (size_t)LAT_GUARD;
}

/* The operation's target displacement past the target's first byte, its
 * origin buffer and get's result buffer. */
static inline size_t lat_rma_disp(const lat_rma *s)
{
    return s->guard;
}

static inline const void *lat_rma_origin(const lat_rma *s)
{
    return s->send;
}

static inline void *lat_rma_result(const lat_rma *s)
{
    return s->recv + LAT_GUARD;
}

/* The origin and result buffers of a series, n bytes at page offset 16
 * (where glibc puts a large malloc'd block), for every backend alike: left
 * to malloc, they sat wherever the heap's history put them (the mmap
 * threshold moves after the first free), and a copy between addresses a
 * few bytes apart modulo 4 KB runs up to 1.3x slower here (4K aliasing:
 * 64 KB in 0.67 us instead of 0.51), which decided points between
 * backends.  Exits when memory runs out. */
unsigned char *lat_rma_buffer(size_t n);
void lat_rma_buffer_free(unsigned char *p);

/* The backends of a series, measured together: s[0..k-1], each set up
 * by its backend, the same op, window flavour and options. */
typedef struct lat_rma_set {
    lat_rma *s[LAT_POINT_MAX];
    int k;
    unsigned points; /* points so far: whose batches go first */
} lat_rma_set;

/* One point of every backend of the set: n bytes in mode sync, the put
 * made as pieces puts (1 for get and acc, and for a put in one piece);
 * rows reported with op_name.  The backend whose batches go first turns
 * from one point to the next.  The flavours made per point open their
 * windows here (a stack window that does not fit: no point, 0).
 * Collective; 0, or -1 on both ranks when some backend's data did not
 * verify (reported; the others' rows are reported all the same). */
int lat_rma_point(lat_rma_set *set, const char *op_name, size_t n,
                  lat_sync sync, int pieces);

/* A series: the points of one op on one window flavour, in a suite's
 * order. */
typedef int (*lat_rma_series_fn)(lat_rma_set *set);

/* What a backend runs once its set is set up (without windows): series on
 * every backend's window of the series, opened before and freed after --
 * or, for the flavours made per point, on theirs, opened by each point.
 * Collective; series' BENCH_* status. */
int lat_rma_run(lat_rma_set *set, lat_rma_series_fn series);

/* The latency suite's series: every size that suits the op and selected
 * mode of --sync, one point each, the modes of a size one after the
 * other.  Collective; a BENCH_* status, the same on both ranks. */
int lat_rma_series(lat_rma_set *set);

#endif
