/* conf_win_shared.c -- MPI-4.1 section 12.2.3 (Window That Allocates
 * Shared Memory), MPI_Win_allocate_shared and MPI_Win_shared_query:
 *  - the memory is contiguous across ranks by default: the first byte of
 *    a rank's segment follows the last byte of the segment of the rank
 *    before it (ranks of size 0 have no bytes, and are passed over), with
 *    sizes that differ per rank and are no multiple of 8;
 *  - MPI_Win_shared_query of every rank gives that rank's size and
 *    disp_unit and a base through which every rank loads and stores that
 *    rank's memory (made visible with MPI_Win_sync and a barrier); the
 *    query of one's own rank gives one's own baseptr;
 *  - with the info alloc_shared_noncontig "true" the segments may lie
 *    anywhere, and the queries are still all right;
 *  - the query of MPI_PROC_NULL gives the segment of the lowest rank whose
 *    size is not 0;
 *  - the query of a rank that gave 0 bytes gives size 0 and base NULL;
 *    all ranks may give 0 bytes (MPI_PROC_NULL then gives size 0);
 *  - RMA on the window reaches the memory that loads see;
 *  - over MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), as programs do, and
 *    over the halves of a split. */
#include "conf.h"

/* The bytes of this test: data below 0x80, backgrounds from 0x80. */
static unsigned char dbyte(int r, long i) { return (unsigned char)((r * 29 + i * 7 + 1) & 0x7f); }
static unsigned char bgbyte(int r, long i) { return (unsigned char)(0x80 | ((r * 13 + i * 5) & 0x7f)); }

static const int units[4] = {1, 4, 8, 16};

/* What the ranks of a window gave, and what the queries returned. */
struct seg {
    long bytes;
    int unit, world;
    unsigned char *base; /* the query's, in this process */
    long qbytes;         /* the query's size */
};

/* Every rank's MPI_Win_shared_query against what it gave. */
static void query_all(const char *what, MPI_Win win, int n, struct seg *s, unsigned char *mine, int me,
                      int contiguous)
{
    for (int r = 0; r < n; r++) {
        MPI_Aint bytes = -1;
        int unit = -1;
        unsigned char *base = (unsigned char *)&bytes; /* anything but NULL */
        OK(MPI_Win_shared_query(win, r, &bytes, &unit, &base));
        char m[200];
        snprintf(m, sizeof m, "%s: shared_query's size of rank", what);
        /* Open MPI 4.1.4 with alloc_shared_noncontig returns the size
         * rounded up to a whole page (4096 for 9 bytes): there, at least
         * the size given */
        if (contiguous || conf_host_ok(CONF_NOT_OPEN_MPI) || bytes < s[r].bytes)
            expect(m, r, bytes, s[r].bytes);
        snprintf(m, sizeof m, "%s: shared_query's disp_unit of rank", what);
        expect(m, r, unit, s[r].unit);
        /* A rank that gave no bytes: base NULL.  Open MPI 4.1.4 returns
         * the address where the segment would have begun (the next
         * segment's base); MPICH 4.0 returns NULL. */
        if (s[r].bytes == 0 && base != NULL && conf_host_ok(CONF_NOT_OPEN_MPI))
            fail("%s: shared_query of rank %d, which gave 0 bytes: base %p, expected NULL", what, r,
                 (void *)base);
        s[r].base = s[r].bytes ? base : NULL;
        s[r].qbytes = (long)bytes;
    }
    if (s[me].bytes > 0 && s[me].base != mine)
        fail("%s: shared_query of one's own rank gives %p, MPI_Win_allocate_shared gave %p", what,
             (void *)s[me].base, (void *)mine);

    /* contiguous: each segment follows the one of the rank with memory
     * before it */
    int prev = -1;
    for (int r = 0; r < n && contiguous; r++) {
        if (s[r].bytes == 0)
            continue;
        if (prev >= 0 && s[r].base != s[prev].base + s[prev].bytes)
            fail("%s: rank %d's segment begins at %p, not where rank %d's ends (%p + %ld)", what, r,
                 (void *)s[r].base, prev, (void *)s[prev].base, s[prev].bytes);
        prev = r;
    }

    /* MPI_PROC_NULL: the lowest rank with memory, or size 0 */
    int lowest = -1;
    for (int r = n - 1; r >= 0; r--)
        if (s[r].bytes > 0)
            lowest = r;
    MPI_Aint bytes = -1;
    int unit = -1;
    unsigned char *base = NULL;
    OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit, &base));
    if (lowest < 0) {
        expect("shared_query of MPI_PROC_NULL when all sizes are 0: size", 0, bytes, 0);
    } else {
        expect("shared_query of MPI_PROC_NULL: size (as the lowest rank with memory's)", lowest, bytes,
               s[lowest].qbytes);
        expect("shared_query of MPI_PROC_NULL: disp_unit (of the lowest rank with memory)", lowest, unit,
               s[lowest].unit);
        if (base != s[lowest].base)
            fail("%s: shared_query of MPI_PROC_NULL gives base %p, rank %d's is %p", what, (void *)base, lowest,
                 (void *)s[lowest].base);
    }
}

/* The other ranks' stores are visible: a sync, a barrier, a sync (the
 * unified model's pattern for load/store in a lock_all epoch). */
static void settle(MPI_Win win, MPI_Comm comm)
{
    OK(MPI_Win_sync(win));
    MPI_Barrier(comm);
    OK(MPI_Win_sync(win));
}

/* The right neighbour writes up to 24 bytes at displacement 1 (in the
 * target's unit) when there is room, else at 0. */
static long wdisp(const struct seg *t) { return t->bytes > t->unit ? 1 : 0; }
static long wlen(const struct seg *t)
{
    long n = t->bytes - wdisp(t) * t->unit;
    return n < 24 ? n : 24;
}

/* Every segment holds its owner's background, and (if `written`) its left
 * neighbour's data where that one writes. */
static void expect_segments(const char *what, int n, const struct seg *s, int written)
{
    for (int r = 0; r < n; r++) {
        long off = wdisp(&s[r]) * s[r].unit, len = written ? wlen(&s[r]) : 0;
        int lw = s[(r + n - 1) % n].world;
        for (long i = 0; i < s[r].bytes; i++) {
            int want = i >= off && i < off + len ? dbyte(lw, i - off) : bgbyte(s[r].world, i);
            if (s[r].base[i] != want)
                fail("%s: byte %ld of rank %d's segment: got 0x%02x, expected 0x%02x", what, i, r, s[r].base[i],
                     want);
        }
    }
}

/* MPI_Win_allocate_shared over comm with this rank's bytes and unit, then
 * every query, loads and stores of every segment by every rank, and a put
 * and a get. */
static void shared(const char *what, MPI_Comm comm, long bytes, int unit, MPI_Info info, int contiguous)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    unsigned char *mine = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate_shared((MPI_Aint)bytes, unit, info, comm, &mine, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    struct seg *s = calloc((size_t)n, sizeof *s);
    long *all_bytes = malloc((size_t)n * sizeof *all_bytes);
    int *all_units = malloc((size_t)n * sizeof *all_units), *world = malloc((size_t)n * sizeof *world);
    MPI_Allgather(&bytes, 1, MPI_LONG, all_bytes, 1, MPI_LONG, comm);
    MPI_Allgather(&unit, 1, MPI_INT, all_units, 1, MPI_INT, comm);
    MPI_Allgather(&rank, 1, MPI_INT, world, 1, MPI_INT, comm);
    for (int r = 0; r < n; r++)
        s[r] = (struct seg){all_bytes[r], all_units[r], world[r], NULL, 0};
    query_all(what, win, n, s, mine, me, contiguous);

    int right = (me + 1) % n;
    OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    /* stores into one's own segment, loads of everybody's */
    for (long i = 0; i < bytes; i++)
        mine[i] = bgbyte(rank, i);
    settle(win, comm);
    expect_segments(what, n, s, 0);
    MPI_Barrier(comm); /* all have loaded before anyone stores again */

    /* stores into the right neighbour's segment */
    long off = wdisp(&s[right]) * s[right].unit, len = wlen(&s[right]);
    for (long i = 0; i < len; i++)
        s[right].base[off + i] = dbyte(rank, i);
    settle(win, comm);
    expect_segments(what, n, s, 1);
    MPI_Barrier(comm);

    /* the same through RMA: the background again, a put at
     * displacement 1 of the right neighbour, a get of its segment */
    for (long i = 0; i < bytes; i++)
        mine[i] = bgbyte(rank, i);
    settle(win, comm);
    unsigned char src[24];
    for (long i = 0; i < len; i++)
        src[i] = dbyte(rank, i);
    if (len > 0) {
        OK(MPI_Put(src, (int)len, MPI_BYTE, right, wdisp(&s[right]), (int)len, MPI_BYTE, win));
        OK(MPI_Win_flush(right, win));
    }
    settle(win, comm);
    expect_segments(what, n, s, 1);
    if (s[right].bytes > 0) {
        unsigned char *got = guarded_alloc((size_t)s[right].bytes);
        OK(MPI_Get(got, (int)s[right].bytes, MPI_BYTE, right, 0, (int)s[right].bytes, MPI_BYTE, win));
        OK(MPI_Win_flush(right, win));
        for (long i = 0; i < s[right].bytes; i++)
            if (got[i] != s[right].base[i])
                fail("%s: get of byte %ld of the right neighbour's segment: got 0x%02x, a load gives 0x%02x",
                     what, i, got[i], s[right].base[i]);
        guarded_check(got, (size_t)s[right].bytes, what);
        guarded_free(got);
    }
    MPI_Barrier(comm);
    OK(MPI_Win_unlock_all(win));
    OK(MPI_Win_free(&win));
    free(s);
    free(all_bytes);
    free(all_units);
    free(world);
}

static void contiguous(void)
{
    /* sizes no multiple of 8, rank 2 without memory (3, 17, 0, 96 bytes) */
    int unit = units[rank % 4];
    long bytes = rank == 2 ? 0 : (long)unit * (3 + rank) + rank % 3;
    shared("contiguous, sizes per rank", MPI_COMM_WORLD, bytes, unit, MPI_INFO_NULL, 1);

    /* over the node's communicator, rank 0 without memory: MPI_PROC_NULL
     * is rank 1 */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int me;
    MPI_Comm_rank(node, &me);
    bytes = me == 0 ? 0 : 16L * (me + 1);
    shared("contiguous over MPI_COMM_TYPE_SHARED, rank 0 without memory", node, bytes, units[(me + 1) % 4],
           MPI_INFO_NULL, 1);
    MPI_Comm_free(&node);
}

static void noncontig(void)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    int unit = units[(rank + 1) % 4];
    long bytes = rank == size - 1 && size > 1 ? 0 : (long)unit * (2 + rank) + 1;
    shared("alloc_shared_noncontig", MPI_COMM_WORLD, bytes, unit, info, 0);
    MPI_Info_free(&info);
}

static void all_zero(void)
{
    shared("size 0 on every rank", MPI_COMM_WORLD, 0, 8, MPI_INFO_NULL, 1);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    shared("size 0 on every rank, noncontig", MPI_COMM_WORLD, 0, 4, info, 0);
    MPI_Info_free(&info);
}

/* The halves of MPI_COMM_WORLD (even, odd), ranked in reverse, one after
 * the other. */
static void halves(void)
{
    int me;
    MPI_Comm half = conf_half(&me);
    for (int turn = 0; turn < 2; turn++) {
        if (rank % 2 == turn)
            shared("a split communicator in reverse order", half, 32L * (me + 1), units[me % 4], MPI_INFO_NULL, 1);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    contiguous();
    noncontig();
    all_zero();
    halves();
    return conf_done("conf_win_shared");
}
