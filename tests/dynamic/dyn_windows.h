/* dyn_windows.h -- every window flavour and synchronization mode across a
 * team of several jobs (spawned or connected), with the data checked.
 *
 * Each rank owns SLOTS 64-bit slots per rank of the team, between guard
 * words.  In every round each rank puts a value naming (round, origin,
 * target) into its own slot at every target, gets every target's slot of
 * the next rank, and adds to a counter at every target; after the epoch
 * closes the target checks every slot, the counter, that the slots nobody
 * wrote still hold their mark, and that the guards around the window (in
 * its own memory, for create and dynamic windows) are untouched. */
#ifndef ORMA_TEST_DYN_WINDOWS_H
#define ORMA_TEST_DYN_WINDOWS_H

#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#define DYN_GUARD 8      /* words each side of a create or dynamic window */
#define DYN_MARK UINT64_C(0x5a5a5a5a5a5a5a5a)

enum dyn_sync { DYN_FENCE, DYN_PSCW, DYN_LOCK_EXCL, DYN_LOCK_SHARED, DYN_LOCK_ALL, DYN_NSYNC };
static const char *const dyn_sync_names[] = {"fence", "pscw", "lock exclusive", "lock shared", "lock_all"};

static inline uint64_t dyn_value(int round, int origin, int target)
{
    return UINT64_C(0x1000000000000) * (uint64_t)(round + 1) + (uint64_t)origin * 4096 + (uint64_t)target;
}

/* The window's layout: np put slots, np get sources (slot np + r holds
 * "r's" value for the gets), one counter, np spare slots nobody writes. */
static inline size_t dyn_words(int np) { return 3 * (size_t)np + 1; }

struct dyn_win {
    orma_win win;
    uint64_t *mem;     /* the window's first word here */
    uint64_t *alloc;   /* what to free (create, dynamic) or NULL */
    int heap;          /* alloc came from orma_alloc_mem */
    uint64_t *remote;  /* dynamic: each rank's window address */
    int dynamic;
};

static inline void dyn_fill(uint64_t *w, int np, int me, int round)
{
    for (int i = 0; i < np; i++) {
        w[i] = DYN_MARK;
        w[np + i] = dyn_value(round, me, 1000 + i);
        w[2 * np + 1 + i] = DYN_MARK;
    }
    w[2 * np] = 0;
}

static inline orma_aint dyn_disp(const struct dyn_win *d, int target, size_t word)
{
    return d->dynamic ? (orma_aint)(d->remote[target] + word * sizeof(uint64_t)) : (orma_aint)word;
}

/* Every rank learns every rank's address of its dynamic window, through an
 * allocate window of the same team (a fence epoch of gets). */
static inline void dyn_exchange_addresses(orma_team team, int np, struct dyn_win *d)
{
    uint64_t *pub;
    orma_win w;
    CHECK_OK(orma_win_allocate_team(team, sizeof(uint64_t), sizeof(uint64_t), ORMA_INFO_NULL, (void **)&pub, &w));
    *pub = (uint64_t)(uintptr_t)d->mem;
    d->remote = calloc((size_t)np, sizeof *d->remote);
    CHECK(d->remote);
    CHECK_OK(orma_win_fence(0, w));
    for (int r = 0; r < np; r++)
        CHECK_OK(orma_get(&d->remote[r], 1, ORMA_UINT64, r, 0, 1, ORMA_UINT64, w));
    CHECK_OK(orma_win_fence(0, w));
    CHECK_OK(orma_win_free(&w));
}

static inline void dyn_make(orma_team team, int flavor, int np, struct dyn_win *d)
{
    size_t words = dyn_words(np), bytes = words * sizeof(uint64_t);
    *d = (struct dyn_win){.win = ORMA_WIN_NULL};
    switch (flavor) {
    case 0: /* create, on malloc'd memory with guards */
    case 3: /* dynamic, the same memory attached */
    case 4: /* create and */
    case 5: /* dynamic on orma_alloc_mem memory (mapped by name by the
               other job's ranks, even from a job of one rank) */
        d->heap = flavor >= 4;
        if (d->heap)
            CHECK_OK(orma_alloc_mem((words + 2 * DYN_GUARD) * sizeof(uint64_t), ORMA_INFO_NULL, (void **)&d->alloc));
        else
            d->alloc = malloc((words + 2 * DYN_GUARD) * sizeof(uint64_t));
        CHECK(d->alloc);
        for (size_t i = 0; i < words + 2 * DYN_GUARD; i++)
            d->alloc[i] = ~DYN_MARK;
        d->mem = d->alloc + DYN_GUARD;
        if (flavor == 0 || flavor == 4) {
            CHECK_OK(orma_win_create_team(team, d->mem, bytes, sizeof(uint64_t), ORMA_INFO_NULL, &d->win));
        } else {
            d->dynamic = 1;
            CHECK_OK(orma_win_create_dynamic_team(team, ORMA_INFO_NULL, &d->win));
            CHECK_OK(orma_win_attach(d->win, d->mem, bytes));
            dyn_exchange_addresses(team, np, d);
        }
        break;
    case 1:
        CHECK_OK(orma_win_allocate_team(team, bytes, sizeof(uint64_t), ORMA_INFO_NULL, (void **)&d->mem, &d->win));
        break;
    case 2:
        CHECK_OK(orma_win_allocate_shared_team(team, bytes, sizeof(uint64_t), ORMA_INFO_NULL, (void **)&d->mem,
                                               &d->win));
        break;
    }
}

static inline void dyn_free(struct dyn_win *d)
{
    if (d->dynamic)
        CHECK_OK(orma_win_detach(d->win, d->mem));
    CHECK_OK(orma_win_free(&d->win));
    if (d->heap)
        CHECK_OK(orma_free_mem(d->alloc));
    else
        free(d->alloc);
    free(d->remote);
}

/* One round's operations from this rank, inside an open access epoch:
 * src holds np values to put, then the addend (the origin buffers must
 * live until the epoch completes). */
static inline void dyn_issue(const struct dyn_win *d, int np, int me, int round, uint64_t *got, uint64_t *src)
{
    uint64_t *one = &src[np];
    *one = (uint64_t)me + 1;
    for (int t = 0; t < np; t++) {
        src[t] = dyn_value(round, me, t);
        CHECK_OK(orma_put(&src[t], 1, ORMA_UINT64, t, dyn_disp(d, t, (size_t)me), 1, ORMA_UINT64, d->win));
        CHECK_OK(orma_get(&got[t], 1, ORMA_UINT64, t, dyn_disp(d, t, (size_t)np + (size_t)(me + 1) % (size_t)np), 1,
                          ORMA_UINT64, d->win));
        CHECK_OK(orma_accumulate(one, 1, ORMA_UINT64, t, dyn_disp(d, t, 2 * (size_t)np), 1, ORMA_UINT64, ORMA_SUM,
                                 d->win));
    }
}

/* got[t]: what the get from target t read, target t's source slot for
 * rank me + 1. */
static inline void dyn_check(const struct dyn_win *d, int np, int me, int round, const uint64_t *got,
                             const char *what)
{
    const uint64_t *w = d->mem;
    int bad = 0;
    for (int i = 0; i < np; i++) {
        bad |= w[i] != dyn_value(round, i, me);
        bad |= w[2 * np + 1 + i] != DYN_MARK;
        bad |= got[i] != dyn_value(round, i, 1000 + (me + 1) % np);
    }
    bad |= w[2 * np] != (uint64_t)np * (uint64_t)(np + 1) / 2;
    if (d->alloc)
        for (int i = 0; i < DYN_GUARD; i++)
            bad |= d->alloc[i] != ~DYN_MARK || d->mem[dyn_words(np) + (size_t)i] != ~DYN_MARK;
    if (bad) {
        fprintf(stderr, "team rank %d: %s round %d: wrong data\n", me, what, round);
        for (int i = 0; i < np; i++)
            fprintf(stderr, "  slot %d: %llx (want %llx), got %llx (want %llx)\n", i, (unsigned long long)w[i],
                    (unsigned long long)dyn_value(round, i, me), (unsigned long long)got[i],
                    (unsigned long long)dyn_value(round, i, 1000 + (me + 1) % np));
        fprintf(stderr, "  counter %llu (want %llu)\n", (unsigned long long)w[2 * np],
                (unsigned long long)np * (unsigned long long)(np + 1) / 2);
        exit(1);
    }
}

/* One round of sync mode s on window d: fill, an epoch of everybody's
 * operations, check.  Epochs are separated by team barriers, so that a
 * target's fill and check never meet an origin's operations. */
static inline void dyn_round(orma_team team, struct dyn_win *d, int s, int np, int me, int round, orma_group others)
{
    uint64_t *got = calloc((size_t)np, sizeof *got), *src = calloc((size_t)np + 1, sizeof *src);
    CHECK(got && src);
    dyn_fill(d->mem, np, me, round);
    CHECK_OK(orma_team_barrier(team));
    switch (s) {
    case DYN_FENCE:
        CHECK_OK(orma_win_fence(0, d->win));
        dyn_issue(d, np, me, round, got, src);
        CHECK_OK(orma_win_fence(0, d->win));
        break;
    case DYN_PSCW:
        CHECK_OK(orma_win_post(others, 0, d->win));
        CHECK_OK(orma_win_start(others, 0, d->win));
        dyn_issue(d, np, me, round, got, src);
        CHECK_OK(orma_win_complete(d->win));
        CHECK_OK(orma_win_wait(d->win));
        break;
    case DYN_LOCK_EXCL:
    case DYN_LOCK_SHARED:
        for (int k = 0; k < np; k++) {
            int t = (me + k) % np; /* one target at a time, a different one at each rank */
            CHECK_OK(orma_win_lock(s == DYN_LOCK_EXCL ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, t, 0, d->win));
            src[t] = dyn_value(round, me, t);
            uint64_t one = (uint64_t)me + 1;
            CHECK_OK(orma_put(&src[t], 1, ORMA_UINT64, t, dyn_disp(d, t, (size_t)me), 1, ORMA_UINT64, d->win));
            CHECK_OK(orma_get(&got[t], 1, ORMA_UINT64, t, dyn_disp(d, t, (size_t)np + (size_t)(me + 1) % (size_t)np),
                              1, ORMA_UINT64, d->win));
            CHECK_OK(orma_accumulate(&one, 1, ORMA_UINT64, t, dyn_disp(d, t, 2 * (size_t)np), 1, ORMA_UINT64,
                                     ORMA_SUM, d->win));
            CHECK_OK(orma_win_unlock(t, d->win));
        }
        break;
    case DYN_LOCK_ALL:
        CHECK_OK(orma_win_lock_all(0, d->win));
        dyn_issue(d, np, me, round, got, src);
        CHECK_OK(orma_win_flush_all(d->win));
        CHECK_OK(orma_win_unlock_all(d->win));
        break;
    }
    CHECK_OK(orma_team_barrier(team));
    if (s != DYN_FENCE && s != DYN_PSCW)
        CHECK_OK(orma_win_sync(d->win)); /* the target's view of passive epochs' updates */
    dyn_check(d, np, me, round, got, dyn_sync_names[s]);
    CHECK_OK(orma_team_barrier(team));
    free(got);
    free(src);
}

/* Every flavour, every sync mode, two rounds each. */
static inline void dyn_check_windows(orma_team team)
{
    int me, np;
    CHECK_OK(orma_team_rank(team, &me));
    CHECK_OK(orma_team_size(team, &np));
    static const char *const flavors[] = {"create", "allocate", "allocate_shared", "dynamic",
                                          "create (orma_alloc_mem)", "dynamic (orma_alloc_mem)"};
    for (int f = 0; f < 6; f++) {
        struct dyn_win d;
        dyn_make(team, f, np, &d);
        orma_group all; /* PSCW with every rank, itself included */
        CHECK_OK(orma_win_get_group(d.win, &all));
        for (int s = 0; s < DYN_NSYNC; s++)
            for (int round = 0; round < 2; round++)
                dyn_round(team, &d, s, np, me, round + 2 * s, all);
        CHECK_OK(orma_group_free(&all));
        dyn_free(&d);
        if (me == 0)
            printf("  %s: every sync mode across %d ranks: ok\n", flavors[f], np);
    }
}

#endif
