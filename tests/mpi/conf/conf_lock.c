/* conf_lock.c -- MPI-4.1 section 12.5.3 (Lock), on every window flavour:
 *  - MPI_Win_lock/MPI_Win_unlock open and close a passive target access
 *    epoch to one target; the epoch's calls are complete at origin and
 *    target when MPI_Win_unlock returns;
 *  - shared locks of one target are held by several origins at once (a
 *    holder waiting for the others inside its epoch does not block them);
 *  - an exclusive lock excludes every other lock of the target, exclusive
 *    and shared: counters incremented by get + put under exclusive locks
 *    from every rank end exact, and readers under shared locks never see
 *    one half of an update;
 *  - one origin holds locks of several targets at once, shared and
 *    exclusive, unlocked in another order;
 *  - MPI_Win_lock_all/MPI_Win_unlock_all: a shared lock of every rank;
 *  - MPI_MODE_NOCHECK where no other process holds or asks for a
 *    conflicting lock, with MPI_Win_lock and MPI_Win_lock_all;
 *  - a rank locks its own window and loads and stores its memory inside
 *    the epoch (the standard's way to access local window memory in the
 *    passive target model); others see the stores after its unlock;
 *  - lock epochs with no RMA calls, of every kind;
 *  - MPI_Win_lock of a target whose part of the window has size 0. */
#include "conf.h"

#define N 32   /* ints per rank */
#define ITER 3  /* increments per rank of each counter */


/* Every rank puts its slot into every rank under a shared lock of each,
 * a get in the same epoch sees the target's background; then shared
 * locks held at once. */
static void shared_locks(struct mt_win *w)
{
    int src[N], want[N], got[2];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    conf_reset(w, N);
    for (int k = 0; k < size; k++) {
        int t = (rank + k) % size;
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w->win));
        OK(MPI_Put(src + 4 * rank, 4, MPI_INT, t, mt_disp(w, t, 4 * rank), 4, MPI_INT, w->win));
        OK(MPI_Get(got, 2, MPI_INT, t, mt_disp(w, t, 20), 2, MPI_INT, w->win));
        OK(MPI_Win_unlock(t, w->win));
        for (int i = 0; i < 2; i++)
            expect("shared lock: get done at unlock", i, got[i], bg(t, 20 + i));
    }
    fill_bg_int(want, N, rank);
    for (int r = 0; r < size; r++)
        for (int i = 4 * r; i < 4 * r + 4; i++)
            want[i] = conf_val(r, i);
    conf_expect_window("puts under shared locks of every rank", w, want, N);

    /* Rank 0 holds a shared lock of the last rank (acquired for sure: a
     * get was flushed) and waits, inside its epoch, for every other rank
     * to take a shared lock of the same target, get, and unlock. */
    int last = size - 1;
    if (size > 1) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, last, 0, w->win));
        OK(MPI_Get(got, 1, MPI_INT, last, mt_disp(w, last, 4 * rank), 1, MPI_INT, w->win));
        if (rank == 0) {
            OK(MPI_Win_flush(last, w->win));
            for (int r = 1; r < size; r++)
                MPI_Recv(NULL, 0, MPI_INT, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        OK(MPI_Win_unlock(last, w->win));
        expect("a shared lock held beside another", 0, got[0], conf_val(rank, 4 * rank));
        if (rank != 0)
            MPI_Send(NULL, 0, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Counters at indices 0 and 1 of every rank, incremented together by
 * get + put under exclusive locks, from every rank.  The two puts are
 * flushed apart: a reader under a shared lock (or a writer) that got in
 * between would see them differ. */
static void exclusive_counters(struct mt_win *w)
{
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    ((int *)w->base)[0] = ((int *)w->base)[1] = 0;
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);

    for (int k = 0; k < ITER * size; k++) {
        int t = (rank + k) % size, pair[2] = {-1, -1};
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        OK(MPI_Get(pair, 2, MPI_INT, t, mt_disp(w, t, 0), 2, MPI_INT, w->win));
        OK(MPI_Win_flush(t, w->win));
        if (pair[0] != pair[1])
            fail("counters of rank %d differ under an exclusive lock: %d, %d", t, pair[0], pair[1]);
        pair[0]++;
        pair[1]++;
        OK(MPI_Put(pair, 1, MPI_INT, t, mt_disp(w, t, 0), 1, MPI_INT, w->win));
        OK(MPI_Win_flush(t, w->win));
        OK(MPI_Put(pair + 1, 1, MPI_INT, t, mt_disp(w, t, 1), 1, MPI_INT, w->win));
        OK(MPI_Win_unlock(t, w->win));

        /* a reader of another rank's counters */
        int u = (rank + 2 * k + 1) % size, seen[2] = {-1, -1};
        OK(MPI_Win_lock(MPI_LOCK_SHARED, u, 0, w->win));
        OK(MPI_Get(seen, 2, MPI_INT, u, mt_disp(w, u, 0), 2, MPI_INT, w->win));
        OK(MPI_Win_unlock(u, w->win));
        if (seen[0] != seen[1])
            fail("a shared lock overlapped an exclusive one at rank %d: counters %d, %d", u, seen[0],
                 seen[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win));
    const int *p = w->base;
    expect("counter incremented under exclusive locks", 0, p[0], ITER * size);
    expect("counter incremented under exclusive locks", 1, p[1], ITER * size);
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Locks of several targets held at once by one origin. */
static void several_targets(struct mt_win *w)
{
    int src[N], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    conf_reset(w, N);
    /* every rank: shared locks of all, in rank order, unlocked backwards */
    for (int t = 0; t < size; t++)
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w->win));
    for (int t = 0; t < size; t++)
        OK(MPI_Put(src + 16 + rank, 1, MPI_INT, t, mt_disp(w, t, 16 + rank), 1, MPI_INT, w->win));
    for (int t = size - 1; t >= 0; t--)
        OK(MPI_Win_unlock(t, w->win));
    fill_bg_int(want, N, rank);
    for (int r = 0; r < size; r++)
        want[16 + r] = conf_val(r, 16 + r);
    conf_expect_window("shared locks of several targets at once", w, want, N);

    /* rank 0 alone: exclusive locks of all, unlocked from the middle */
    if (rank == 0) {
        for (int t = 0; t < size; t++)
            OK(MPI_Win_lock(t % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        for (int t = 0; t < size; t++)
            OK(MPI_Put(src + 24, 2, MPI_INT, t, mt_disp(w, t, 24), 2, MPI_INT, w->win));
        for (int k = 0; k < size; k++)
            OK(MPI_Win_unlock((size / 2 + k) % size, w->win));
    }
    want[24] = conf_val(0, 24);
    want[25] = conf_val(0, 25);
    conf_expect_window("exclusive and shared locks of several targets at once", w, want, N);
}

/* MPI_Win_lock_all: a shared lock of every rank, with and without
 * MPI_MODE_NOCHECK (nobody takes an exclusive lock meanwhile). */
static void lock_all(struct mt_win *w)
{
    int src[N], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    int *g = guarded_alloc((size_t)size * sizeof(int));
    conf_reset(w, N);
    for (int pass = 0; pass < 2; pass++) {
        OK(MPI_Win_lock_all(pass ? MPI_MODE_NOCHECK : 0, w->win));
        for (int t = 0; t < size; t++) {
            int at = pass ? 8 + rank : rank;
            OK(MPI_Put(src + at, 1, MPI_INT, t, mt_disp(w, t, at), 1, MPI_INT, w->win));
            OK(MPI_Get(g + t, 1, MPI_INT, t, mt_disp(w, t, N - 1), 1, MPI_INT, w->win));
        }
        OK(MPI_Win_unlock_all(w->win));
        for (int t = 0; t < size; t++)
            expect("lock_all: get of every rank done at unlock_all", t, g[t], bg(t, N - 1));
        guarded_check(g, (size_t)size * sizeof(int), "lock_all: get of every rank");
    }
    fill_bg_int(want, N, rank);
    for (int r = 0; r < size; r++) {
        want[r] = conf_val(r, r);
        want[8 + r] = conf_val(r, 8 + r);
    }
    conf_expect_window("puts to every rank under lock_all", w, want, N);
    guarded_free(g);
}

/* MPI_MODE_NOCHECK on MPI_Win_lock: in this phase only the left
 * neighbour locks a rank, so no lock conflicts with it. */
static void nocheck(struct mt_win *w)
{
    int right = conf_right(), left = conf_left();
    int src[N], want[N], got[3];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    conf_reset(w, N);
    /* MPICH 4.0 alone: after an epoch of MPI_Win_lock(MPI_MODE_NOCHECK)
     * (exclusive or shared, of any rank), later lock epochs of the same
     * target hang -- a shared then an exclusive lock of its own by the
     * target never returns.  Its runs lock without the assertion. */
    int assert_ = conf_host_ok(CONF_NOT_MPICH) ? MPI_MODE_NOCHECK : 0;
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, assert_, w->win));
    OK(MPI_Put(src + 5, 3, MPI_INT, right, mt_disp(w, right, 5), 3, MPI_INT, w->win));
    OK(MPI_Get(got, 3, MPI_INT, right, mt_disp(w, right, 12), 3, MPI_INT, w->win));
    OK(MPI_Win_unlock(right, w->win));
    for (int i = 0; i < 3; i++)
        expect("exclusive lock with MPI_MODE_NOCHECK: get", i, got[i], bg(right, 12 + i));
    fill_bg_int(want, N, rank);
    for (int i = 5; i < 8; i++)
        want[i] = conf_val(left, i);
    conf_expect_window("exclusive lock with MPI_MODE_NOCHECK", w, want, N);
}

/* A rank locks its own window and loads and stores in the epoch; after
 * its unlock, its neighbours read the stores with gets. */
static void own_window(struct mt_win *w)
{
    int right = conf_right(), got[6];
    conf_reset(w, N);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    int *p = w->base;
    for (int i = 10; i < 16; i++)
        p[i] = conf_val(rank, i);
    for (int i = 10; i < 16; i++)
        expect("a load after a store in a lock epoch of the own window", i, p[i], conf_val(rank, i));
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win));
    OK(MPI_Get(got, 6, MPI_INT, right, mt_disp(w, right, 10), 6, MPI_INT, w->win));
    OK(MPI_Win_unlock(right, w->win));
    for (int i = 0; i < 6; i++)
        expect("a get of what the target stored under a lock of its own", i, got[i],
               conf_val(right, 10 + i));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Lock epochs with no RMA calls in them change nothing. */
static void empty_epochs(struct mt_win *w)
{
    int want[N];
    conf_reset(w, N);
    for (int t = 0; t < size; t++) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w->win));
        OK(MPI_Win_unlock(t, w->win));
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        OK(MPI_Win_unlock(t, w->win));
    }
    OK(MPI_Win_lock_all(0, w->win));
    OK(MPI_Win_unlock_all(w->win));
    fill_bg_int(want, N, rank);
    conf_expect_window("lock epochs without RMA calls", w, want, N);
}

/* A window in which the odd ranks (and a lone rank) give 0 bytes; a
 * dynamic window where they attach nothing.  Every rank locks each rank,
 * exclusive and shared, and gets from the ranks that have memory while a
 * lock of a memoryless one is held. */
static void zero_size(enum mt_flavor f)
{
    int empty = rank % 2 == 1 || size == 1;
    int bytes = empty ? 0 : N * (int)sizeof(int);
    MPI_Win win;
    void *base = NULL, *mem = NULL;
    MPI_Aint *addr = malloc((size_t)size * sizeof *addr);
    switch (f) {
    case MT_ALLOCATE:
        MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        break;
    case MT_CREATE:
        mem = base = bytes ? malloc((size_t)bytes) : NULL;
        MPI_Win_create(base, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        break;
    case MT_SHARED:
        MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        break;
    default:
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        mem = base = bytes ? malloc((size_t)bytes) : NULL;
        if (bytes)
            MPI_Win_attach(win, base, bytes);
        break;
    }
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Aint mine = 0;
    if (bytes)
        MPI_Get_address(base, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
    if (bytes) {
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        fill_bg_int(base, N, rank);
        OK(MPI_Win_unlock(rank, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    for (int t = 0; t < size; t++) {
        int t_empty = t % 2 == 1 || size == 1;
        if (!t_empty)
            continue;
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
        OK(MPI_Win_unlock(t, win));
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        /* a get from a rank with memory, in an epoch of its own, while
         * the memoryless rank is locked */
        int u = (t + 1) % size, got = -7;
        if (u % 2 == 0 && size > 1) {
            OK(MPI_Win_lock(MPI_LOCK_SHARED, u, 0, win));
            MPI_Aint d = f == MT_DYNAMIC ? MPI_Aint_add(addr[u], 3 * sizeof(int)) : 3;
            OK(MPI_Get(&got, 1, MPI_INT, u, d, 1, MPI_INT, win));
            OK(MPI_Win_unlock(u, win));
            expect("a get beside a lock of a rank without memory", 0, got, bg(u, 3));
        }
        OK(MPI_Win_unlock(t, win));
    }
    OK(MPI_Win_lock_all(0, win));
    OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (f == MT_DYNAMIC && bytes)
        MPI_Win_detach(win, base);
    MPI_Win_free(&win);
    free(mem);
    free(addr);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    shared_locks(w);
    exclusive_counters(w);
    several_targets(w);
    lock_all(w);
    nocheck(w);
    own_window(w);
    empty_epochs(w);
    zero_size(w->flavor);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_lock");
}
