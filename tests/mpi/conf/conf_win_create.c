/* conf_win_create.c -- MPI-4.1 section 12.2.1 (Window Creation),
 * MPI_Win_create:
 *  - the window's group is the communicator's: target ranks are ranks in
 *    comm, for MPI_COMM_WORLD, a split of it whose ranks run in the
 *    reverse order of the world's, and a duplicate of it;
 *  - size and disp_unit may differ at each rank (1, 4, 8 and 16 here, and
 *    sizes that are no multiple of the unit): a target displacement is
 *    scaled by the TARGET's disp_unit, and displacement 0 is the target's
 *    base;
 *  - size 0 is valid, with base NULL or with any base, on some ranks and
 *    on all of them; the ranks with memory are still targets, the others
 *    still origins;
 *  - the memory may be anything the process owns: malloc'd, on the stack,
 *    static, from MPI_Alloc_mem, and small (8 bytes) at an address that is
 *    not aligned to anything;
 *  - several windows may cover the same memory (the same range, and a part
 *    of it), each used in its own epochs, and what one window wrote is
 *    what the other reads.
 * Every transfer checks the bytes that arrived and that nothing else in
 * the memory around the window changed.  Host departures (each guarded
 * where it is): MPICH 4.0 misplaces RMA on a window whose base is on no
 * 16-byte boundary or inside another window's memory; Open MPI 4.1.4
 * cannot make windows over the two halves of a split at once, nor over a
 * communicator of one process. */
#include "conf.h"

/* The bytes of this test: data is below 0x80, backgrounds are 0x80 and
 * above, both distinct per (world) rank and index. */
static unsigned char dbyte(int r, long i) { return (unsigned char)((r * 29 + i * 7 + 1) & 0x7f); }
static unsigned char bgbyte(int r, long i) { return (unsigned char)(0x80 | ((r * 13 + i * 5) & 0x7f)); }

static const int units[4] = {1, 4, 8, 16};

/* Whether a create window over comm can be made in this run: Open MPI
 * 4.1.4 alone fails MPI_Win_create on a communicator of one process with
 * MPI_ERR_WIN (as on one rank: see conf_flavor_here). */
static int create_here(MPI_Comm comm)
{
    int n;
    MPI_Comm_size(comm, &n);
    return mt_orma || n > 1 || !mt_host_is_open_mpi();
}

/* A window's memory as this rank gave it: `bytes` bytes at outer + at,
 * inside `outer_len` bytes that this test owns and watches (outer NULL
 * when the rank gave no memory). */
struct mem {
    unsigned char *outer;
    long outer_len, at, bytes;
    int unit;
};

/* Where a rank's right neighbour writes into it, in its units: at
 * displacement 1 when it has more than one unit of memory, up to 40
 * bytes. */
static long put_disp(long bytes, int unit) { return bytes > unit ? 1 : 0; }
static long put_len(long bytes, int unit)
{
    long n = bytes - put_disp(bytes, unit) * unit;
    return n < 40 ? n : 40;
}

/* This rank's memory after its left neighbour (world rank lw) wrote len
 * bytes at offset off: those, and the background everywhere else. */
static void expect_mem(const char *what, const struct mem *m, long off, long len, int lw)
{
    for (long i = 0; i < m->outer_len; i++) {
        long w = i - m->at; /* offset in the window */
        int want = w >= off && w < off + len ? dbyte(lw, w - off) : bgbyte(rank, i);
        if (m->outer[i] != want)
            fail("%s: byte %ld of the memory (window offset %ld): got 0x%02x, expected 0x%02x", what, i, w,
                 m->outer[i], want);
    }
}

/* Every rank of comm puts into its right neighbour (in comm) at
 * displacement 1 of the TARGET's unit, reads the target's whole window
 * back, and checks its own memory: the left neighbour's bytes where they
 * belong and the background elsewhere, also outside the window. */
static void exercise(const char *what, MPI_Win win, MPI_Comm comm, struct mem *m)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    long *bytes = malloc((size_t)n * sizeof *bytes);
    long *at = malloc((size_t)n * sizeof *at);
    int *unit = malloc((size_t)n * sizeof *unit), *world = malloc((size_t)n * sizeof *world);
    MPI_Allgather(&m->bytes, 1, MPI_LONG, bytes, 1, MPI_LONG, comm);
    MPI_Allgather(&m->at, 1, MPI_LONG, at, 1, MPI_LONG, comm);
    MPI_Allgather(&m->unit, 1, MPI_INT, unit, 1, MPI_INT, comm);
    MPI_Allgather(&rank, 1, MPI_INT, world, 1, MPI_INT, comm);
    int right = (me + 1) % n, left = (me + n - 1) % n;

    for (long i = 0; i < m->outer_len; i++)
        m->outer[i] = bgbyte(rank, i);
    OK(MPI_Win_fence(0, win));
    long rd = put_disp(bytes[right], unit[right]), rlen = put_len(bytes[right], unit[right]);
    unsigned char src[40];
    for (long i = 0; i < rlen; i++)
        src[i] = dbyte(rank, i);
    if (rlen > 0)
        OK(MPI_Put(src, (int)rlen, MPI_BYTE, right, rd, (int)rlen, MPI_BYTE, win));
    OK(MPI_Win_fence(0, win));
    long md = put_disp(m->bytes, m->unit), mlen = put_len(m->bytes, m->unit);
    expect_mem(what, m, md * m->unit, mlen > 0 ? mlen : 0, world[left]);
    MPI_Barrier(comm);

    /* the right neighbour's whole window, from displacement 0 (its base) */
    if (bytes[right] > 0) {
        unsigned char *got = guarded_alloc((size_t)bytes[right]);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
        OK(MPI_Get(got, (int)bytes[right], MPI_BYTE, right, 0, (int)bytes[right], MPI_BYTE, win));
        OK(MPI_Win_unlock(right, win));
        /* its background is indexed from the start of its outer memory */
        long off = rd * unit[right];
        for (long i = 0; i < bytes[right]; i++) {
            int want = i >= off && i < off + rlen ? dbyte(rank, i - off) : bgbyte(world[right], at[right] + i);
            if (got[i] != want)
                fail("%s: get of the right neighbour's window, byte %ld: got 0x%02x, expected 0x%02x", what, i,
                     got[i], want);
        }
        guarded_check(got, (size_t)bytes[right], what);
        guarded_free(got);
    }
    MPI_Barrier(comm);
    free(bytes);
    free(at);
    free(unit);
    free(world);
}

/* MPI_Win_create on outer + at, checks, free. */
static void create_and_exercise(const char *what, MPI_Comm comm, struct mem *m)
{
    if (!create_here(comm))
        return;
    MPI_Win win;
    void *base = m->outer ? m->outer + m->at : NULL;
    OK(MPI_Win_create(base, (MPI_Aint)m->bytes, m->unit, MPI_INFO_NULL, comm, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    exercise(what, win, comm, m);
    OK(MPI_Win_free(&win));
}

/* Sizes and units that differ at every rank, on malloc'd memory. */
static void per_rank_units(void)
{
    struct mem m = {0};
    m.unit = units[rank % 4];
    m.bytes = (long)m.unit * (5 + rank) + rank % 3; /* not always a multiple of the unit */
    m.outer_len = m.bytes + 16;
    m.at = 0;
    m.outer = malloc((size_t)m.outer_len);
    create_and_exercise("sizes and units per rank, malloc'd", MPI_COMM_WORLD, &m);
    free(m.outer);
}

/* Size 0 on odd ranks: with base NULL, or (rank 3) with a real address. */
static void zero_sizes(void)
{
    static unsigned char some[8];
    struct mem m = {0};
    m.unit = 4;
    if (rank % 2 == 0) {
        m.bytes = 64;
        m.outer_len = 64;
        m.outer = malloc(64);
    } else if (rank % 4 == 3) {
        /* a base but no bytes: the memory is never touched */
        m.outer = some;
        m.outer_len = 0;
    }
    create_and_exercise("size 0 on odd ranks", MPI_COMM_WORLD, &m);
    if (rank % 2 == 0)
        free(m.outer);

    /* size 0 everywhere: a window with nothing in it still synchronises */
    if (create_here(MPI_COMM_WORLD)) {
        MPI_Win win;
        OK(MPI_Win_create(NULL, 0, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        OK(MPI_Win_fence(0, win));
        OK(MPI_Win_fence(0, win));
        OK(MPI_Win_lock(MPI_LOCK_SHARED, conf_right(), 0, win));
        OK(MPI_Win_unlock(conf_right(), win));
        OK(MPI_Win_free(&win));
    }
}

/* A split of MPI_COMM_WORLD, even and odd ranks, ordered in reverse (the
 * key is minus the world rank): window ranks are ranks in the split, and
 * the memory is a static array.  First the halves make their windows one
 * after the other, then both at once.  Open MPI 4.1.4 alone cannot do the
 * latter: osc/rdma names its shared-memory file after the communicator's
 * context id, which the two disjoint halves share, so the halves' windows
 * collide in one file ("unlink(2) /dev/shm/osc_rdma...: No such file",
 * then "Wrote -1, expected 40, errno = 14" from its single-copy path). */
static void sub_communicator(void)
{
    static _Alignas(16) unsigned char area[16 * 8 + 40];
    int me;
    MPI_Comm half = conf_half(&me);
    struct mem m = {area, 0, 16, 0, units[(me + 1) % 4]};
    m.bytes = (long)m.unit * 6;
    m.outer_len = m.at + m.bytes + 8;
    for (int turn = 0; turn < 2; turn++) {
        if (rank % 2 == turn)
            create_and_exercise("a split communicator in reverse order, static memory", half, &m);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (conf_host_ok(CONF_NOT_OPEN_MPI))
        create_and_exercise("both halves of a split communicator at once", half, &m);
    MPI_Comm_free(&half);
}

/* A duplicate of MPI_COMM_WORLD, over memory on the stack. */
static void duplicate(void)
{
    _Alignas(16) unsigned char area[200];
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    struct mem m = {area, 200, 32, 0, units[(rank + 2) % 4]};
    m.bytes = (long)m.unit * 8 + 3;
    create_and_exercise("a duplicate of MPI_COMM_WORLD, stack memory", dup, &m);
    MPI_Comm_free(&dup);
}

/* Memory from MPI_Alloc_mem. */
static void alloc_mem(void)
{
    struct mem m = {NULL, 256, 16, 200, units[(rank + 3) % 4]};
    OK(MPI_Alloc_mem(256, MPI_INFO_NULL, &m.outer));
    create_and_exercise("MPI_Alloc_mem memory", MPI_COMM_WORLD, &m);
    OK(MPI_Free_mem(m.outer));
}

/* 8 bytes at an address 1, 3, 5 or 8 bytes past a 16-byte boundary, in a
 * static array, unit 1.  MPICH 4.0 (ch4, UCX) gets such a window wrong:
 * its RMA operations land relative to the base rounded down to 16 bytes
 * (a put at displacement 2 of a window at boundary + 5 writes boundary +
 * 2), and MPI_WIN_BASE says the rounded address too; the other windows of
 * this program start on 16-byte boundaries so that MPICH runs them. */
static void small_unaligned(void)
{
    if (!conf_host_ok(CONF_NOT_MPICH))
        return;
    static _Alignas(16) unsigned char area[32];
    struct mem m = {area, 32, 1 + 2 * (rank % 4) + (rank % 4 == 3), 8, 1};
    create_and_exercise("8 bytes at an unaligned address", MPI_COMM_WORLD, &m);
}

/* A put of 8 bytes through window `through` (over area + at, in units of
 * `unit`) at displacement 1 of the right neighbour, then a read of the
 * left neighbour's whole area through window `whole` (over area, unit 1):
 * what one window wrote is what the other reads. */
static void across(const char *what, unsigned char *area, long len, MPI_Win through, long at, int unit,
                   MPI_Win whole)
{
    int right = conf_right(), left = conf_left();
    for (long i = 0; i < len; i++)
        area[i] = bgbyte(rank, i);
    unsigned char src[8];
    for (int i = 0; i < 8; i++)
        src[i] = dbyte(rank, i);
    OK(MPI_Win_fence(0, through));
    OK(MPI_Put(src, 8, MPI_BYTE, right, 1, 8, MPI_BYTE, through));
    OK(MPI_Win_fence(0, through));
    /* `whole` is another window over that memory: synchronise it with the
     * memory before it is read through (needed in the separate model) */
    OK(MPI_Win_lock_all(0, whole));
    OK(MPI_Win_sync(whole));
    OK(MPI_Win_unlock_all(whole));
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned char *got = guarded_alloc((size_t)len);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, left, 0, whole));
    OK(MPI_Get(got, (int)len, MPI_BYTE, left, 0, (int)len, MPI_BYTE, whole));
    OK(MPI_Win_unlock(left, whole));
    int lleft = (left + size - 1) % size; /* who wrote into the left neighbour */
    long from = at + unit;
    for (long i = 0; i < len; i++) {
        int want = i >= from && i < from + 8 ? dbyte(lleft, i - from) : bgbyte(left, i);
        if (got[i] != want)
            fail("%s: byte %ld read through the other window: got 0x%02x, expected 0x%02x", what, i, got[i],
                 want);
    }
    guarded_check(got, (size_t)len, what);
    guarded_free(got);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Windows over one array: two over all of it (unit 1), and one over its
 * middle 32 bytes (unit 8).  Each is exercised while the others exist,
 * and what a put through one wrote is read through another.  MPICH 4.0
 * (ch4, UCX) gets the middle window wrong: its RMA operations land
 * relative to the base of the earlier window whose memory contains it (a
 * put at displacement 2 of a window at area + 16 writes area + 2 when
 * another window covers area), so MPICH's own runs leave that window out. */
static void overlapping(void)
{
    if (!create_here(MPI_COMM_WORLD))
        return;
    enum { LEN = 64, MID = 16 };
    unsigned char *area = guarded_alloc(LEN);
    MPI_Win whole, again, middle;
    OK(MPI_Win_create(area, LEN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &whole));
    OK(MPI_Win_create(area, LEN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &again));
    MPI_Win_set_errhandler(whole, MPI_ERRORS_RETURN);
    MPI_Win_set_errhandler(again, MPI_ERRORS_RETURN);
    struct mem all = {area, LEN, 0, LEN, 1}, part = {area, LEN, MID, 32, 8};
    exercise("the first of two windows over the same memory", whole, MPI_COMM_WORLD, &all);
    exercise("the second of two windows over the same memory", again, MPI_COMM_WORLD, &all);
    across("a put through one of two windows over the same memory", area, LEN, again, 0, 1, whole);
    if (conf_host_ok(CONF_NOT_MPICH)) {
        OK(MPI_Win_create(area + MID, 32, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &middle));
        MPI_Win_set_errhandler(middle, MPI_ERRORS_RETURN);
        exercise("a window over part of another's memory", middle, MPI_COMM_WORLD, &part);
        across("a put through a window over part of another's memory", area, LEN, middle, MID, 8, whole);
        exercise("the first window again, beside one over part of its memory", whole, MPI_COMM_WORLD, &all);
        OK(MPI_Win_free(&middle));
    }
    OK(MPI_Win_free(&again));
    OK(MPI_Win_free(&whole));
    guarded_check(area, LEN, "memory of windows over the same memory");
    guarded_free(area);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    per_rank_units();
    zero_sizes();
    sub_communicator();
    duplicate();
    alloc_mem();
    small_unaligned();
    overlapping();
    return conf_done("conf_win_create");
}
