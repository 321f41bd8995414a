/* conf_model.c -- MPI-4.1 section 12.4 (Memory Model), on every window
 * flavour:
 *  - the window attribute MPI_WIN_MODEL is set, and is MPI_WIN_UNIFIED
 *    (both hosts report the unified model for every flavour on one node;
 *    liborma-mpi's windows are memory that all ranks reach, so it must
 *    too), and MPI_WIN_UNIFIED differs from MPI_WIN_SEPARATE;
 *  - in the unified model the public and private copies are one: data put
 *    (or accumulated) by a peer and completed by MPI_Win_flush is seen by
 *    the target's own loads after a synchronisation (MPI_Barrier) and
 *    MPI_Win_sync;
 *  - the target's own stores are seen by a peer's MPI_Get after the
 *    target's MPI_Win_sync and a barrier;
 *  - shared windows (MPI_Win_allocate_shared): stores through the
 *    pointers of MPI_Win_shared_query, by any rank into any rank's
 *    segment, are seen by the loads of the others after MPI_Win_sync, a
 *    barrier and MPI_Win_sync, inside a lock_all epoch (the standard's
 *    pattern for shared memory, 12.7).
 * Each pattern is repeated with new values, so that a stale copy shows. */
#include "conf.h"

#define N 32     /* ints per rank */
#define ROUNDS 4 /* of each pattern, with new values each */

/* The value of rank r's element i in round k (never a background). */
static int val(int r, int k, int i) { return conf_val(r, 100 * (k + 1) + i); }

/* The attribute MPI_WIN_MODEL. */
static void model(struct mt_win *w)
{
    int *m = NULL, flag = 0;
    char what[80];
    snprintf(what, sizeof what, "MPI_WIN_MODEL of a %s window", mt_flavor_name[w->flavor]);
    conf_ok(what, MPI_Win_get_attr(w->win, MPI_WIN_MODEL, &m, &flag));
    if (!flag || !m)
        fail("%s: not set", what);
    if (*m != MPI_WIN_UNIFIED)
        fail("%s is %d, not MPI_WIN_UNIFIED (%d; MPI_WIN_SEPARATE is %d)", what, *m, MPI_WIN_UNIFIED,
             MPI_WIN_SEPARATE);
    if (MPI_WIN_UNIFIED == MPI_WIN_SEPARATE)
        fail("MPI_WIN_UNIFIED and MPI_WIN_SEPARATE are both %d", MPI_WIN_UNIFIED);
}

/* Puts and accumulates of the left neighbour, completed by a flush, seen
 * by this rank's loads after a barrier and MPI_Win_sync. */
static void put_then_load(struct mt_win *w)
{
    int right = conf_right(), left = conf_left();
    int src[N];
    volatile int *mine = w->base;
    char what[120];
    snprintf(what, sizeof what, "a peer's put, flushed, then MPI_Win_sync: loads (%s window)",
             mt_flavor_name[w->flavor]);
    MPI_Win_lock_all(0, w->win);
    for (int i = 0; i < N; i++)
        mine[i] = bg(rank, i);
    conf_ok(what, MPI_Win_sync(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < ROUNDS; k++) {
        /* a put of [0, N/2) and an accumulate (MPI_SUM) of 1s to [N/2, N) */
        for (int i = 0; i < N; i++)
            src[i] = i < N / 2 ? val(rank, k, i) : 1;
        conf_ok(what, MPI_Put(src, N / 2, MPI_INT, right, mt_disp(w, right, 0), N / 2, MPI_INT, w->win));
        conf_ok(what, MPI_Accumulate(src + N / 2, N / 2, MPI_INT, right, mt_disp(w, right, N / 2), N / 2, MPI_INT,
                                     MPI_SUM, w->win));
        conf_ok(what, MPI_Win_flush(right, w->win));
        MPI_Barrier(MPI_COMM_WORLD);
        conf_ok(what, MPI_Win_sync(w->win));
        for (int i = 0; i < N; i++)
            expect(what, i, mine[i], i < N / 2 ? val(left, k, i) : bg(rank, i) + k + 1);
        /* everyone has looked before the next round writes */
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_unlock_all(w->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* This rank's stores, then MPI_Win_sync and a barrier: the left
 * neighbour's get sees them. */
static void store_then_get(struct mt_win *w)
{
    int right = conf_right();
    int got[N];
    volatile int *mine = w->base;
    char what[120];
    snprintf(what, sizeof what, "stores, MPI_Win_sync, barrier: a peer's get (%s window)",
             mt_flavor_name[w->flavor]);
    MPI_Win_lock_all(0, w->win);
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < N; i++)
            mine[i] = val(rank, k, i);
        conf_ok(what, MPI_Win_sync(w->win));
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < N; i++)
            got[i] = -7;
        conf_ok(what, MPI_Get(got, N, MPI_INT, right, mt_disp(w, right, 0), N, MPI_INT, w->win));
        conf_ok(what, MPI_Win_flush(right, w->win));
        for (int i = 0; i < N; i++)
            expect(what, i, got[i], val(right, k, i));
        /* every get is done before the next round's stores */
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_unlock_all(w->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Shared windows: every rank's segment through MPI_Win_shared_query; each
 * rank stores into its right neighbour's segment and its own, and after
 * MPI_Win_sync, a barrier and MPI_Win_sync, loads its left neighbour's
 * segment and its own. */
static void shared_stores(struct mt_win *w)
{
    int right = conf_right(), left = conf_left();
    volatile int **seg = malloc((size_t)size * sizeof *seg);
    char what[120];
    snprintf(what, sizeof what, "shared window: stores, MPI_Win_sync, barrier, MPI_Win_sync, loads");
    for (int r = 0; r < size; r++) {
        MPI_Aint bytes = -1;
        int unit = -1;
        void *p = NULL;
        conf_ok(what, MPI_Win_shared_query(w->win, r, &bytes, &unit, &p));
        if (bytes != (MPI_Aint)(N * sizeof(int)) || unit != (int)sizeof(int) || !p)
            fail("%s: MPI_Win_shared_query of rank %d: %ld bytes, unit %d, base %p", what, r, (long)bytes, unit, p);
        seg[r] = p;
    }
    if ((void *)seg[rank] != w->base)
        fail("%s: MPI_Win_shared_query of this rank is %p, not its base %p", what, (void *)seg[rank], w->base);
    MPI_Win_lock_all(0, w->win);
    for (int k = 0; k < ROUNDS; k++) {
        /* the first half of the right neighbour's segment, and the second
         * half of this rank's */
        for (int i = 0; i < N / 2; i++)
            seg[right][i] = val(rank, k, i);
        for (int i = N / 2; i < N; i++)
            seg[rank][i] = val(rank, k, i);
        conf_ok(what, MPI_Win_sync(w->win));
        MPI_Barrier(MPI_COMM_WORLD);
        conf_ok(what, MPI_Win_sync(w->win));
        for (int i = 0; i < N / 2; i++)
            expect(what, i, seg[rank][i], val(left, k, i));
        for (int r = 0; r < size; r++)
            for (int i = N / 2; i < N; i++)
                expect(what, i, seg[r][i], val(r, k, i));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_unlock_all(w->win);
    free(seg);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    model(w);
    put_then_load(w);
    store_then_get(w);
    if (w->flavor == MT_SHARED)
        shared_stores(w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_model");
}
