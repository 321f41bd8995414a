/* mt_orma.c -- the mt suite on orma's own calls (mt.h): the windows, the
 * calls the runner makes, and the target's side.  Rank 0 is the origin;
 * rank 1 sleeps until the origin says it is done, then checks what its
 * windows hold. */
#include "mt_suite.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <orma.h>

#include "ctl.h"

/* The windows: one per thread (sep), one for all (shared), whose memory
 * at the target has one more slot after the threads': the origin's "done"
 * word. */
struct mt_orma {
    orma_win sep[MT_MAX_THREADS], shared;
    uint64_t *sep_base[MT_MAX_THREADS], *shared_base;
    int nsep;
};

#define MT_DONE_DISP ((orma_aint)MT_WIN_BYTES)

static int mt_orma_fail(const char *what, int t)
{
    fprintf(stderr, "orma-bench: mt: orma thread %d: %s: %s\n", t, what, orma_error_message());
    return -1;
}

static orma_win mt_orma_win(struct mt_orma *m, int mode, int t, orma_aint *disp)
{
    *disp = mode == MT_SEP ? 0 : (orma_aint)t * MT_SLOT;
    return mode == MT_SEP ? m->sep[t] : m->shared;
}

static int mt_orma_put(void *arg, int mode, int t, uint64_t v)
{
    orma_aint d;
    orma_win w = mt_orma_win(arg, mode, t, &d);
    if (orma_put(&v, 1, ORMA_UINT64, 1, d, 1, ORMA_UINT64, w) || orma_win_flush(1, w))
        return mt_orma_fail("orma_put + orma_win_flush", t);
    return 0;
}

static int mt_orma_get(void *arg, int mode, int t, uint64_t *v)
{
    orma_aint d;
    orma_win w = mt_orma_win(arg, mode, t, &d);
    if (orma_get(v, 1, ORMA_UINT64, 1, d, 1, ORMA_UINT64, w) || orma_win_flush(1, w))
        return mt_orma_fail("orma_get + orma_win_flush", t);
    return 0;
}

static int mt_orma_fop(void *arg, int mode, int t, uint64_t *old)
{
    static const uint64_t one = 1;
    orma_aint d;
    orma_win w = mt_orma_win(arg, mode, t, &d);
    if (orma_fetch_and_op(&one, old, ORMA_UINT64, 1, d + 8, ORMA_SUM, w) || orma_win_flush(1, w))
        return mt_orma_fail("orma_fetch_and_op + orma_win_flush", t);
    return 0;
}

static int mt_orma_epoch(void *arg, int mode, int t, int open)
{
    struct mt_orma *m = arg;
    orma_win w = mode == MT_SEP ? m->sep[t] : m->shared;
    if (open ? orma_win_lock_all(0, w) : orma_win_unlock_all(w))
        return mt_orma_fail(open ? "orma_win_lock_all" : "orma_win_unlock_all", t);
    return 0;
}

/* Collective: the windows, zeroed at both ranks before anyone uses them. */
static int mt_orma_open(const bench_ctx *ctx, struct mt_orma *m, int nsep)
{
    memset(m, 0, sizeof *m);
    int st = 0;
    for (; m->nsep < nsep && !st; m->nsep++)
        if (orma_win_allocate(MT_SLOT, 1, ORMA_INFO_NULL, (void **)&m->sep_base[m->nsep], &m->sep[m->nsep]))
            st = mt_orma_fail("orma_win_allocate", m->nsep);
    if (!st && orma_win_allocate(MT_WIN_BYTES + MT_SLOT, 1, ORMA_INFO_NULL, (void **)&m->shared_base, &m->shared))
        st = mt_orma_fail("orma_win_allocate", -1);
    for (int t = 0; t < m->nsep && !st; t++)
        memset(m->sep_base[t], 0, MT_SLOT);
    if (!st)
        memset(m->shared_base, 0, MT_WIN_BYTES + MT_SLOT);
    return bench_ctl_all_ok(ctx->ctl, !st) ? 0 : -1;
}

static void mt_orma_close(struct mt_orma *m)
{
    for (int t = 0; t < m->nsep; t++)
        orma_win_free(&m->sep[t]);
    if (m->shared_base)
        orma_win_free(&m->shared);
}

/* The target: asleep until the origin's done word (which it puts last,
 * after every batch) is set -- a millisecond at a time, so that the
 * origin's threads have every core.  It calls nothing meanwhile: passive
 * targets need no progress from orma. */
static void mt_orma_wait_done(struct mt_orma *m)
{
    _Atomic uint64_t *done = (_Atomic uint64_t *)(void *)((char *)m->shared_base + MT_DONE_DISP);
    struct timespec ms = {0, 1000000};
    while (atomic_load_explicit(done, memory_order_acquire) == 0)
        nanosleep(&ms, NULL);
}

static int mt_orma_say_done(struct mt_orma *m)
{
    uint64_t one = 1;
    if (orma_win_lock_all(0, m->shared) || orma_put(&one, 1, ORMA_UINT64, 1, MT_DONE_DISP, 1, ORMA_UINT64, m->shared) ||
        orma_win_unlock_all(m->shared))
        return mt_orma_fail("the done word", 0);
    return 0;
}

int mt_orma_run(const bench_ctx *ctx, const mt_plan *p, int max_threads, double *samples,
                int (*turn)(void *, int, int), void *turn_arg)
{
    struct mt_orma m;
    int most = 1;
    for (int i = 0; i < p->nthreads; i++)
        most = p->threads[i] > most ? p->threads[i] : most;
    if (mt_orma_open(ctx, &m, most))
        return -1;
    mt_expect e;
    memset(&e, 0, sizeof e);
    int st = 0;
    if (ctx->rank == 0) {
        mt_calls c = {&m, mt_orma_put, mt_orma_get, mt_orma_fop, mt_orma_epoch, turn, turn_arg};
        st = mt_origin(p, &c, max_threads, samples, &e);
        /* a failed origin still wakes the target: the check below is
         * collective */
        if (mt_orma_say_done(&m))
            st = -1;
    } else if (ctx->rank == 1) {
        mt_orma_wait_done(&m);
    }
    /* The target checks its windows against what the origin knows, word
     * by word (the counts go through the control window, not the windows
     * measured). */
    int origin_ok = bench_ctl_all_ok(ctx->ctl, !st);
    for (int mode = 0; mode < MT_NMODES; mode++)
        for (int t = 0; t < most; t++) {
            mt_expect got;
            got.put[mode][t] = bench_ctl_bcast(ctx->ctl, ctx->rank == 0 ? e.put[mode][t] : 0);
            got.count[mode][t] = bench_ctl_bcast(ctx->ctl, ctx->rank == 0 ? e.count[mode][t] : 0);
            const uint64_t *slot = mode == MT_SEP ? m.sep_base[t] : m.shared_base + (size_t)t * MT_SLOT / 8;
            if (ctx->rank == 1 && origin_ok && mt_check_slot(&got, mode, t, slot, "orma"))
                st = -1;
        }
    st = bench_ctl_all_ok(ctx->ctl, !st) ? 0 : -1;
    mt_orma_close(&m);
    return st;
}
