/* conf_win_dynamic.c -- MPI-4.1 section 12.2.4 (Window of Dynamically
 * Attached Memory), MPI_Win_create_dynamic, MPI_Win_attach and
 * MPI_Win_detach:
 *  - a target displacement is an address, as MPI_Get_address gives it
 *    (and MPI_Aint_add offsets it); memory of any kind may be attached --
 *    malloc'd, on the stack, static, from MPI_Alloc_mem -- and put, get,
 *    accumulate, get_accumulate, fetch_and_op and compare_and_swap reach
 *    it there, and nothing next to it;
 *  - many regions at once (300 per rank), each accessed by a peer, the
 *    rest still accessible while some are detached, detached in an order
 *    other than that of attaching;
 *  - regions may be adjacent: a single put or get may span two regions
 *    attached separately (the halves of one array);
 *  - attach and detach are local: a rank attaches and detaches regions
 *    while its peers access its other regions, each region accessed only
 *    after its address reached the peer and before it is detached -- the
 *    pattern of linked-list programs (MPICH's test/mpi/rma/linked_list*),
 *    on every rank at once;
 *  - memory may be detached and attached again; a region of size 0 may be
 *    attached and detached.
 * Attaching overlapping regions is erroneous: Open MPI 4.1.4 detects it
 * (MPI_ERR_RMA_ATTACH), MPICH 4.0 does not, so it is not tested; nor are
 * accesses to memory not attached (erroneous; MPICH carries them out). */
#include "conf.h"

#include <stddef.h>

#define N 16 /* ints per region in the kinds test */

/* Every rank's address of its region `mine`, gathered. */
static MPI_Aint *addresses(void *mine)
{
    MPI_Aint a, *all = malloc((size_t)size * sizeof *all);
    MPI_Get_address(mine, &a);
    MPI_Allgather(&a, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
    return all;
}

/* The address of int i of a region at address a. */
static MPI_Aint at_int(MPI_Aint a, int i) { return MPI_Aint_add(a, (MPI_Aint)i * (MPI_Aint)sizeof(int)); }

/* A region attached to win by every rank, written by its left neighbour
 * through every kind of RMA operation, checked by its owner:
 *   [2, 7)  put of conf_val(left, i), then MPI_SUM of i + 1 on top
 *   8       fetch_and_op MPI_SUM 1 (the old value is the background)
 *   9       compare_and_swap with the background: swapped for 77
 *   [10,13) get_accumulate MPI_REPLACE (the old values are backgrounds)
 * and read whole by get. */
static int region_want(int owner, int i)
{
    int left = (owner + size - 1) % size;
    if (i >= 2 && i < 7)
        return conf_val(left, i) + i + 1;
    if (i == 8)
        return bg(owner, 8) + 1;
    if (i == 9)
        return 77;
    if (i >= 10 && i < 13)
        return conf_val(left, i);
    return bg(owner, i);
}

static void every_operation(const char *what, MPI_Win win, int *mine)
{
    fill_bg_int(mine, N, rank);
    MPI_Aint *addr = addresses(mine);
    int right = conf_right();
    MPI_Aint a = addr[right];
    int src[N], add[N], old[N];
    for (int i = 0; i < N; i++) {
        src[i] = conf_val(rank, i);
        add[i] = i + 1;
        old[i] = 0;
    }
    OK(MPI_Win_fence(0, win));
    OK(MPI_Put(src + 2, 5, MPI_INT, right, at_int(a, 2), 5, MPI_INT, win));
    OK(MPI_Win_fence(0, win));
    OK(MPI_Accumulate(add + 2, 5, MPI_INT, right, at_int(a, 2), 5, MPI_INT, MPI_SUM, win));
    OK(MPI_Win_fence(0, win));

    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    int one = 1, fetched = 0, swap = 77, compare = bg(right, 9), was = 0;
    OK(MPI_Fetch_and_op(&one, &fetched, MPI_INT, right, at_int(a, 8), MPI_SUM, win));
    OK(MPI_Compare_and_swap(&swap, &compare, &was, MPI_INT, right, at_int(a, 9), win));
    OK(MPI_Get_accumulate(src + 10, 3, MPI_INT, old, 3, MPI_INT, right, at_int(a, 10), 3, MPI_INT, MPI_REPLACE,
                          win));
    OK(MPI_Win_unlock(right, win));
    expect("fetch_and_op in an attached region: the old value", 8, fetched, bg(right, 8));
    expect("compare_and_swap in an attached region: the old value", 9, was, bg(right, 9));
    for (int i = 0; i < 3; i++)
        expect("get_accumulate in an attached region: the old value", 10 + i, old[i], bg(right, 10 + i));
    MPI_Barrier(MPI_COMM_WORLD);

    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < N; i++)
        if (mine[i] != region_want(rank, i))
            fail("%s: int %d of the region: got %d, expected %d", what, i, mine[i], region_want(rank, i));
    OK(MPI_Win_unlock(rank, win));

    int *got = guarded_alloc(N * sizeof(int));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    OK(MPI_Get(got, N, MPI_INT, right, a, N, MPI_INT, win));
    OK(MPI_Win_unlock(right, win));
    for (int i = 0; i < N; i++)
        if (got[i] != region_want(right, i))
            fail("%s: get of int %d of the right neighbour's region: got %d, expected %d", what, i, got[i],
                 region_want(right, i));
    guarded_check(got, N * sizeof(int), what);
    guarded_free(got);
    free(addr);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Regions of every kind of memory, attached together (between guards
 * that are not attached and must stay untouched). */
static void kinds(MPI_Win win)
{
    static int static_area[N + 8];
    int stack_area[N + 8];
    int *heap = malloc((N + 8) * sizeof(int)), *mem = NULL;
    OK(MPI_Alloc_mem((N + 8) * sizeof(int), MPI_INFO_NULL, &mem));
    int *areas[4] = {heap, stack_area, static_area, mem};
    static const char *const names[4] = {"malloc'd region", "stack region", "static region", "MPI_Alloc_mem region"};
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < N + 8; i++)
            areas[k][i] = -7 - i;
        OK(MPI_Win_attach(win, areas[k] + 4, N * sizeof(int)));
    }
    for (int k = 0; k < 4; k++)
        every_operation(names[k], win, areas[k] + 4);
    /* detached in another order; the ints around them never touched */
    static const int order[4] = {2, 0, 3, 1};
    for (int j = 0; j < 4; j++) {
        int k = order[j];
        OK(MPI_Win_detach(win, areas[k] + 4));
        for (int i = 0; i < 4; i++) {
            expect(names[k], -4 + i, areas[k][i], -7 - i);
            expect(names[k], N + i, areas[k][4 + N + i], -7 - (4 + N + i));
        }
    }
    free(heap);
    OK(MPI_Free_mem(mem));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* 300 regions of 2 ints per rank, separately allocated: the right
 * neighbour puts into int 1 of each; half are detached (in a scrambled
 * order), the others read back; then the rest detached in reverse. */
enum { NREG = 300 };

static void many(MPI_Win win)
{
    int *reg[NREG];
    MPI_Aint mine[NREG], *theirs = malloc(NREG * sizeof(MPI_Aint));
    for (int k = 0; k < NREG; k++) {
        reg[k] = malloc(2 * sizeof(int));
        reg[k][0] = bg(rank, 2 * k);
        reg[k][1] = bg(rank, 2 * k + 1);
        OK(MPI_Win_attach(win, reg[k], 2 * sizeof(int)));
        MPI_Get_address(reg[k], &mine[k]);
    }
    /* the left neighbour needs my addresses: send them round the ring */
    int right = conf_right(), left = conf_left();
    MPI_Sendrecv(mine, NREG, MPI_AINT, left, 0, theirs, NREG, MPI_AINT, right, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int vals[NREG]; /* origin buffers: untouched until the flush */
    OK(MPI_Win_lock_all(0, win));
    for (int k = 0; k < NREG; k++) {
        vals[k] = conf_val(rank, k);
        OK(MPI_Put(&vals[k], 1, MPI_INT, right, at_int(theirs[k], 1), 1, MPI_INT, win));
    }
    OK(MPI_Win_flush_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_sync(win));
    for (int k = 0; k < NREG; k++) {
        expect("300 regions: the int not written", k, reg[k][0], bg(rank, 2 * k));
        expect("300 regions: the int written by the left neighbour", k, reg[k][1], conf_val(left, k));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* the even regions detached, in the order 7 j mod 150 */
    for (int j = 0; j < NREG / 2; j++)
        OK(MPI_Win_detach(win, reg[2 * (7 * j % (NREG / 2))]));
    /* the odd ones still there: read back from the right neighbour */
    for (int k = 1; k < NREG; k += 2) {
        int got[2] = {0, 0};
        OK(MPI_Get(got, 2, MPI_INT, right, theirs[k], 2, MPI_INT, win));
        OK(MPI_Win_flush(right, win));
        expect("300 regions, half detached: get of the int not written", k, got[0], bg(right, 2 * k));
        expect("300 regions, half detached: get of the int written", k, got[1], conf_val(rank, k));
    }
    OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = NREG - 1; k >= 1; k -= 2)
        OK(MPI_Win_detach(win, reg[k]));
    for (int k = 0; k < NREG; k++)
        free(reg[k]);
    free(theirs);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The halves of one array attached separately: one put and one get cross
 * the boundary between them.  Open MPI 4.1.4 refuses such an access now and
 * then (MPI_ERR_RMA_RANGE, about 1 run in 30 at 3 ranks), though every
 * byte of it is attached memory. */
static void spanning(MPI_Win win)
{
    if (!conf_host_ok(CONF_NOT_OPEN_MPI)) {
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    enum { LEN = 24, HALF = 12 };
    int *arr = guarded_alloc(LEN * sizeof(int));
    fill_bg_int(arr, LEN, rank);
    OK(MPI_Win_attach(win, arr, HALF * sizeof(int)));
    OK(MPI_Win_attach(win, arr + HALF, (LEN - HALF) * sizeof(int)));
    MPI_Aint *addr = addresses(arr);
    int right = conf_right(), left = conf_left();
    int src[16];
    for (int i = 0; i < 16; i++)
        src[i] = conf_val(rank, 4 + i);
    /* ints [4, 20) of the right neighbour's array */
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    OK(MPI_Put(src, 16, MPI_INT, right, at_int(addr[right], 4), 16, MPI_INT, win));
    OK(MPI_Win_unlock(right, win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    conf_expect_bg("a put across two adjacent regions", arr, 4, rank, 0);
    conf_expect_vals("a put across two adjacent regions", arr + 4, 16, left, 4);
    conf_expect_bg("a put across two adjacent regions", arr + 20, LEN - 20, rank, 20);
    OK(MPI_Win_unlock(rank, win));
    /* ints [2, 22) back from the right neighbour */
    int *got = guarded_alloc(20 * sizeof(int));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    OK(MPI_Get(got, 20, MPI_INT, right, at_int(addr[right], 2), 20, MPI_INT, win));
    OK(MPI_Win_unlock(right, win));
    for (int i = 0; i < 20; i++)
        expect("a get across two adjacent regions", 2 + i, got[i],
               i >= 2 && i < 18 ? conf_val(rank, 2 + i) : bg(right, 2 + i));
    guarded_check(got, 20 * sizeof(int), "a get across two adjacent regions");
    guarded_free(got);
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_detach(win, arr + HALF));
    OK(MPI_Win_detach(win, arr));
    guarded_check(arr, LEN * sizeof(int), "two adjacent regions");
    guarded_free(arr);
    free(addr);
}

/* Detach and attach again the same memory. */
static void again(MPI_Win win)
{
    int arr[8];
    int right = conf_right(), left = conf_left();
    for (int round = 0; round < 3; round++) {
        fill_bg_int(arr, 8, rank);
        OK(MPI_Win_attach(win, arr, sizeof arr));
        MPI_Aint *addr = addresses(arr);
        int v = conf_val(rank, round);
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
        OK(MPI_Put(&v, 1, MPI_INT, right, at_int(addr[right], round), 1, MPI_INT, win));
        OK(MPI_Win_unlock(right, win));
        MPI_Barrier(MPI_COMM_WORLD);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        for (int i = 0; i < 8; i++)
            expect("memory attached again", i, arr[i], i == round ? conf_val(left, round) : bg(rank, i));
        OK(MPI_Win_unlock(rank, win));
        MPI_Barrier(MPI_COMM_WORLD);
        OK(MPI_Win_detach(win, arr));
        free(addr);
    }
}

/* Attach and detach 0 bytes: size is a non-negative integer.  Open MPI
 * 4.1.4 attaches them but fails to detach them (MPI_ERR_UNKNOWN); MPICH
 * 4.0 does both. */
static void empty(MPI_Win win)
{
    static int nothing[2];
    OK(MPI_Win_attach(win, nothing, 0));
    if (conf_host_ok(CONF_NOT_OPEN_MPI))
        OK(MPI_Win_detach(win, nothing));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Attach and detach while peers access other regions, every rank at once.
 * In round k each rank attaches a new region and sends its address to its
 * right neighbour (an MPI_Accumulate MPI_REPLACE into that one's mailbox);
 * the right neighbour waits for it (polling its mailbox with
 * MPI_Fetch_and_op MPI_NO_OP), writes and reads the region, and says so
 * (MPI_REPLACE into the owner's `done`); the owner detaches and frees the
 * region of round k - 1 once it is done, while the region of round k may
 * be in use.  All in one lock_all epoch, as linked-list programs do. */
enum { ROUNDS = 24 };

struct mailbox {
    MPI_Aint addr[ROUNDS]; /* from the left neighbour: its region of round k */
    int done[ROUNDS];      /* from the right neighbour: it is done with my region of round k */
};

static int rints(int k) { return 3 + k % 6; }

static MPI_Aint poll_aint(MPI_Win win, MPI_Aint where)
{
    MPI_Aint got = 0;
    while (got == 0) {
        OK(MPI_Fetch_and_op(NULL, &got, MPI_AINT, rank, where, MPI_NO_OP, win));
        OK(MPI_Win_flush(rank, win));
    }
    return got;
}

static void poll_int(MPI_Win win, MPI_Aint where)
{
    int got = 0;
    while (got == 0) {
        OK(MPI_Fetch_and_op(NULL, &got, MPI_INT, rank, where, MPI_NO_OP, win));
        OK(MPI_Win_flush(rank, win));
    }
}

static void retire(MPI_Win win, MPI_Aint boxaddr, int k, int *region)
{
    poll_int(win, MPI_Aint_add(boxaddr, (MPI_Aint)(offsetof(struct mailbox, done) + k * sizeof(int))));
    OK(MPI_Win_sync(win));
    int right = conf_right(); /* who writes my regions */
    for (int i = 0; i < rints(k); i++)
        expect("a region written while others were attached and detached", k * 100 + i, region[i],
               1000000 * (right + 1) + 1000 * k + i);
    OK(MPI_Win_detach(win, region));
    free(region);
}

static void concurrent(MPI_Win win)
{
    static struct mailbox box;
    memset(&box, 0, sizeof box);
    OK(MPI_Win_attach(win, &box, sizeof box));
    MPI_Aint *boxaddr = addresses(&box);
    int right = conf_right(), left = conf_left();
    int *region[ROUNDS];
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        /* attach and publish this round's region */
        region[k] = malloc((size_t)rints(k) * sizeof(int));
        fill_bg_int(region[k], (size_t)rints(k), rank);
        OK(MPI_Win_attach(win, region[k], (MPI_Aint)(rints(k) * sizeof(int))));
        MPI_Aint a;
        MPI_Get_address(region[k], &a);
        OK(MPI_Accumulate(&a, 1, MPI_AINT, right, MPI_Aint_add(boxaddr[right], (MPI_Aint)(k * sizeof(MPI_Aint))),
                          1, MPI_AINT, MPI_REPLACE, win));
        OK(MPI_Win_flush(right, win));

        /* serve the left neighbour's region of this round */
        MPI_Aint theirs = poll_aint(win, MPI_Aint_add(boxaddr[rank], (MPI_Aint)(k * sizeof(MPI_Aint))));
        int src[8], got[8];
        for (int i = 0; i < rints(k); i++)
            src[i] = 1000000 * (rank + 1) + 1000 * k + i;
        OK(MPI_Put(src, rints(k), MPI_INT, left, theirs, rints(k), MPI_INT, win));
        OK(MPI_Win_flush(left, win));
        OK(MPI_Get(got, rints(k), MPI_INT, left, theirs, rints(k), MPI_INT, win));
        OK(MPI_Win_flush(left, win));
        for (int i = 0; i < rints(k); i++)
            expect("get of a region of the left neighbour's, attached while it detaches others", k * 100 + i,
                   got[i], src[i]);
        int one = 1;
        OK(MPI_Accumulate(&one, 1, MPI_INT, left,
                          MPI_Aint_add(boxaddr[left], (MPI_Aint)(offsetof(struct mailbox, done) + k * sizeof(int))),
                          1, MPI_INT, MPI_REPLACE, win));
        OK(MPI_Win_flush(left, win));

        /* retire the region of the round before */
        if (k > 0)
            retire(win, boxaddr[rank], k - 1, region[k - 1]);
    }
    retire(win, boxaddr[rank], ROUNDS - 1, region[ROUNDS - 1]);
    OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_detach(win, &box));
    free(boxaddr);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (conf_flavor_here(MT_DYNAMIC)) {
        MPI_Win win;
        OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        kinds(win);
        again(win);
        spanning(win);
        many(win);
        concurrent(win);
        empty(win);
        OK(MPI_Win_free(&win));
    }
    return conf_done("conf_win_dynamic");
}
