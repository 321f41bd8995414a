/* pp_state.h -- a pingpong series' state, and what pp_loop.h needs from
 * a backend (see there for the order of inclusion).
 *
 * The includer's types, before the #include:
 *   pp_b_ctx     the run: its opts and rank are read
 *   pp_b_window  the window of the series or of the point: kind, win,
 *                base and disp[rank] as windows.h's bench_window
 *   pp_b_win     the library's window handle (the type of win)
 *   pp_b_group   a group handle (PSCW's {peer})
 *   pp_b_flags   the passive modes' flag window
 *
 * The calls, defined after this #include and before pp_loop.h's, static
 * inline (a failure ends the job: BENCH_CHECK, MPIB_CHECK).  Those that
 * are one library call each, the same in orma's and MPI's names -- the
 * epochs', the ops and ppb_group_open/close -- pp_calls.h defines once
 * for both; the includer defines the others:
 *   int ppb_window_run(s, size, fn)
 *                              collective: fn(s) with s->w a window of
 *                              s->kind of size bytes, opened before and
 *                              closed after (windows.h's
 *                              bench_window_run); what fn returns
 *   double ppb_now(void)       seconds of CLOCK_MONOTONIC
 *   void *ppb_xmalloc(n)       malloc that ends the job when it fails
 *   the epochs' calls on window win, with the library's arguments but
 *   the asserts (the timed loops read win and the group once per round
 *   trip, not after every call):
 *   ppb_fence(win, last)       a fence; last: it ends the last epoch
 *                              (NOSUCCEED)
 *   ppb_post(g, win), ppb_start(g, win), ppb_complete(win), ppb_wait(win)
 *   ppb_lock(t, win), ppb_unlock(t, win)
 *                              lock(SHARED, t), unlock(t)
 *   ppb_lock_all(win), ppb_unlock_all(win), ppb_flush(t, win)
 *   ppb_win_sync, ppb_barrier (s)
 *                              outside fence epochs, untimed: this rank's
 *                              stores into its window become visible to
 *                              the other's accesses (a memory barrier),
 *                              then both ranks meet
 *   ppb_put(s, from, n, t), ppb_get(s, into, n, t),
 *   ppb_acc(s, from, words, t), ppb_gacc(s, from, into, words, t),
 *   ppb_fop(s, from, into, t), ppb_cas(s, from, cmp, into, t)
 *                              the ops on rank t's window at its first
 *                              byte: n bytes, or words uint64 elements,
 *                              SUM
 *   ppb_group_open, ppb_group_close, ppb_flags_open, ppb_flags_close (s)
 *                              collective, at a series' start and end:
 *                              s->peer_group := {s->peer}, free it; open
 *                              and close s->flags (every flag 0)
 *   ppb_flag_raise, ppb_flag_wait (s)
 *                              this rank's flag raised to s->turn
 *                              (release); wait (acquire) until the
 *                              peer's reaches it
 *   long ppb_bcast(s, v), int ppb_all_ok(s, ok)
 *                              collective: rank 0's v; 1 when ok on both
 *   ppb_emit(s, op, sync, us, reps), ppb_progress(s, what, n)
 *                              rank 0: the point's row (report.h's
 *                              bench_emit), the progress line */
#ifndef BENCH_PP_STATE_H
#define BENCH_PP_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "pp_acc.h"
#include "pp_def.h"

typedef struct pp_state {
    const pp_b_ctx *ctx;
    const char *backend;  /* the rows' backend: "orma", "mpi-rma/openmpi" */
    const char *prog;     /* the program, first word of its messages */
    const char *kind;     /* the window flavour */
    pp_b_window w;        /* the window of the series or of the point */
    pp_op op;
    int me, peer;
    pp_sync sync;         /* mode of the current point */
    unsigned char *send;  /* rank 0's origin buffer (put, accumulates) */
    unsigned char *recv;  /* get: the origin buffer; gacc, fop, cas: the
                             result buffer */
    size_t n;             /* message size of the current point */
    uint64_t rep;         /* repetition number, across points */
    int ok;               /* nothing wrong yet in the current point */
    int fence_open;       /* a fence epoch is open on w */
    int lock_all_open;    /* the flush mode's lock_all epoch is open */
    int have_group;       /* peer_group is made (pscw selected) */
    pp_b_group peer_group; /* {peer} */
    int have_flags;       /* flags is open (some passive mode selected) */
    pp_b_flags flags;
    uint64_t turn;        /* last flag value raised, both ranks alike */
    pp_acc acc;           /* accumulate-family ops: the plan (pp_acc.h) */
} pp_state;

#endif
