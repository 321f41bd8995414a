/* conf_semantics.c -- MPI-4.1 section 12.7 (Semantics and Correctness),
 * on every window flavour:
 *  - atomicity (12.7.1): accumulates by every rank into the same elements
 *    at once, many times over, give the exact total (MPI_SUM on MPI_INT
 *    and MPI_DOUBLE); fetch_and_op MPI_SUM on one counter from every rank
 *    hands out every ticket exactly once; a lock made of
 *    MPI_Compare_and_swap excludes: one rank at a time in the critical
 *    section, whose plain get-increment-put of a counter loses nothing;
 *  - ordering (12.7.2): with the default accumulate_ordering
 *    (rar,raw,war,waw), accumulate-family operations from one origin to
 *    the same location take effect in program order, in one epoch and with
 *    no flush between them: an MPI_REPLACE followed by MPI_SUMs, a
 *    get_accumulate after them sees them all, one before them sees none;
 *  - puts and gets are not ordered, but MPI_Win_flush orders them: a get
 *    after a flush sees the put before it, a put after a flush does not
 *    change what a get before it returned;
 *  - progress (12.7.3): a lock and get to a passive target complete while
 *    that target is blocked in MPI_Barrier, and while it loops on
 *    MPI_Win_sync and MPI_Iprobe (busy, but inside MPI);
 *  - a lock on a target that another rank holds exclusively waits for its
 *    release: what the holder wrote last is what the waiter gets. */
#include "conf.h"

#include <unistd.h>

#define N 64     /* ints per rank */
#define M 8      /* elements summed concurrently */
#define ITER 20  /* accumulates per rank and target */
#define TICKETS 6 /* fetch_and_op per rank */
#define CRIT 3   /* critical sections per rank */

/* Where each check works, in the window (ints). */
enum { SUMS = 0, DSUMS = 16 /* M doubles */, COUNTER = 32, LOCKW, OCC, SHARED, ORDER = 40, FLUSHED = 48 };

static void reset(struct mt_win *w)
{
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win);
    fill_bg_int(w->base, N, rank);
    int *p = w->base;
    p[COUNTER] = p[LOCKW] = p[OCC] = p[SHARED] = 0;
    double *d = (double *)(p + DSUMS);
    for (int i = 0; i < M; i++)
        d[i] = 0.5 * i;
    MPI_Win_unlock(rank, w->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- atomicity ---- */

/* Every rank adds (r + 1) * (i + 1) to element i of every rank's SUMS (and
 * (r + 1) * (i + 1) / 4 to DSUMS, exact in double) ITER times, all at once
 * in a lock_all epoch: the totals are exact. */
static void concurrent_sums(struct mt_win *w)
{
    int add[M];
    double dadd[M];
    for (int i = 0; i < M; i++) {
        add[i] = (rank + 1) * (i + 1);
        dadd[i] = (rank + 1) * (i + 1) * 0.25;
    }
    reset(w);
    MPI_Win_lock_all(0, w->win);
    for (int k = 0; k < ITER; k++)
        for (int t = 0; t < size; t++) {
            int tt = (rank + t) % size; /* not everyone at rank 0 first */
            OK(MPI_Accumulate(add, M, MPI_INT, tt, mt_disp(w, tt, SUMS), M, MPI_INT, MPI_SUM, w->win));
            OK(MPI_Accumulate(dadd, M, MPI_DOUBLE, tt, mt_disp(w, tt, DSUMS), M, MPI_DOUBLE, MPI_SUM, w->win));
        }
    MPI_Win_unlock_all(w->win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    const int *p = w->base;
    const double *d = (const double *)(p + DSUMS);
    long long tri = (long long)size * (size + 1) / 2;
    for (int i = 0; i < M; i++) {
        expect("concurrent MPI_SUM accumulates: int total", i, p[SUMS + i], bg(rank, SUMS + i) + ITER * tri * (i + 1));
        double want = 0.5 * i + ITER * tri * (i + 1) * 0.25;
        if (d[i] != want)
            fail("concurrent MPI_SUM accumulates: double total at %d: got %.17g, expected %.17g", i, d[i], want);
    }
    conf_expect_bg("concurrent MPI_SUM accumulates: elsewhere", p + SUMS + M, DSUMS - SUMS - M, rank, SUMS + M);
    MPI_Win_unlock(rank, w->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every rank takes TICKETS tickets from rank 0's counter with
 * fetch_and_op MPI_SUM 1: together, each of 0 .. size * TICKETS - 1 once. */
static void tickets(struct mt_win *w)
{
    int one = 1, mine[TICKETS];
    reset(w);
    MPI_Win_lock_all(0, w->win);
    for (int k = 0; k < TICKETS; k++) {
        OK(MPI_Fetch_and_op(&one, &mine[k], MPI_INT, 0, mt_disp(w, 0, COUNTER), MPI_SUM, w->win));
        OK(MPI_Win_flush(0, w->win));
        if (k > 0 && mine[k] <= mine[k - 1])
            fail("fetch_and_op tickets: %d after %d from the same rank", mine[k], mine[k - 1]);
    }
    MPI_Win_unlock_all(w->win);
    int *all = malloc((size_t)size * TICKETS * sizeof *all);
    char *seen = calloc((size_t)size * TICKETS, 1);
    MPI_Allgather(mine, TICKETS, MPI_INT, all, TICKETS, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < size * TICKETS; j++) {
        if (all[j] < 0 || all[j] >= size * TICKETS || seen[all[j]])
            fail("fetch_and_op tickets: %d handed out twice or out of 0..%d", all[j], size * TICKETS - 1);
        seen[all[j]] = 1;
    }
    free(all);
    free(seen);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A lock built of MPI_Compare_and_swap on rank 0's LOCKW: inside, the rank
 * counts itself into OCC (fetch_and_op: must find nobody) and increments
 * SHARED by a plain get and put, each flushed. */
static void mutex(struct mt_win *w)
{
    int zero = 0, one = 1, minus = -1, mine = rank + 1, old, occ, v;
    MPI_Aint lockw = mt_disp(w, 0, LOCKW), occw = mt_disp(w, 0, OCC), shared = mt_disp(w, 0, SHARED);
    reset(w);
    MPI_Win_lock_all(0, w->win);
    for (int k = 0; k < CRIT; k++) {
        do {
            OK(MPI_Compare_and_swap(&mine, &zero, &old, MPI_INT, 0, lockw, w->win));
            OK(MPI_Win_flush(0, w->win));
        } while (old != 0);
        OK(MPI_Fetch_and_op(&one, &occ, MPI_INT, 0, occw, MPI_SUM, w->win));
        OK(MPI_Win_flush(0, w->win));
        if (occ != 0)
            fail("compare_and_swap lock: %d other rank(s) in the critical section", occ);
        OK(MPI_Get(&v, 1, MPI_INT, 0, shared, 1, MPI_INT, w->win));
        OK(MPI_Win_flush(0, w->win));
        v++;
        OK(MPI_Put(&v, 1, MPI_INT, 0, shared, 1, MPI_INT, w->win));
        OK(MPI_Win_flush(0, w->win));
        OK(MPI_Fetch_and_op(&minus, &occ, MPI_INT, 0, occw, MPI_SUM, w->win));
        OK(MPI_Win_flush(0, w->win)); /* out before the next one is in */
        /* release: only the holder's value is there to swap out */
        OK(MPI_Compare_and_swap(&zero, &mine, &old, MPI_INT, 0, lockw, w->win));
        OK(MPI_Win_flush(0, w->win));
        expect("compare_and_swap lock: released by its holder", k, old, mine);
    }
    MPI_Win_unlock_all(w->win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w->win);
        const int *p = w->base;
        expect("compare_and_swap lock: counter of the critical sections", 0, p[SHARED], size * CRIT);
        expect("compare_and_swap lock: lock word at the end", 0, p[LOCKW], 0);
        expect("compare_and_swap lock: occupancy at the end", 0, p[OCC], 0);
        MPI_Win_unlock(0, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- ordering ---- */

/* Accumulate-family operations from this rank to the right neighbour's
 * ORDER + j, in one epoch of kind e (0 lock_all, 1 exclusive lock, 2
 * fence) with no flush between them. */
static void ordering(struct mt_win *w, int e)
{
    int right = conf_right(), left = conf_left();
    int five = 5, three = 3, seven = 7, ten = 10, before = -1, after = -1, mid = -1, fop = -1, dummy = 0;
    char what[120];
    snprintf(what, sizeof what, "accumulate ordering (%s epoch, %s window)",
             e == 0 ? "lock_all" : e == 1 ? "exclusive lock" : "fence", mt_flavor_name[w->flavor]);
    MPI_Aint d0 = mt_disp(w, right, ORDER), d1 = mt_disp(w, right, ORDER + 1), d2 = mt_disp(w, right, ORDER + 2);
    reset(w);
    if (e == 0)
        MPI_Win_lock_all(0, w->win);
    else if (e == 1)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w->win);
    else
        MPI_Win_fence(0, w->win);
    /* war: a read before the writes sees none of them */
    conf_ok(what, MPI_Get_accumulate(&dummy, 1, MPI_INT, &before, 1, MPI_INT, right, d0, 1, MPI_INT, MPI_NO_OP,
                                     w->win));
    /* waw: REPLACE then SUMs: 5 + 3 + 7 */
    conf_ok(what, MPI_Accumulate(&five, 1, MPI_INT, right, d0, 1, MPI_INT, MPI_REPLACE, w->win));
    conf_ok(what, MPI_Accumulate(&three, 1, MPI_INT, right, d0, 1, MPI_INT, MPI_SUM, w->win));
    /* raw: a read between them sees 8 */
    conf_ok(what, MPI_Get_accumulate(&seven, 1, MPI_INT, &mid, 1, MPI_INT, right, d0, 1, MPI_INT, MPI_SUM, w->win));
    /* raw: fetch_and_op after all of them sees 15 */
    conf_ok(what, MPI_Fetch_and_op(&dummy, &fop, MPI_INT, right, d0, MPI_NO_OP, w->win));
    conf_ok(what, MPI_Get_accumulate(&dummy, 1, MPI_INT, &after, 1, MPI_INT, right, d0, 1, MPI_INT, MPI_NO_OP,
                                     w->win));
    /* REPLACE then MPI_Compare_and_swap expecting it, then a SUM */
    int swapped = -1, twenty = 20, one = 1;
    conf_ok(what, MPI_Accumulate(&ten, 1, MPI_INT, right, d1, 1, MPI_INT, MPI_REPLACE, w->win));
    conf_ok(what, MPI_Compare_and_swap(&twenty, &ten, &swapped, MPI_INT, right, d1, w->win));
    conf_ok(what, MPI_Accumulate(&one, 1, MPI_INT, right, d1, 1, MPI_INT, MPI_SUM, w->win));
    /* a long chain of REPLACEs: the last one stays */
    int chain[16];
    for (int i = 0; i < 16; i++) {
        chain[i] = conf_val(rank, i);
        conf_ok(what, MPI_Accumulate(&chain[i], 1, MPI_INT, right, d2, 1, MPI_INT, MPI_REPLACE, w->win));
    }
    if (e == 0)
        MPI_Win_unlock_all(w->win);
    else if (e == 1)
        MPI_Win_unlock(right, w->win);
    else
        MPI_Win_fence(0, w->win);
    expect(what, 0, before, bg(right, ORDER));
    expect(what, 1, mid, 8);
    expect(what, 2, fop, 15);
    expect(what, 3, after, 15);
    expect(what, 4, swapped, 10);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    const int *p = w->base;
    expect(what, ORDER, p[ORDER], 15);
    expect(what, ORDER + 1, p[ORDER + 1], 21);
    expect(what, ORDER + 2, p[ORDER + 2], conf_val(left, 15));
    conf_expect_bg(what, p + ORDER + 3, N - ORDER - 3, rank, ORDER + 3);
    MPI_Win_unlock(rank, w->win);
    (void)left;
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Puts and gets to one place are not ordered by themselves; a flush
 * between them orders them. */
static void flush_orders(struct mt_win *w)
{
    int right = conf_right();
    int a[4], b[4], g1[4], g2[4], g3[4];
    MPI_Aint d = mt_disp(w, right, FLUSHED);
    for (int i = 0; i < 4; i++) {
        a[i] = conf_val(rank, i);
        b[i] = conf_val(rank, 10 + i);
    }
    reset(w);
    MPI_Win_lock_all(0, w->win);
    OK(MPI_Get(g1, 4, MPI_INT, right, d, 4, MPI_INT, w->win));
    OK(MPI_Win_flush(right, w->win)); /* the get is done before the put */
    OK(MPI_Put(a, 4, MPI_INT, right, d, 4, MPI_INT, w->win));
    OK(MPI_Win_flush(right, w->win)); /* the put is done before the get */
    OK(MPI_Get(g2, 4, MPI_INT, right, d, 4, MPI_INT, w->win));
    OK(MPI_Win_flush(right, w->win));
    OK(MPI_Put(b, 4, MPI_INT, right, d, 4, MPI_INT, w->win));
    OK(MPI_Win_flush_all(w->win)); /* flush_all orders as well */
    OK(MPI_Get(g3, 4, MPI_INT, right, d, 4, MPI_INT, w->win));
    MPI_Win_unlock_all(w->win);
    conf_expect_bg("a get flushed before a put", g1, 4, right, FLUSHED);
    conf_expect_vals("a get after a put and a flush", g2, 4, rank, 0);
    conf_expect_vals("a get after a put and MPI_Win_flush_all", g3, 4, rank, 10);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- progress ---- */

/* Every other rank locks rank t, gets from it and unlocks, while t is in
 * MPI_Barrier (loop 0) or loops on MPI_Win_sync and MPI_Iprobe until the
 * others tell it they are done (loop 1). */
static void progress(struct mt_win *w, int t, int loop)
{
    char what[120];
    snprintf(what, sizeof what, "progress: lock and get while rank %d is %s (%s window)", t,
             loop ? "busy in MPI_Win_sync/MPI_Iprobe" : "in MPI_Barrier", mt_flavor_name[w->flavor]);
    reset(w);
    if (rank == t) {
        if (!loop) {
            MPI_Barrier(MPI_COMM_WORLD);
        } else {
            int done = 0, flag;
            MPI_Status st;
            MPI_Win_lock_all(0, w->win); /* MPI_Win_sync wants an epoch */
            while (done < size - 1) {
                conf_ok(what, MPI_Win_sync(w->win));
                conf_ok(what, MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &st));
                if (flag) {
                    MPI_Recv(NULL, 0, MPI_INT, st.MPI_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    done++;
                }
            }
            MPI_Win_unlock_all(w->win);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    } else {
        int got[4] = {0, 0, 0, 0};
        conf_ok(what, MPI_Win_lock(loop ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        conf_ok(what, MPI_Get(got, 4, MPI_INT, t, mt_disp(w, t, 4), 4, MPI_INT, w->win));
        conf_ok(what, MPI_Win_unlock(t, w->win));
        conf_expect_bg(what, got, 4, t, 4);
        if (loop)
            MPI_Send(NULL, 0, MPI_INT, t, 7, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- exclusive locks ---- */

/* Rank 0 holds an exclusive lock on rank t = size - 1 and writes there,
 * tells rank 1, waits, writes again and unlocks; rank 1's lock (kind
 * `kind`) of t waits for that: its get sees the second write. */
static void lock_waits(struct mt_win *w, int kind)
{
    int t = size - 1;
    char what[120];
    snprintf(what, sizeof what, "a %s lock waits for an exclusive one (%s window)",
             kind == MPI_LOCK_EXCLUSIVE ? "exclusive" : "shared", mt_flavor_name[w->flavor]);
    reset(w);
    if (rank == 0) {
        int first[4], second[4];
        for (int i = 0; i < 4; i++) {
            first[i] = conf_val(0, i);
            second[i] = conf_val(0, 20 + i);
        }
        conf_ok(what, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        conf_ok(what, MPI_Put(first, 4, MPI_INT, t, mt_disp(w, t, 8), 4, MPI_INT, w->win));
        conf_ok(what, MPI_Win_flush(t, w->win));
        MPI_Send(NULL, 0, MPI_INT, 1, 8, MPI_COMM_WORLD);
        usleep(50000); /* rank 1 tries its lock meanwhile */
        conf_ok(what, MPI_Put(second, 4, MPI_INT, t, mt_disp(w, t, 8), 4, MPI_INT, w->win));
        conf_ok(what, MPI_Win_unlock(t, w->win));
    } else if (rank == 1) {
        int got[4] = {0, 0, 0, 0};
        MPI_Recv(NULL, 0, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        conf_ok(what, MPI_Win_lock(kind, t, 0, w->win));
        conf_ok(what, MPI_Get(got, 4, MPI_INT, t, mt_disp(w, t, 8), 4, MPI_INT, w->win));
        conf_ok(what, MPI_Win_unlock(t, w->win));
        conf_expect_vals(what, got, 4, 0, 20);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    int f = (int)w->flavor;
    concurrent_sums(w);
    tickets(w);
    mutex(w);
    ordering(w, f % 3); /* the kind of epoch changes with the flavour */
    flush_orders(w);
    if (size > 1) {
        int t = f % size; /* the passive target changes with the flavour */
        progress(w, t, 0);
        progress(w, t, 1);
        lock_waits(w, f % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_semantics");
}
