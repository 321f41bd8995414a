/* pp_loop.h -- a pingpong series (one operation on one window, every
 * selected size and synchronization mode), written once for both programs:
 * pp_orma.c includes it with orma's calls (orma-bench, backend "orma"),
 * mpi/mpib_rma.c with MPI's (orma-bench-mpi-<variant>: mpi-rma, and
 * orma-mpi with liborma-mpi preloaded).  Both backends' rows therefore
 * time the same exchange, the same repetitions and the same checks.
 *
 * Why a header of static functions and not a table of function pointers
 * as li.h's: the timed round trip is a handful of calls of tens of
 * nanoseconds each, and an indirect call per call would add a nanosecond
 * or two to every one of them.  So a backend's .c defines its types,
 * includes pp_state.h and pp_calls.h, defines the other ppb_* calls listed
 * there (static inline, each one library call or a few), then includes
 * this file: the compiler sees direct calls -- the logic exists once in
 * the source, the calls are resolved at compile time.
 *
 * One repetition, timed on rank 0, is a round trip in the point's
 * synchronization mode:
 *   put: rank 0 puts n bytes into rank 1's window; rank 1 puts the same
 *        bytes (from its window) back into rank 0's window.
 *   get: rank 0 gets n bytes of rank 1's window; rank 1 gets n bytes of
 *        rank 0's window.
 *   acc, gacc, fop, cas: as put, with the accumulate-family call on
 *        uint64 elements, SUM (pp_acc.h).
 * Then, untimed: each rank checks all n bytes it received against the
 * pattern of this repetition, prepares the next repetition's data, and
 * synchronizes once more (settle) so nobody overwrites a buffer still
 * being checked (and, for get, so the owner's new window content is
 * complete before it is read).  Points, batches, warm-up and repetition
 * counts follow pp_def.h and reps.h.
 *
 * The modes:
 * fence     rank 0: op; fence; rank 1: op; fence -- as the suite always did.
 * pscw      rank 0: post({1}); start({1}); op; complete; wait.
 *           rank 1: post({0}); wait; start({0}); op; complete.
 *           Both ranks post first thing: a post never blocks, complete
 *           waits only for posts its queued operations need (made first,
 *           so already made or about to be), and each wait waits for a
 *           complete that does not depend on it -- no deadlock.  Rank 0
 *           posts its exposure for the second half before its own access,
 *           so rank 1's op goes straight to memory instead of being queued.
 * lock      per direction: lock(SHARED, peer); op; unlock(peer); notify.
 * lock_all  per direction: lock_all; op; unlock_all; notify.
 * flush     per direction: op; flush(peer); notify -- inside one lock_all
 *           epoch opened at the start of the point and closed at its end.
 *
 * Notification in the passive modes: a raw flag on its own cache line of
 * a shared window, raised with a release store once unlock, unlock_all or
 * flush has returned.  Those calls complete the operation at the target
 * -- every byte of it -- so a rank that sees the flag (acquire load) sees
 * all n bytes, whatever order the bytes of one put were written in, and
 * the verification still checks every byte.  A raw flag rather than a
 * flag word put through the library keeps the timed epoch exactly lock +
 * op + unlock (no second put and flush inside it), and makes the
 * notification the exchange the cache-line floor times, so the ratio to
 * that floor shows what the epochs cost.
 *
 * lock takes the SHARED lock: what origins writing disjoint parts of a
 * window take, and what lock_all takes, so lock and lock_all differ only
 * in the calls.
 *
 * A series opens its window once, of the largest size, and, for every
 * size, runs one point per selected mode in the order of pp_sync_names, so
 * that the modes of a size are measured seconds apart: on a virtual
 * machine the cross-core latency drifts within seconds, and the modes are
 * compared with each other and with the cache-line floor.  The flavours
 * made per point (fit.h: create_fit, stack) open a window of the point's
 * size for every point instead, in the same order; a stack window too
 * large for the stack skips its size (noted by the suite). */
#ifndef BENCH_PP_LOOP_H
#define BENCH_PP_LOOP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "opts.h"
#include "pattern.h"
#include "pp_state.h"

/* ---- the epochs and the timed round trip ---- */

/* The series' flags, and whether its windows need a PSCW group. */
static void pp_sync_series_open(pp_state *s, const char *syncs)
{
    s->have_group = bench_list_has(syncs, pp_sync_names[PP_PSCW]);
    s->have_flags = 0;
    s->turn = 0;
    for (int m = PP_LOCK; m <= PP_FLUSH; m++)
        if (bench_list_has(syncs, pp_sync_names[m]))
            s->have_flags = 1;
    /* Collective, and the same list on every rank. */
    if (s->have_flags)
        ppb_flags_open(s);
}

static void pp_sync_series_close(pp_state *s)
{
    if (s->have_flags)
        ppb_flags_close(s);
    s->have_flags = 0;
    s->have_group = 0;
}

/* A window's epochs: its PSCW group made once it is open, ... */
static void pp_sync_window_open(pp_state *s)
{
    s->fence_open = 0;
    s->lock_all_open = 0;
    if (s->have_group)
        ppb_group_open(s);
}

/* ... and before it is freed its last fence epoch closed, the group
 * freed. */
static void pp_sync_window_close(pp_state *s)
{
    if (s->fence_open)
        ppb_fence(s->w.win, 1);
    s->fence_open = 0;
    if (s->have_group)
        ppb_group_close(s);
}

/* Untimed, after verification and the next repetition's data: nobody
 * writes a buffer the other rank still checks, and new window contents
 * are visible before they are read. */
static void pp_sync_settle(pp_state *s)
{
    if (s->sync == PP_FENCE) {
        ppb_fence(s->w.win, 0);
        return;
    }
    /* No epoch to close: a memory barrier for the local stores into the
     * window, then a barrier. */
    ppb_win_sync(s);
    ppb_barrier(s);
}

/* Collective: open the epochs of a point of mode s->sync, after the
 * point's first data were prepared; ends with a synchronization that
 * publishes them. */
static void pp_sync_point_begin(pp_state *s)
{
    if (s->sync == PP_FENCE) {
        /* Opens the epoch, or closes the previous fence point's and opens
         * the next: the calls of a fence-only run are those of old. */
        ppb_fence(s->w.win, 0);
        s->fence_open = 1;
        return;
    }
    if (s->fence_open)
        ppb_fence(s->w.win, 1);
    s->fence_open = 0;
    pp_sync_settle(s);
    if (s->sync == PP_FLUSH) {
        ppb_lock_all(s->w.win);
        s->lock_all_open = 1;
    }
}

static void pp_sync_point_end(pp_state *s)
{
    if (s->lock_all_open)
        ppb_unlock_all(s->w.win);
    s->lock_all_open = 0;
}

/* Rank 0's operand is its private send buffer, rank 1's the bytes it just
 * received: its window, as for put.  gacc, fop and cas return the target's
 * old elements into recv. */
static void pp_op_call(pp_state *s)
{
    int t = s->peer;
    size_t n = s->n;
    const void *from = s->me == 0 ? s->send : s->w.base;
    switch (s->op) {
    case PP_PUT:
        ppb_put(s, from, n, t);
        break;
    case PP_GET:
        ppb_get(s, s->recv, n, t);
        break;
    case PP_ACC:
        ppb_acc(s, from, n / 8, t);
        break;
    case PP_GACC:
        ppb_gacc(s, from, s->recv, n / 8, t);
        break;
    case PP_FOP:
        ppb_fop(s, from, s->recv, t);
        break;
    default: /* PP_CAS */
        ppb_cas(s, from, &s->acc.cmp, s->recv, t);
        break;
    }
}

/* This rank's half of a passive-mode round trip: the epoch, then the
 * flag (after the closing call, see the top of the file). */
static void pp_passive_turn(pp_state *s)
{
    pp_b_win win = s->w.win;
    switch (s->sync) {
    case PP_LOCK:
        ppb_lock(s->peer, win);
        pp_op_call(s);
        ppb_unlock(s->peer, win);
        break;
    case PP_LOCK_ALL:
        ppb_lock_all(win);
        pp_op_call(s);
        ppb_unlock_all(win);
        break;
    default: /* PP_FLUSH, inside the point's lock_all epoch */
        pp_op_call(s);
        ppb_flush(s->peer, win);
        break;
    }
    ppb_flag_raise(s);
}

static void pp_fence_round_trip(pp_state *s)
{
    pp_b_win win = s->w.win;
    if (s->me == 0)
        pp_op_call(s);
    ppb_fence(win, 0);
    if (s->me == 1)
        pp_op_call(s);
    ppb_fence(win, 0);
}

static void pp_pscw_round_trip(pp_state *s)
{
    pp_b_win win = s->w.win;
    pp_b_group g = s->peer_group;
    ppb_post(g, win);
    if (s->me == 0) {
        ppb_start(g, win);
        pp_op_call(s);
        ppb_complete(win);
        ppb_wait(win);
    } else {
        ppb_wait(win);
        ppb_start(g, win);
        pp_op_call(s);
        ppb_complete(win);
    }
}

/* One round trip of mode s->sync; returns its seconds (rank 0's clock). */
static double pp_sync_timed(pp_state *s)
{
    double t0 = ppb_now();
    switch (s->sync) {
    case PP_FENCE:
        pp_fence_round_trip(s);
        break;
    case PP_PSCW:
        pp_pscw_round_trip(s);
        break;
    default:
        /* Both ranks count the same turns; flags only grow. */
        s->turn++;
        if (s->me == 0) {
            pp_passive_turn(s);
            ppb_flag_wait(s);
        } else {
            ppb_flag_wait(s);
            pp_passive_turn(s);
        }
        break;
    }
    return ppb_now() - t0;
}

/* ---- the data and its checks ---- */

/* put: the data travels 0 -> 1 -> 0, one stream.  get: each rank's window
 * holds its own stream, so salt by owner. */
static uint64_t pp_seed_put(const pp_state *s)
{
    return bench_pattern_seed(s->rep, 0);
}

static uint64_t pp_seed_get(const pp_state *s, int owner)
{
    return bench_pattern_seed(s->rep, 1u + (unsigned)owner);
}

/* The accumulate-family ops at the start of a point: each rank writes a
 * fresh pattern into its window's first n bytes, then the first round
 * trip is planned. */
static void pp_atomic_begin(pp_state *s)
{
    s->acc.op = s->op;
    s->acc.me = s->me;
    s->acc.peer = s->peer;
    s->acc.n = s->n;
    pp_acc_begin(&s->acc, s->rep, s->w.base, s->send);
}

/* The accumulate-family ops' checks: the elements this rank's call
 * returned and, when window is non-zero, its window against the plan.
 * Rank 0 checks its window and results after every round trip (inside the
 * timed batch, as for put).  Rank 1 checks its results after every round
 * trip too (they are not echoed back, as put's data is), but its window
 * only after each repetition, untimed: inside a batch rank 0 may already
 * be updating it.  0 when they are wrong (reported, s->ok cleared). */
static int pp_atomic_verify(pp_state *s, int window)
{
    const char *what;
    size_t i;
    uint64_t want, got;
    if (pp_acc_check(&s->acc, window ? s->w.base : NULL, s->recv, &what, &i,
                     &want, &got))
        return 1;
    /* The first bad repetition of a point only; the loop goes on so that
     * both ranks keep making the same collective calls. */
    if (s->ok)
        fprintf(stderr, "%s: rank %d: %s: %s+%s on %s window, %zu bytes, "
                "repetition %llu: %s element %zu is 0x%016llx, expected "
                "0x%016llx\n", s->prog, s->me, s->backend, pp_op_names[s->op],
                pp_sync_names[s->sync], s->w.kind, s->n,
                (unsigned long long)s->rep, what, i,
                (unsigned long long)got, (unsigned long long)want);
    s->ok = 0;
    return 0;
}

/* Data for repetition s->rep: put's origin at rank 0, get's target windows;
 * the accumulate-family ops plan the next round trip. */
static void pp_prepare(pp_state *s)
{
    if (pp_op_is_atomic(s->op)) {
        pp_acc_next(&s->acc, s->rep, s->send);
        return;
    }
    if (s->op == PP_PUT) {
        if (s->me == 0)
            bench_pattern_fill(s->send, s->n, pp_seed_put(s));
    } else {
        bench_pattern_fill(s->w.base, s->n, pp_seed_get(s, s->me));
    }
}

static void pp_verify(pp_state *s)
{
    if (pp_op_is_atomic(s->op)) {
        pp_atomic_verify(s, 1); /* reports, clears s->ok */
        return;
    }
    int put = s->op == PP_PUT;
    const unsigned char *buf = put ? s->w.base : s->recv;
    uint64_t seed = put ? pp_seed_put(s) : pp_seed_get(s, s->peer);
    size_t off;
    unsigned want, got;
    if (bench_pattern_check(buf, s->n, seed, &off, &want, &got))
        return;
    /* Report the first bad repetition of a point only; the loop goes on so
     * that both ranks keep making the same collective calls. */
    if (s->ok)
        fprintf(stderr, "%s: rank %d: %s: %s+%s on %s window, %zu bytes, "
                "repetition %llu: byte %zu is 0x%02x, expected 0x%02x\n",
                s->prog, s->me, s->backend, pp_op_names[s->op],
                pp_sync_names[s->sync], s->w.kind, s->n,
                (unsigned long long)s->rep, off, got, want);
    s->ok = 0;
}

/* ---- repetitions, points, the series ---- */

/* Small puts are timed in batches (pp_def.h): a repetition of PP_BATCH
 * round trips is timed as a whole and reported per round trip.  Every
 * round trip of a batch still carries new data and is verified: rank 0
 * fills a fresh pattern before it and checks, after it, what rank 1 echoed
 * back (a stale byte on either leg shows there), inside the timed loop --
 * which only makes the figure slower.  The accumulate-family ops are
 * batched alike (every op but get); rank 1 also checks the elements its
 * calls return, which are not echoed back. */

/* Inside a batch: the next round trip's data, no synchronization. */
static void pp_batch_next(pp_state *s)
{
    if (pp_op_is_atomic(s->op))
        pp_acc_next(&s->acc, s->rep, s->send); /* the plan is shared */
    else if (s->me == 0)
        bench_pattern_fill(s->send, s->n, pp_seed_put(s));
}

static double pp_timed_batch(pp_state *s)
{
    double t0 = ppb_now();
    for (int j = 0; j < PP_BATCH - 1; j++) {
        pp_sync_timed(s);
        if (s->me == 0)
            pp_verify(s);
        else if (pp_op_is_atomic(s->op))
            pp_atomic_verify(s, 0);
        s->rep++;
        pp_batch_next(s);
    }
    pp_sync_timed(s);
    return (ppb_now() - t0) / PP_BATCH;
}

/* One repetition (pp_samples' rep); *sec_p (if not NULL) receives the
 * timed part. */
static void pp_repetition(void *arg, double *sec_p)
{
    pp_state *s = arg;
    double t = pp_batched(s->op, s->n) ? pp_timed_batch(s) : pp_sync_timed(s);
    pp_verify(s);
    s->rep++;
    pp_prepare(s);
    pp_sync_settle(s);
    if (sec_p != NULL)
        *sec_p = t;
}

static long pp_bcast_reps(void *arg, long v)
{
    return ppb_bcast(arg, v);
}

static int pp_point(pp_state *s, size_t n, pp_sync sync)
{
    s->n = n;
    s->sync = sync;
    s->ok = 1;
    /* The last repetition prepared only the previous size's bytes. */
    if (pp_op_is_atomic(s->op))
        pp_atomic_begin(s);
    else
        pp_prepare(s);
    pp_sync_point_begin(s);
    pp_reps r = {s, pp_repetition, pp_bcast_reps, ppb_now, ppb_xmalloc};
    double *us;
    long reps = pp_samples(s->ctx->opts, &r, &us);
    pp_sync_point_end(s);
    int ok = ppb_all_ok(s, s->ok);
    const char *mode = pp_sync_names[sync], *opname = pp_op_names[s->op];
    if (ok)
        ppb_emit(s, opname, mode, us, reps);
    else if (s->me == 0)
        fprintf(stderr, "%s: %s: %s+%s on %s window, %zu bytes: data did "
                "not verify; stopping\n", s->prog, s->backend, opname, mode,
                s->w.kind, n);
    free(us);
    return ok ? 0 : -1;
}

/* ppb_window_run's fn: the point s->n, s->sync on the window just
 * opened for it. */
static int pp_point_on_window(void *arg)
{
    pp_state *s = arg;
    pp_sync_window_open(s);
    int st = pp_point(s, s->n, s->sync);
    pp_sync_window_close(s);
    return st;
}

/* Every size of --sizes that suits the op, each selected mode: on s->w,
 * or, per_point, each point on a window of its own of its size. */
static int pp_points(pp_state *s, int per_point)
{
    const bench_opts *o = s->ctx->opts;
    int st = BENCH_OK;
    for (int i = 0; i < o->nsizes && st == BENCH_OK; i++) {
        size_t n = o->sizes[i];
        if (!pp_op_size_ok(s->op, n))
            continue; /* noted by the caller */
        /* Both ranks skip alike (noted by the suite). */
        if (per_point && !ppb_all_ok(s, bench_window_fits(s->kind, n)))
            continue;
        for (int m = 0; m < PP_NSYNC && st == BENCH_OK; m++) {
            if (!bench_list_has(o->syncs, pp_sync_names[m]))
                continue;
            char what[96];
            snprintf(what, sizeof what, "%s %s+%s %s", s->backend,
                     pp_op_names[s->op], pp_sync_names[m], s->kind);
            ppb_progress(s, what, n);
            int rc;
            if (per_point) {
                s->n = n;
                s->sync = (pp_sync)m;
                rc = ppb_window_run(s, n, pp_point_on_window);
            } else {
                rc = pp_point(s, n, (pp_sync)m);
            }
            if (rc != 0)
                st = BENCH_FAIL;
        }
    }
    return st;
}

/* ppb_window_run's fn: every point on the series' one window. */
static int pp_points_on_window(void *arg)
{
    pp_state *s = arg;
    pp_sync_window_open(s);
    int st = pp_points(s, 0);
    pp_sync_window_close(s);
    return st;
}

/* Collective: the series of s->op on windows of s->kind, with ctx,
 * backend, prog, kind, op, me and peer set and the rest zero: one window
 * of the largest size for all points, or one per point for the flavours
 * made so (fit.h).  Every size of --sizes that suits the op, each selected
 * mode.  Returns a BENCH_* status, the same on both ranks. */
static int pp_series(pp_state *s)
{
    const bench_opts *o = s->ctx->opts;
    size_t max = bench_opts_max_size(o);
    s->send = ppb_xmalloc(max);
    s->recv = ppb_xmalloc(max);
    memset(s->send, 0, max);
    memset(s->recv, 0, max);
    pp_sync_series_open(s, o->syncs);
    int st;
    if (bench_window_per_point(s->kind))
        st = pp_points(s, 1);
    else
        st = ppb_window_run(s, max, pp_points_on_window) == BENCH_OK
                 ? BENCH_OK
                 : BENCH_FAIL;
    pp_sync_series_close(s);
    free(s->send);
    free(s->recv);
    return st;
}

#endif
