/* conf_put_get.c -- MPI-4.1 sections 12.3.1 (Put) and 12.3.2 (Get), on
 * every window flavour and in every kind of epoch:
 *  - the data of origin_count elements of origin_datatype land at
 *    target_disp * disp_unit past the target's base (a dynamic window: at
 *    address target_disp), and nothing else at the target changes;
 *  - origin and target datatypes may differ where their type signatures
 *    match (predefined on one side, derived on the other);
 *  - MPI_PROC_NULL is a valid target rank: the call has no effect, and it
 *    still belongs to an epoch (12.3, "MPI_PROC_NULL is a valid target rank
 *    in all MPI RMA communication calls"), including an epoch opened by
 *    MPI_Win_lock(MPI_PROC_NULL);
 *  - a transfer of no data -- count 0, or a committed datatype of size 0 --
 *    is legal with NULL buffers on either side, in any combination;
 *  - MPI_BOTTOM with absolute addresses as the origin buffer (12.3: "the
 *    origin buffer ... may be MPI_BOTTOM"), and as a dynamic window's
 *    target (displacements are addresses);
 *  - a rank may be its own target. */
#include "conf.h"

#define N 48 /* ints per rank */

/* After an epoch in which this rank's left neighbour wrote conf_val(left)
 * into [at, at + n) of this rank: those, and the background elsewhere. */
static void expect_written(const char *what, struct mt_win *w, long at, long n)
{
    const int *p = w->base;
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win); /* a local epoch on our own memory */
    conf_expect_bg(what, p, at, rank, 0);
    conf_expect_vals(what, p + at, n, conf_left(), at);
    conf_expect_bg(what, p + at + n, N - at - n, rank, at + n);
    MPI_Win_unlock(rank, w->win);
}

static void expect_untouched(const char *what, struct mt_win *w)
{
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    conf_expect_bg(what, w->base, N, rank, 0);
    MPI_Win_unlock(rank, w->win);
}

/* Put and get of predefined and derived types, each side different. */
static void transfers(struct mt_win *w)
{
    int src[N], got[N + 2];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    int right = conf_right();

    /* 5 ints at displacement 3: origin predefined, target contiguous(5) */
    conf_reset(w, N);
    MPI_Datatype five;
    MPI_Type_contiguous(5, MPI_INT, &five);
    MPI_Type_commit(&five);
    MPI_Win_fence(0, w->win);
    OK(MPI_Put(src + 3, 5, MPI_INT, right, mt_disp(w, right, 3), 1, five, w->win));
    MPI_Win_fence(0, w->win);
    expect_written("put of 5 ints as one contiguous(5)", w, 3, 5);

    /* a vector at the target: every other int of [10, 20) */
    conf_reset(w, N);
    MPI_Datatype every_other;
    MPI_Type_vector(5, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w->win);
    int packed[5];
    for (int i = 0; i < 5; i++)
        packed[i] = conf_val(rank, 10 + 2 * i);
    OK(MPI_Put(packed, 5, MPI_INT, right, mt_disp(w, right, 10), 1, every_other, w->win));
    MPI_Win_unlock(right, w->win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    const int *p = w->base;
    for (int i = 0; i < N; i++)
        expect("put through a target vector", i, p[i],
               i >= 10 && i < 20 && i % 2 == 0 ? conf_val(conf_left(), i) : bg(rank, i));
    MPI_Win_unlock(rank, w->win);
    MPI_Barrier(MPI_COMM_WORLD);

    /* get of the whole window of the right neighbour into a guarded buffer */
    conf_reset(w, N);
    int *g = guarded_alloc(N * sizeof(int));
    MPI_Win_lock_all(0, w->win);
    OK(MPI_Get(g, N, MPI_INT, right, mt_disp(w, right, 0), N, MPI_INT, w->win));
    MPI_Win_unlock_all(w->win);
    conf_expect_bg("get of the neighbour's window", g, N, right, 0);
    guarded_check(g, N * sizeof(int), "get of the neighbour's window");
    guarded_free(g);

    /* get into a vector at the origin from 4 ints at displacement N - 4 */
    for (int i = 0; i < N + 2; i++)
        got[i] = -7;
    MPI_Datatype spread;
    MPI_Type_vector(4, 1, 3, MPI_INT, &spread);
    MPI_Type_commit(&spread);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win);
    OK(MPI_Get(got + 1, 1, spread, right, mt_disp(w, right, N - 4), 4, MPI_INT, w->win));
    MPI_Win_unlock(right, w->win);
    for (int i = 0; i < N + 2; i++)
        expect("get into an origin vector", i, got[i],
               i >= 1 && i <= 10 && (i - 1) % 3 == 0 ? bg(right, N - 4 + (i - 1) / 3) : -7);

    /* a rank is its own target */
    conf_reset(w, N);
    MPI_Win_fence(0, w->win);
    OK(MPI_Put(src, 2, MPI_INT, rank, mt_disp(w, rank, 0), 2, MPI_INT, w->win));
    MPI_Win_fence(0, w->win);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    conf_expect_vals("put to itself", w->base, 2, rank, 0);
    conf_expect_bg("put to itself", (int *)w->base + 2, N - 2, rank, 2);
    MPI_Win_unlock(rank, w->win);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Type_free(&five);
    MPI_Type_free(&every_other);
    MPI_Type_free(&spread);
}

/* Lock epochs of MPI_PROC_NULL, alone and beside a real lock. */
static void proc_null_locks(struct mt_win *w, int *src, int *dst)
{
    OK(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, w->win));
    OK(MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    OK(MPI_Win_flush(MPI_PROC_NULL, w->win));
    OK(MPI_Win_flush_local(MPI_PROC_NULL, w->win));
    OK(MPI_Get(dst, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    OK(MPI_Win_unlock(MPI_PROC_NULL, w->win));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, MPI_MODE_NOCHECK, w->win));
    OK(MPI_Win_unlock(MPI_PROC_NULL, w->win));

    /* beside a real lock, in either order of unlocking */
    int right = conf_right();
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, w->win));
    OK(MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    OK(MPI_Win_unlock(MPI_PROC_NULL, w->win));
    OK(MPI_Win_unlock(right, w->win));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, w->win));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win));
    OK(MPI_Win_unlock(right, w->win));
    OK(MPI_Win_unlock(MPI_PROC_NULL, w->win));
}

/* MPI_PROC_NULL as the target of put and get in every epoch kind: success,
 * nothing moves, the epoch goes on as if the call had not been made. */
static void proc_null(struct mt_win *w)
{
    int src[4] = {1, 2, 3, 4}, dst[4] = {-1, -1, -1, -1};
    MPI_Group world, none;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 0, NULL, &none);
    conf_reset(w, N);

    MPI_Win_fence(0, w->win);
    OK(MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    OK(MPI_Get(dst, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    /* a displacement and count far beyond any window: nothing is checked
     * against a window, since there is none */
    OK(MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 1 << 30, 4, MPI_INT, w->win));
    MPI_Win_fence(0, w->win);

    /* PSCW: an access epoch to nobody, and exposure to nobody */
    MPI_Win_post(none, 0, w->win);
    MPI_Win_start(none, 0, w->win);
    OK(MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    OK(MPI_Get(dst, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    MPI_Win_complete(w->win);
    MPI_Win_wait(w->win);

    /* A lock epoch of MPI_PROC_NULL, shared and exclusive, with a flush.
     * The standard names no exception for MPI_Win_lock's rank, and Open MPI
     * 4.1 refuses MPI_PROC_NULL there (MPI_ERR_RANK) and crashes in
     * MPI_Win_flush with it; MPICH takes both (its own test suite locks
     * MPI_PROC_NULL), so programs do, and liborma-mpi takes them too. */
    if (conf_host_ok(CONF_NOT_OPEN_MPI))
        proc_null_locks(w, src, dst);

    MPI_Win_lock_all(0, w->win);
    OK(MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    OK(MPI_Get(dst, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win));
    if (conf_host_ok(CONF_NOT_OPEN_MPI)) /* Open MPI 4.1: SIGSEGV in MPI_Win_flush */
        OK(MPI_Win_flush(MPI_PROC_NULL, w->win));
    OK(MPI_Win_flush_all(w->win));
    MPI_Win_unlock_all(w->win);

    for (int i = 0; i < 4; i++)
        expect("a get from MPI_PROC_NULL left its buffer alone", i, dst[i], -1);
    MPI_Barrier(MPI_COMM_WORLD);
    expect_untouched("after operations to MPI_PROC_NULL", w);
    MPI_Group_free(&none);
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Transfers of no data, with NULL buffers wherever the data would be. */
static void no_data(struct mt_win *w)
{
    MPI_Datatype empty = conf_empty_type();
    int one = 5, right = conf_right();
    conf_reset(w, N);
    MPI_Win_fence(0, w->win);
    OK(MPI_Put(NULL, 0, MPI_INT, right, mt_disp(w, right, 0), 0, MPI_INT, w->win));
    OK(MPI_Get(NULL, 0, MPI_INT, right, mt_disp(w, right, 0), 0, MPI_INT, w->win));
    OK(MPI_Put(NULL, 1, empty, right, mt_disp(w, right, 0), 1, empty, w->win));
    OK(MPI_Get(NULL, 3, empty, right, mt_disp(w, right, 0), 0, MPI_INT, w->win));
    OK(MPI_Put(&one, 0, MPI_INT, right, mt_disp(w, right, 0), 7, empty, w->win));
    OK(MPI_Put(NULL, 0, MPI_DOUBLE, right, mt_disp(w, right, 0), 0, MPI_INT, w->win));
    /* no data at the window's end, and past it: nothing is accessed */
    OK(MPI_Put(NULL, 0, MPI_INT, right, mt_disp(w, right, N), 0, MPI_INT, w->win));
    MPI_Win_fence(0, w->win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w->win);
    OK(MPI_Put(NULL, 0, MPI_INT, right, mt_disp(w, right, 1), 0, MPI_INT, w->win));
    OK(MPI_Get(NULL, 2, empty, right, mt_disp(w, right, 1), 2, empty, w->win));
    MPI_Win_unlock(right, w->win);
    MPI_Barrier(MPI_COMM_WORLD);
    expect_untouched("after transfers of no data", w);
    MPI_Type_free(&empty);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* MPI_BOTTOM: the origin described by absolute addresses, and (dynamic
 * windows) the target displacement an absolute address. */
static void bottom(struct mt_win *w)
{
    int a[3], b[2];
    for (int i = 0; i < 3; i++)
        a[i] = conf_val(rank, 20 + i);
    for (int i = 0; i < 2; i++)
        b[i] = conf_val(rank, 23 + i);
    MPI_Aint addr[2];
    MPI_Get_address(a, &addr[0]);
    MPI_Get_address(b, &addr[1]);
    int lens[2] = {3, 2};
    MPI_Datatype abs;
    MPI_Type_create_hindexed(2, lens, addr, MPI_INT, &abs);
    MPI_Type_commit(&abs);
    int right = conf_right();
    conf_reset(w, N);
    MPI_Win_fence(0, w->win);
    OK(MPI_Put(MPI_BOTTOM, 1, abs, right, mt_disp(w, right, 20), 5, MPI_INT, w->win));
    MPI_Win_fence(0, w->win);
    expect_written("put from MPI_BOTTOM", w, 20, 5);

    /* and a get into MPI_BOTTOM from the same place */
    for (int i = 0; i < 3; i++)
        a[i] = 0;
    b[0] = b[1] = 0;
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win);
    OK(MPI_Get(MPI_BOTTOM, 1, abs, right, mt_disp(w, right, 20), 5, MPI_INT, w->win));
    MPI_Win_unlock(right, w->win);
    for (int i = 0; i < 3; i++)
        expect("get into MPI_BOTTOM", i, a[i], conf_val(rank, 20 + i));
    for (int i = 0; i < 2; i++)
        expect("get into MPI_BOTTOM", 3 + i, b[i], conf_val(rank, 23 + i));
    MPI_Type_free(&abs);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    transfers(w);
    proc_null(w);
    no_data(w);
    bottom(w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_put_get");
}
