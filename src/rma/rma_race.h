/* rma_race.h -- ORMA_CHECK=race: the one-sided bugs MPI users cannot see,
 * reported with both sides named.
 *
 * Every access (put, get, the accumulate family) records the bytes it
 * touches at its target, in a table of the target's for each window: a
 * shared segment "r<seq>-r<job rank>" named in its control block
 * (race_seq), which origins on this node map at their first access to it,
 * whatever the transport (over the net transport too: the table is a
 * bookkeeping of their own, not the data's path).  An access is checked
 * against the table's accesses that MPI does not order with it (MPI-4.1
 * 12.7, "Semantics and Correctness"):
 *   - fence: those of the same fence epoch (all ranks count fences alike);
 *   - PSCW: those of the same exposure epoch of the target (the target
 *     numbers its posts in its table; an access issued before the post it
 *     belongs to is numbered, and checked, by that post);
 *   - lock and lock_all: those still live -- an access lives until its
 *     origin's flush or unlock of that target (retired before the lock is
 *     let go, so that the next holder never meets it);
 * and conflicts when the bytes overlap and the pair is not allowed:
 * get/get, and accumulates of the same basic type with the same op or
 * ORMA_NO_OP, are; accumulates of one origin are ordered.  The one who
 * finds a conflict reports it, once, naming both ranks, both calls, the
 * bytes and the epoch, and where each call was made (rma_race_site.c).
 *
 * A notified access (win->notify_issuing) is checked as it is recorded,
 * then complete: its target may wait for the counter and reuse the bytes,
 * and its origin reuse its buffer after a reply, with no synchronization
 * orma sees.
 *
 * Besides: accesses outside the target's window or attached regions (the
 * call's ORMA_ERR_RANGE, reported as well); origin buffers of puts and
 * accumulates changed before the operation completed (hashed at the call,
 * again at the flush, unlock, fence, complete or request completion);
 * attached memory detached, and window memory freed, while an epoch may
 * still reach it; and at the close of a fence or exposure epoch, put data
 * no longer in place although no access of the epoch wrote over it: a
 * load or store of a process mapping the window did (what orma can see of
 * the target's own accesses).  The two checks by content look at the data
 * of every access of a call site's first 32, then of one in 16 chosen at
 * random (rma_race_content); the checks of accesses against each other
 * look at every one.
 *
 * Off (the default), every hook is one predictable branch; the fast paths
 * (rma_try_target, rma_flush_try, rma_unlock_try, the notify and
 * accumulate tries) step aside under it, so that every access passes
 * here. */
#ifndef ORMA_RMA_RACE_H
#define ORMA_RMA_RACE_H

#include "rma_win.h"
#include "util_config.h"

#include <orma.h>
#include <stddef.h>
#include <stdint.h>

enum rma_race_kind { RMA_RACE_PUT = 1, RMA_RACE_GET, RMA_RACE_ACC };
#define RMA_RACE_OP_CAS 0xFE /* compare_and_swap's "op" */

/* One access as the api layer checked it. */
struct rma_race_access {
    const char *call;  /* the public call, e.g. "orma_put" */
    int kind;          /* enum rma_race_kind */
    int op, typeid_;   /* accumulates: op (or RMA_RACE_OP_CAS) and the basic type */
    size_t offset;     /* at the target: bytes past its base, or the address (dynamic) */
    size_t len;        /* bytes reached from offset */
    orma_type ttype;   /* the target layout when not one run from offset, else NULL */
    size_t tcount;
    const void *origin; /* data of a put or accumulate, to hash, or NULL */
    orma_type otype;
    size_t ocount;
    int fetch;          /* it reads the target: a request for it completes it there too */
};

/* The call site reported for the calls of this thread: the public entry
 * sets it (API_RACE_ENTER), a face first (api_race_site). */
extern _Thread_local const void *rma_race_cur;
/* Calls say where they were made: ORMA_CHECK=race, or some window checked
 * (info orma_check_race=true) was made. */
extern int rma_race_sites;
extern _Thread_local const void *rma_race_face;
static inline void rma_race_enter(const void *ra)
{
    rma_race_cur = rma_race_face ? rma_race_face : ra;
    rma_race_face = NULL;
}

/* Window life: our table made (collective creation, before the control
 * blocks are exchanged), and given back. */
int rma_race_open(struct rma_win *win);
void rma_race_release(struct rma_win *win);

/* An access issued (after its checks passed). */
void rma_race_record(struct rma_win *win, int target, const struct rma_race_access *a);
/* An access refused as outside the target's memory: reported too, with
 * the reason the call returned (why NULL), or why. */
void rma_race_outside(struct rma_win *win, int target, const struct rma_race_access *a, const char *why);
/* A request-based access just issued completes with req. */
void rma_race_request(struct rma_win *win, orma_request req);
void rma_race_request_done(orma_request req, const char *call);

/* Completion points of origins: flush (target -1: all; local: only local
 * completion), before an unlock lets go (target -1: unlock_all), closing
 * fence and complete. */
void rma_race_flushed(struct rma_win *win, int target, int local, const char *call);
void rma_race_unlocking(struct rma_win *win, int target, const char *call);
void rma_race_fence_closing(struct rma_win *win, const char *call);
void rma_race_completing(struct rma_win *win, const char *call);
/* PSCW: a start of access epochs to ranks, a post of an exposure epoch to
 * ranks (window ranks). */
void rma_race_starting(struct rma_win *win, const int *ranks, int n);
void rma_race_posting(struct rma_win *win, const int *ranks, int n);
/* Targets: a fence or wait closed an exposure (the put data checked). gen:
 * the fence epoch closed. */
void rma_race_fence_closed(struct rma_win *win, uint32_t gen);
void rma_race_wait_closed(struct rma_win *win);
/* Memory leaving: [base, base + size) detached from win, or freed. */
void rma_race_detaching(struct rma_win *win, const void *base, size_t size, const char *call);
void rma_race_freeing(const void *base, size_t size, const char *call);

/* Sites (rma_race_site.c): ours numbered, and a rank's described. */
uint32_t rma_race_site_id(const void *ra);
void rma_race_site_text(const char *token, int job_rank, uint32_t id, char *buf, size_t len);
void rma_race_site_release(void);
/* One report line, then ORMA_CHECK_ABORT's end. */
void rma_race_report(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));

#endif
