/* nt_test.h -- helpers of the notified-access tests: the epoch kinds behind
 * one interface, what makes a notification travel, windows with counters
 * of every flavour, and a watchdog that names the step a rank hung in.
 *
 * Over the net transport (ORMA_TRANSPORT=net under mpirun) a notified
 * operation travels with the origin's next synchronization of the epoch:
 * the origins flush after each one in passive epochs, and in fence and
 * PSCW epochs the targets wait for their counters only once the epoch is
 * closed.  On shared memory they wait inside the epoch, which is what
 * orma.h promises there. */
#ifndef ORMA_NT_TEST_H
#define ORMA_NT_TEST_H

#include "sync_test.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline int nt_net(void)
{
    const char *t = getenv("ORMA_TRANSPORT");
    return t && !strcmp(t, "net");
}

/* Join the job; rt and lt are this rank's right and left neighbours in
 * the ring of ranks (itself at one rank). */
static inline void nt_init(int *argc, char ***argv, int *rank_p, int *size_p, int *rt_p, int *lt_p)
{
    rt_init(argc, argv, rank_p, size_p);
    *rt_p = (*rank_p + 1) % *size_p;
    *lt_p = (*rank_p + *size_p - 1) % *size_p;
}

/* ---- watchdog ------------------------------------------------------------ */

/* The step a rank is in; a rank that stays in one longer than
 * ST_WAIT_LIMIT seconds reports it and fails, instead of being killed by
 * the ctest timeout without a word.  The report is written whole, in one
 * call, so that the ranks' reports do not interleave. */
static char nt_step_text[320];

static inline void nt_watchdog_fire(int sig)
{
    (void)sig;
    ssize_t rc = write(2, nt_step_text, strlen(nt_step_text));
    (void)rc;
    _exit(1);
}

/* Enter a step: its description, and ST_WAIT_LIMIT seconds to finish it. */
static inline void nt_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void nt_step(const char *fmt, ...)
{
    size_t len = sizeof nt_step_text - 1; /* room for the newline */
    int n = snprintf(nt_step_text, len, "rank %d: no progress for %.0f s: ", check_rank(), ST_WAIT_LIMIT);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(nt_step_text + n, len - (size_t)n, fmt, ap);
    va_end(ap);
    strcat(nt_step_text, "\n");
    signal(SIGALRM, nt_watchdog_fire);
    alarm((unsigned)ST_WAIT_LIMIT);
}

/* Leave the job, rank 0 saying the program passed. */
static inline void nt_finish(const char *what)
{
    int rank = orma_rank(), n = orma_size();
    nt_step("finalize");
    CHECK_OK(orma_finalize());
    if (rank == 0)
        printf("%s: %d ranks: OK\n", what, n);
}

/* ---- epochs ---------------------------------------------------------------- */

enum nt_epoch_kind {
    NT_LOCK_EXCL,
    NT_LOCK_SHARED,
    NT_LOCK_ALL,
    NT_LOCK_ALL_NOCHECK,
    NT_FENCE,
    NT_PSCW,
    NT_NEPOCHS
};

static const char *const nt_epoch_names[NT_NEPOCHS] = {"lock(exclusive)", "lock(shared)", "lock_all",
                                                        "lock_all(nocheck)", "fence", "PSCW"};

static inline int nt_passive(int kind)
{
    return kind < NT_FENCE;
}

/* An epoch in which this rank accesses rank to and is accessed by rank
 * from (PSCW: the groups of those ranks; the others: every rank). */
struct nt_epoch {
    int kind;
    orma_win win;
    int to, from;
};

/* Open the epoch.  Not collective for the passive kinds; fence opens
 * without a barrier, so that a notified operation may find its target not
 * yet in the epoch and has to wait for it. */
static inline void nt_epoch_open(struct nt_epoch *e, int kind, orma_win win, int to, int from)
{
    e->kind = kind;
    e->win = win;
    e->to = to;
    e->from = from;
    switch (kind) {
    case NT_LOCK_EXCL:
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, to, 0, win));
        break;
    case NT_LOCK_SHARED:
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, to, 0, win));
        break;
    case NT_LOCK_ALL:
        CHECK_OK(orma_win_lock_all(0, win));
        break;
    case NT_LOCK_ALL_NOCHECK:
        CHECK_OK(orma_win_lock_all(ORMA_MODE_NOCHECK, win));
        break;
    case NT_FENCE:
        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
        break;
    default: {
        orma_group post = st_group_pair(win, from, from), start = st_group_pair(win, to, to);
        CHECK_OK(orma_win_post(post, 0, win));
        CHECK_OK(orma_win_start(start, 0, win));
        CHECK_OK(orma_group_free(&post));
        CHECK_OK(orma_group_free(&start));
        break;
    }
    }
}

/* After an operation to e->to: what makes it travel over the net
 * transport in a passive epoch (a flush), or nothing. */
static inline void nt_epoch_push(const struct nt_epoch *e)
{
    if (nt_passive(e->kind))
        CHECK_OK(orma_win_flush(e->to, e->win));
}

/* May the target wait for a notification before the epoch closes? */
static inline int nt_epoch_early(const struct nt_epoch *e)
{
    return nt_passive(e->kind) || !nt_net();
}

static inline void nt_epoch_close(struct nt_epoch *e)
{
    switch (e->kind) {
    case NT_LOCK_EXCL:
    case NT_LOCK_SHARED:
        CHECK_OK(orma_win_unlock(e->to, e->win));
        break;
    case NT_LOCK_ALL:
    case NT_LOCK_ALL_NOCHECK:
        CHECK_OK(orma_win_unlock_all(e->win));
        break;
    case NT_FENCE:
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, e->win));
        break;
    default:
        CHECK_OK(orma_win_complete(e->win));
        CHECK_OK(orma_win_wait(e->win));
        break;
    }
}

/* Epochs in which a rank accesses both its neighbours and is accessed by
 * both, for a whole stream of rounds: lock_all, shared locks of the two,
 * and (where notifications need no closing synchronization: not over the
 * net transport) one fence or one PSCW epoch. */
enum nt_pair_kind { NT_PAIR_LOCK_ALL, NT_PAIR_LOCKS, NT_PAIR_FENCE, NT_PAIR_PSCW, NT_NPAIRS };

static const char *const nt_pair_names[NT_NPAIRS] = {"lock_all", "shared locks", "fence", "PSCW"};

static inline int nt_pair_passive(int kind)
{
    return kind == NT_PAIR_LOCK_ALL || kind == NT_PAIR_LOCKS;
}

static inline void nt_pair_open(int kind, orma_win win, int rt, int lt)
{
    orma_group g = ORMA_GROUP_NULL;
    switch (kind) {
    case NT_PAIR_LOCK_ALL:
        CHECK_OK(orma_win_lock_all(0, win));
        break;
    case NT_PAIR_LOCKS:
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, win));
        if (lt != rt)
            CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, lt, 0, win));
        break;
    case NT_PAIR_FENCE:
        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
        break;
    default:
        g = st_group_pair(win, rt, lt);
        CHECK_OK(orma_win_post(g, 0, win));
        CHECK_OK(orma_win_start(g, 0, win));
        CHECK_OK(orma_group_free(&g));
        break;
    }
}

static inline void nt_pair_close(int kind, orma_win win, int rt, int lt)
{
    switch (kind) {
    case NT_PAIR_LOCK_ALL:
        CHECK_OK(orma_win_unlock_all(win));
        break;
    case NT_PAIR_LOCKS:
        CHECK_OK(orma_win_unlock(rt, win));
        if (lt != rt)
            CHECK_OK(orma_win_unlock(lt, win));
        break;
    case NT_PAIR_FENCE:
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
        break;
    default:
        CHECK_OK(orma_win_complete(win));
        CHECK_OK(orma_win_wait(win));
        break;
    }
}

/* After an operation to target in a pair epoch: in a passive one a flush
 * completes it (and sends its notification over the net transport). */
static inline void nt_pair_push(int kind, orma_win win, int target)
{
    if (nt_pair_passive(kind))
        CHECK_OK(orma_win_flush(target, win));
}

/* Pair epochs this transport can run. */
static inline int nt_pair_runs(int kind)
{
    return nt_pair_passive(kind) || !nt_net();
}

/* ---- windows with counters ------------------------------------------------ */

/* A window of the st_win kinds with n counters at this rank: asked for
 * with info "orma_notify_num" at creation (by_info), else made with
 * orma_win_notify_alloc afterwards (and a barrier, so that no origin
 * looks for them before). */
static inline void nt_win_open(struct st_win *w, int kind, size_t size, size_t n, int by_info)
{
    orma_info info = ORMA_INFO_NULL;
    if (by_info) {
        char v[24];
        snprintf(v, sizeof v, "%zu", n);
        CHECK_OK(orma_info_create(&info));
        CHECK_OK(orma_info_set(info, "orma_notify_num", v));
    }
    st_win_open_info(w, kind, size, info);
    if (by_info) {
        CHECK_OK(orma_info_free(&info));
    } else {
        CHECK_OK(orma_win_notify_alloc(w->win, n));
        CHECK_OK(orma_barrier());
    }
    size_t got = 0;
    CHECK_OK(orma_win_notify_num(w->win, &got));
    CHECK(got == n);
}

/* Every counter of this rank is want[i] (NULL: 0), then set back to 0. */
static inline void nt_expect_counters(orma_win win, size_t n, const uint64_t *want, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0, w = want ? want[i] : 0;
        CHECK_OK(orma_notify_read(win, (int)i, &v));
        if (v != w) {
            fprintf(stderr, "rank %d: %s: counter %zu is %llu, expected %llu\n", check_rank(), what, i,
                    (unsigned long long)v, (unsigned long long)w);
            exit(1);
        }
        CHECK_OK(orma_notify_set(win, (int)i, 0));
    }
}

#endif
