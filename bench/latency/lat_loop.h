/* lat_loop.h -- the epochs and OSU's timed loops of a latency point
 * (lat_def.h), the lat_rma_ops every backend gives lat_rma.c, written
 * once: lat_orma.c includes it with orma's calls, mpi/mpib_lat.c with the
 * calls of its table of MPI functions (mpib_fns.h).
 *
 * As pp_loop.h, a header of static functions rather than a table of
 * function pointers: an operation here takes tens of nanoseconds, and an
 * indirect call per call would show.  The includer defines, before the
 * #include, its types and calls (static inline; a failure ends the job):
 *   lat_b_h          the handles the calls take (window, PSCW group;
 *                    MPI: the function table), read once per loop into
 *                    registers
 *   lat_b_aint       a target displacement
 *   lat_b_h lat_b_handles(s)      s's handles
 *   lat_b_aint lat_b_disp(s)      the displacement of the peer's first byte
 *   double lat_b_now(void)        seconds of CLOCK_MONOTONIC
 *   lat_b_fence(h, last)          a fence; last: NOSUCCEED
 *   lat_b_start, lat_b_complete, lat_b_post, lat_b_wait (h)
 *                                 PSCW with the group {peer}
 *   lat_b_lock, lat_b_unlock, lat_b_flush, lat_b_flush_local (h, t)
 *                                 on rank t; lock takes the SHARED lock
 *   lat_b_lock_all, lat_b_unlock_all (h)
 *   lat_b_put(h, src, n, t, disp), lat_b_get(h, dst, n, t, disp),
 *   lat_b_acc(h, src, words, t, disp)
 *                                 n bytes, or words uint64 elements, SUM
 *   int lat_b_window_run(s, bytes, fn, arg)
 *                                 collective: fn(arg) with s's window, of
 *                                 s->kind and bytes, opened before and
 *                                 freed after (bench_window_run); what fn
 *                                 returns
 *   unsigned char *lat_b_window_base(s)
 *                                 this rank's memory of that window
 *   lat_b_group_open(s), lat_b_group_close(s)
 *                                 collective: s's PSCW group {peer} of
 *                                 that window made, freed
 *   lat_b_win_sync(s)             untimed: this rank's stores into its
 *                                 window visible to the peer's accesses
 *                                 and the peer's to this rank (a memory
 *                                 barrier; s->lock_open: rank 0 holds the
 *                                 flush modes' lock)
 *   lat_b_barrier(s)              both ranks meet (an MPI backend: in
 *                                 its own table's MPI_Barrier)
 * It then builds its lat_rma_ops from lat_window_run, lat_window_begin,
 * lat_window_end, lat_settle, lat_point_begin, lat_point_end and lat_loop,
 * and its own collectives.
 *
 * Between batches (settle) the ranks meet in a barrier between two window
 * syncs (the stores before are published, the peer's seen after), or in a
 * fence in the fence mode; in the passive modes rank 1 spends rank 0's
 * loop in that barrier, as in OSU -- where a library that needs the
 * target to progress one-sided calls gets it. */
#ifndef BENCH_LAT_LOOP_H
#define BENCH_LAT_LOOP_H

#include "lat_rma.h"

static int lat_window_run(lat_rma *s, size_t bytes, int (*fn)(void *),
                          void *arg)
{
    return lat_b_window_run(s, bytes, fn, arg);
}

/* The window just opened: its memory, and PSCW's group when the run
 * measures pscw. */
static void lat_window_begin(lat_rma *s)
{
    s->win = lat_b_window_base(s);
    if (bench_list_has(s->opts->syncs, lat_sync_names[LAT_PSCW]))
        lat_b_group_open(s);
}

static void lat_window_end(lat_rma *s)
{
    if (bench_list_has(s->opts->syncs, lat_sync_names[LAT_PSCW]))
        lat_b_group_close(s);
    s->win = NULL;
}

static void lat_settle(lat_rma *s)
{
    if (s->sync == LAT_FENCE) {
        lat_b_fence(lat_b_handles(s), 0);
        return;
    }
    lat_b_win_sync(s);
    lat_b_barrier(s);
    lat_b_win_sync(s);
}

static int lat_locked_mode(const lat_rma *s)
{
    return (s->sync == LAT_FLUSH || s->sync == LAT_FLUSH_LOCAL) && s->me == 0;
}

static void lat_point_begin(lat_rma *s)
{
    if (lat_locked_mode(s)) {
        lat_b_lock(lat_b_handles(s), s->peer);
        s->lock_open = 1;
    }
}

static void lat_point_end(lat_rma *s)
{
    if (s->lock_open) {
        lat_b_unlock(lat_b_handles(s), s->peer);
        s->lock_open = 0;
    } else if (s->sync == LAT_FENCE) {
        lat_b_fence(lat_b_handles(s), 1);
    }
}

static void lat_op(lat_rma *s, lat_b_h h, lat_b_aint disp)
{
    int t = s->peer;
    size_t n = s->n;
    switch (s->op) {
    case PP_PUT: {
        /* s->pieces puts of adjacent bytes, the last the rest (lat_rma.h);
         * one put of n bytes in the latency suite. */
        const unsigned char *src = lat_rma_origin(s);
        size_t off = 0, p = s->piece;
        for (int j = 1; j < s->pieces; j++, off += p)
            lat_b_put(h, src + off, p, t, disp + (lat_b_aint)off);
        lat_b_put(h, src + off, n - off, t, disp + (lat_b_aint)off);
        break;
    }
    case PP_GET:
        lat_b_get(h, lat_rma_result(s), n, t, disp);
        break;
    default: /* PP_ACC */
        lat_b_acc(h, lat_rma_origin(s), n / 8, t, disp);
        break;
    }
}

static double lat_loop(lat_rma *s, long iters)
{
    lat_b_h h = lat_b_handles(s);
    lat_b_aint disp = lat_b_disp(s) + (lat_b_aint)lat_rma_disp(s);
    int t = s->peer;
    if (s->me != 0 && s->sync != LAT_FENCE && s->sync != LAT_PSCW)
        return 0.0; /* the target waits in the next settle */
    double t0 = lat_b_now();
    for (long i = 0; i < iters; i++) {
        switch (s->sync) {
        case LAT_FENCE:
            lat_b_fence(h, 0);
            if (s->me == 0)
                lat_op(s, h, disp);
            lat_b_fence(h, 0);
            if (s->me == 1)
                lat_op(s, h, disp);
            lat_b_fence(h, 0);
            break;
        case LAT_PSCW:
            if (s->me == 0) {
                lat_b_start(h);
                lat_op(s, h, disp);
                lat_b_complete(h);
                lat_b_post(h);
                lat_b_wait(h);
            } else {
                lat_b_post(h);
                lat_b_wait(h);
                lat_b_start(h);
                lat_op(s, h, disp);
                lat_b_complete(h);
            }
            break;
        case LAT_LOCK:
            lat_b_lock(h, t);
            lat_op(s, h, disp);
            lat_b_unlock(h, t);
            break;
        case LAT_LOCK_ALL:
            lat_b_lock_all(h);
            lat_op(s, h, disp);
            lat_b_unlock_all(h);
            break;
        case LAT_FLUSH:
            lat_op(s, h, disp);
            lat_b_flush(h, t);
            break;
        default: /* LAT_FLUSH_LOCAL */
            lat_op(s, h, disp);
            lat_b_flush_local(h, t);
            break;
        }
    }
    double sec = lat_b_now() - t0;
    if (s->sync == LAT_FLUSH_LOCAL)
        lat_b_flush(h, t);
    return sec;
}

#endif
