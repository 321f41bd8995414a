/* mpi_xworld.h -- every window flavour in every sync mode over a
 * communicator whose ranks belong to several MPI_COMM_WORLDs (spawned,
 * connected, joined, then merged), the data checked with guards around:
 * mpi_spawn.c and mpi_connect.c.  Host runs skip a flavour the host cannot
 * create on such a communicator (Open MPI 4.1's osc rdma finds no atomics
 * to another world's ranks), saying so; runs on liborma-mpi must make
 * every one. */
#ifndef MPI_XWORLD_H
#define MPI_XWORLD_H

#include "mpi_test.h"

#include <stdint.h>

#define SLOTS 8 /* ints a rank puts into each target */

static int data(int round, int origin, int target, int i)
{
    return 100000000 + 1000000 * round + 10000 * origin + 100 * target + i;
}

struct sw {
    MPI_Win win;
    int *mem;    /* np * SLOTS ints, between guards */
    int *alloc;  /* malloc'd (guarded_alloc) */
    unsigned char *heap; /* or from MPI_Alloc_mem, guards included */
    MPI_Aint *addr;
    int dynamic;
};

/* The flavours, and create and dynamic windows again over MPI_Alloc_mem
 * memory (which liborma-mpi places in shared memory of its own, mapped
 * by name by the other worlds' ranks: a rank alone in its world too). */
enum { SW_CREATE_ALLOC_MEM = MT_FLAVORS, SW_DYNAMIC_ALLOC_MEM, SW_FLAVORS };
static const char *sw_flavor_name(int f)
{
    return f == SW_CREATE_ALLOC_MEM ? "create (MPI_Alloc_mem)"
         : f == SW_DYNAMIC_ALLOC_MEM ? "dynamic (MPI_Alloc_mem)" : mt_flavor_name[f];
}

static void sw_guards_check(const struct sw *w, size_t bytes)
{
    if (w->alloc)
        guarded_check(w->alloc, bytes, "a window's memory");
    else if (w->heap)
        guarded_check(w->heap + MT_GUARD, bytes, "a window's memory (MPI_Alloc_mem)");
}

/* 0, or (host runs) 1 when the host cannot make this flavour here. */
static int sw_open(struct sw *w, MPI_Comm comm, int flavor, int np, int me)
{
    memset(w, 0, sizeof *w);
    MPI_Aint bytes = (MPI_Aint)np * SLOTS * (MPI_Aint)sizeof(int);
    int rc = MPI_SUCCESS;
    switch (flavor) {
    case MT_ALLOCATE:
        rc = MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, comm, &w->mem, &w->win);
        break;
    case MT_SHARED:
        rc = MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, comm, &w->mem, &w->win);
        break;
    case MT_CREATE:
    case MT_DYNAMIC:
    case SW_CREATE_ALLOC_MEM:
    case SW_DYNAMIC_ALLOC_MEM:
        if (flavor >= MT_FLAVORS) {
            if (MPI_Alloc_mem(bytes + 2 * MT_GUARD, MPI_INFO_NULL, &w->heap) != MPI_SUCCESS)
                fail("MPI_Alloc_mem of %lld bytes", (long long)bytes + 2 * MT_GUARD);
            memset(w->heap, MT_GUARD_BYTE, (size_t)bytes + 2 * MT_GUARD);
            w->mem = (int *)(void *)(w->heap + MT_GUARD);
        } else {
            w->alloc = guarded_alloc((size_t)bytes);
            w->mem = w->alloc;
        }
        if (flavor == MT_CREATE || flavor == SW_CREATE_ALLOC_MEM) {
            rc = MPI_Win_create(w->mem, bytes, sizeof(int), MPI_INFO_NULL, comm, &w->win);
        } else {
            w->dynamic = 1;
            rc = MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win);
            if (rc == MPI_SUCCESS)
                rc = MPI_Win_attach(w->win, w->mem, bytes);
            MPI_Aint mine;
            MPI_Get_address(w->mem, &mine);
            w->addr = malloc((size_t)np * sizeof *w->addr);
            MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, comm);
        }
        break;
    }
    int ok = rc == MPI_SUCCESS, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
    if (all) {
        MPI_Win_set_errhandler(w->win, MPI_ERRORS_ARE_FATAL);
        return 0;
    }
    char msg[MPI_MAX_ERROR_STRING] = "(another rank)";
    int len = 0;
    if (!ok)
        MPI_Error_string(rc, msg, &len);
    if (mt_orma)
        fail("%s window on a communicator of %d ranks across worlds: %s", sw_flavor_name(flavor), np, msg);
    if (me == 0)
        printf("  host: no %s window across worlds here (%s): skipped\n", sw_flavor_name(flavor), msg);
    if (ok)
        MPI_Win_free(&w->win);
    if (w->alloc)
        guarded_free(w->alloc);
    if (w->heap)
        MPI_Free_mem(w->heap);
    free(w->addr);
    return 1;
}

static void sw_close(struct sw *w, int np)
{
    if (w->dynamic)
        MPI_Win_detach(w->win, w->mem);
    MPI_Win_free(&w->win);
    sw_guards_check(w, (size_t)np * SLOTS * sizeof(int));
    guarded_free(w->alloc);
    if (w->heap)
        MPI_Free_mem(w->heap);
    free(w->addr);
}

static MPI_Aint sw_disp(const struct sw *w, int t, MPI_Aint disp)
{
    return w->dynamic ? MPI_Aint_add(w->addr[t], disp * (MPI_Aint)sizeof(int)) : disp;
}

enum { S_FENCE, S_PSCW, S_LOCK_EXCL, S_LOCK_SHARED, S_LOCK_ALL, S_N };
static const char *const sync_name[S_N] = {"fence", "pscw", "lock exclusive", "lock shared", "lock_all"};

/* Each rank puts SLOTS ints into its own slots at every target, then each
 * target checks all of them. */
static void sw_round(struct sw *w, MPI_Comm comm, int s, int np, int me, int round, MPI_Group all)
{
    /* This rank's own loads and stores: in active modes between the
     * epochs, in passive ones under a lock of its own window (MPI_Win_sync
     * outside a passive epoch is not portable). */
    int passive = s != S_FENCE && s != S_PSCW;
    if (passive)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, w->win);
    for (int i = 0; i < np * SLOTS; i++)
        w->mem[i] = bg(me, i);
    if (passive)
        MPI_Win_unlock(me, w->win);
    MPI_Barrier(comm);
    int *src = malloc((size_t)np * SLOTS * sizeof *src);
    for (int t = 0; t < np; t++)
        for (int i = 0; i < SLOTS; i++)
            src[t * SLOTS + i] = data(round, me, t, i);
    if (s == S_FENCE)
        MPI_Win_fence(0, w->win);
    else if (s == S_PSCW) {
        MPI_Win_post(all, 0, w->win);
        MPI_Win_start(all, 0, w->win);
    } else if (s == S_LOCK_ALL) {
        MPI_Win_lock_all(0, w->win);
    }
    for (int k = 0; k < np; k++) {
        int t = (me + k) % np;
        if (s == S_LOCK_EXCL || s == S_LOCK_SHARED)
            MPI_Win_lock(s == S_LOCK_EXCL ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, t, 0, w->win);
        MPI_Put(src + t * SLOTS, SLOTS, MPI_INT, t, sw_disp(w, t, (MPI_Aint)me * SLOTS), SLOTS, MPI_INT, w->win);
        if (s == S_LOCK_EXCL || s == S_LOCK_SHARED)
            MPI_Win_unlock(t, w->win);
    }
    if (s == S_FENCE)
        MPI_Win_fence(0, w->win);
    else if (s == S_PSCW) {
        MPI_Win_complete(w->win);
        MPI_Win_wait(w->win);
    } else if (s == S_LOCK_ALL) {
        MPI_Win_flush_all(w->win);
        MPI_Win_unlock_all(w->win);
    }
    MPI_Barrier(comm);
    if (passive)
        MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w->win);
    for (int o = 0; o < np; o++)
        for (int i = 0; i < SLOTS; i++)
            if (w->mem[o * SLOTS + i] != data(round, o, me, i))
                fail("%s round %d: slot %d of origin %d holds %d, expected %d", sync_name[s], round, i, o,
                     w->mem[o * SLOTS + i], data(round, o, me, i));
    if (passive)
        MPI_Win_unlock(me, w->win);
    MPI_Barrier(comm);
    free(src);
}

static void windows(MPI_Comm comm, const char *what)
{
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    for (int f = 0; f < SW_FLAVORS; f++) {
        struct sw w;
        if (sw_open(&w, comm, f, np, me))
            continue;
        MPI_Group all;
        MPI_Win_get_group(w.win, &all);
        for (int s = 0; s < S_N; s++)
            for (int round = 0; round < 2; round++)
                sw_round(&w, comm, s, np, me, 2 * s + round, all);
        MPI_Group_free(&all);
        sw_close(&w, np);
        if (me == 0)
            printf("  %s: %s window, every sync mode, %d ranks: ok\n", what, sw_flavor_name(f), np);
    }
}

#define SKIP 77

#endif
