/* mpi_notify.c -- a program written for Intel MPI's notified one-sided
 * extension the way its users write one: <mpi.h> and the MPIX_ calls,
 * nothing of orma's.  Built with include/orma/mpi first on the include
 * path (so that <mpi.h> declares the MPIX_ calls) against the host MPI
 * alone, and run with liborma-mpi preloaded, linked or linked statically.
 *
 * On a window over malloc'd memory (MPI_Win_create) and on an allocated
 * one, with counters made on every rank: in a passive epoch
 * (MPI_Win_lock_all) each rank puts blocks to its right neighbour, each
 * notified, and polls its own counter until its left neighbour's have all
 * arrived, then checks them; the same with derived datatypes on either
 * side; zero counts (no data, one notification) and MPI_PROC_NULL
 * (nothing); notified gets; every counter exact once all are done, and
 * every byte outside the targets untouched; a counter reset and reused by
 * every rank notifying rank 0; bad indices returning
 * MPI_ERR_INVALID_NOTIFICATION under MPI_ERRORS_RETURN; then a fence
 * epoch; the counters freed, made again, and freed before the window.
 *
 * A target polls for an operation only after its origin flushed it, which
 * a program for Intel MPI may do; orma needs none of those flushes, over
 * its net transport (ranks on other nodes) either. */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTES 4   /* counters per rank */
#define PUTS 3    /* notified puts per rank in the first round */
#define BLOCK 5   /* ints per put */

/* The window, in ints: a guard between every two areas. */
enum { OFF_PUTS = 1,                          /* PUTS blocks from the left neighbour */
       OFF_VEC_ORIGIN = OFF_PUTS + PUTS * BLOCK + 1, /* 4 ints from a strided origin */
       OFF_VEC_TARGET = OFF_VEC_ORIGIN + 5,   /* 4 ints at stride 2 (7 ints) */
       OFF_ZERO = OFF_VEC_TARGET + 8,         /* a put of no data aims here */
       OFF_GET = OFF_ZERO + 2,                /* 8 ints the left neighbour reads */
       OFF_FAN = OFF_GET + 9 };               /* one int per rank, at rank 0; then a fence block */

static int rank, size, left, right, words, off_fence;
static int *want; /* what this rank's window must hold */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "rank %d: ", rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static int background(int r, int i) { return -(r * 100000 + i + 1); }
static int source(int r, int j) { return 7000000 + r * 1000 + j; }
static int value(int round, int r, int j) { return round * 1000000 + r * 1000 + j; }

static void check_range(const int *buf, int lo, int hi, const char *what)
{
    for (int i = lo; i < hi; i++)
        if (buf[i] != want[i])
            fail("%s: window int %d is %d, expected %d", what, i, buf[i], want[i]);
}

static void expect_count(MPI_Win win, int idx, MPI_Count n, const char *what)
{
    MPI_Count c = -1;
    MPIX_Win_get_notify(win, idx, &c);
    if (c != n)
        fail("%s: counter %d is %lld, expected %lld", what, idx, (long long)c, (long long)n);
}

/* Poll counter idx until it reaches n; it must not pass it. */
static void wait_count(MPI_Win win, int idx, MPI_Count n, const char *what)
{
    MPI_Count c = 0;
    do
        MPIX_Win_get_notify(win, idx, &c);
    while (c < n);
    if (c != n)
        fail("%s: counter %d went to %lld, expected %lld", what, idx, (long long)c, (long long)n);
}

static void expect_invalid(int rc, const char *what)
{
    int cls = MPI_SUCCESS, len = 0;
    char msg[MPI_MAX_ERROR_STRING];
    if (rc == MPI_SUCCESS)
        fail("%s: succeeded, expected MPI_ERR_INVALID_NOTIFICATION", what);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_INVALID_NOTIFICATION)
        fail("%s: error class %d, expected MPI_ERR_INVALID_NOTIFICATION (%d)", what, cls,
             MPI_ERR_INVALID_NOTIFICATION);
    MPI_Error_string(rc, msg, &len);
    if (!strstr(msg, "NOTIFICATION"))
        fail("%s: the error string \"%s\" does not name the class", what, msg);
}

/* Notified puts around the ring, contiguous and derived, zero counts and
 * MPI_PROC_NULL, notified gets; every counter checked once all are done. */
static void ring(MPI_Win win, int *buf)
{
    int src[PUTS * BLOCK], strided[8], four[4], got[4], got_vec[4], untouched[BLOCK];
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);

    for (int j = 0; j < PUTS * BLOCK; j++)
        src[j] = value(1, rank, j);
    for (int k = 0; k < PUTS; k++)
        MPIX_Put_notify(src + k * BLOCK, BLOCK, MPI_INT, right, OFF_PUTS + k * BLOCK, BLOCK, MPI_INT, win, 0);
    MPI_Win_flush(right, win);
    wait_count(win, 0, PUTS, "contiguous puts");
    for (int j = 0; j < PUTS * BLOCK; j++)
        want[OFF_PUTS + j] = value(1, left, j);
    check_range(buf, OFF_PUTS, OFF_PUTS + PUTS * BLOCK, "contiguous puts");

    for (int j = 0; j < 8; j++)
        strided[j] = value(2, rank, j);
    for (int j = 0; j < 4; j++)
        four[j] = value(3, rank, j);
    MPIX_Put_notify(strided, 1, vec, right, OFF_VEC_ORIGIN, 4, MPI_INT, win, 1);
    MPIX_Put_notify(four, 4, MPI_INT, right, OFF_VEC_TARGET, 1, vec, win, 1);
    MPI_Win_flush(right, win);
    wait_count(win, 1, 2, "derived puts");
    for (int j = 0; j < 4; j++) {
        want[OFF_VEC_ORIGIN + j] = value(2, left, 2 * j);
        want[OFF_VEC_TARGET + 2 * j] = value(3, left, j);
    }
    check_range(buf, OFF_VEC_ORIGIN, OFF_VEC_TARGET + 7, "derived puts");

    for (int j = 0; j < BLOCK; j++)
        untouched[j] = -1;
    MPIX_Put_notify(NULL, 0, MPI_INT, right, OFF_ZERO, 0, MPI_INT, win, 2);
    MPIX_Put_notify(src, BLOCK, MPI_INT, MPI_PROC_NULL, OFF_ZERO, BLOCK, MPI_INT, win, 2);
    MPIX_Get_notify(untouched, BLOCK, MPI_INT, MPI_PROC_NULL, OFF_GET, BLOCK, MPI_INT, win, 2);
    MPI_Win_flush(right, win);
    wait_count(win, 2, 1, "a put of no data");
    for (int j = 0; j < BLOCK; j++)
        if (untouched[j] != -1)
            fail("a get from MPI_PROC_NULL wrote int %d of its buffer", j);

    MPIX_Get_notify(got, 4, MPI_INT, right, OFF_GET, 4, MPI_INT, win, 3);
    MPIX_Get_notify(got_vec, 4, MPI_INT, right, OFF_GET, 1, vec, win, 3);
    MPI_Win_flush(right, win);
    for (int j = 0; j < 4; j++) {
        if (got[j] != source(right, j))
            fail("notified get: int %d is %d, expected %d", j, got[j], source(right, j));
        if (got_vec[j] != source(right, 2 * j))
            fail("notified get of a strided target: int %d is %d, expected %d", j, got_vec[j],
                 source(right, 2 * j));
    }
    wait_count(win, 3, 2, "notified gets");
    MPI_Type_free(&vec);

    MPI_Barrier(MPI_COMM_WORLD); /* every operation of every rank is done */
    expect_count(win, 0, PUTS, "contiguous puts, all done");
    expect_count(win, 1, 2, "derived puts, all done");
    expect_count(win, 2, 1, "zero counts and MPI_PROC_NULL, all done");
    expect_count(win, 3, 2, "notified gets, all done");
    check_range(buf, 0, words, "the window after the ring");
}

/* Counter 0 reset, then raised by every rank's put to rank 0. */
static void fan_in(MPI_Win win, int *buf)
{
    MPIX_Win_set_notify(win, 0, 0);
    expect_count(win, 0, 0, "reset");
    MPI_Barrier(MPI_COMM_WORLD); /* every reset before any new notification */
    int mine = value(4, rank, 0);
    MPIX_Put_notify(&mine, 1, MPI_INT, 0, OFF_FAN + rank, 1, MPI_INT, win, 0);
    MPI_Win_flush(0, win);
    if (rank == 0) {
        wait_count(win, 0, size, "every rank's put to rank 0");
        for (int r = 0; r < size; r++)
            want[OFF_FAN + r] = value(4, r, 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    expect_count(win, 0, rank == 0 ? size : 0, "after the fan-in");
    check_range(buf, 0, words, "the window after the fan-in");
}

/* Under MPI_ERRORS_RETURN: no counter there, at this rank or the target. */
static void bad_indices(MPI_Win win)
{
    MPI_Count c = 0;
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    expect_invalid(MPIX_Win_get_notify(win, NOTES, &c), "MPIX_Win_get_notify of counter NOTES");
    expect_invalid(MPIX_Win_get_notify(win, -1, &c), "MPIX_Win_get_notify of counter -1");
    expect_invalid(MPIX_Win_set_notify(win, NOTES, 0), "MPIX_Win_set_notify of counter NOTES");
    expect_invalid(MPIX_Put_notify(NULL, 0, MPI_INT, right, OFF_ZERO, 0, MPI_INT, win, -1),
                   "MPIX_Put_notify of counter -1");
    /* a remote target finds it, and the origin's flush says so */
    int rc = MPIX_Put_notify(NULL, 0, MPI_INT, right, OFF_ZERO, 0, MPI_INT, win, NOTES);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(right, win);
    expect_invalid(rc, "MPIX_Put_notify of counter NOTES");
    int got = 0;
    rc = MPIX_Get_notify(&got, 1, MPI_INT, right, OFF_GET, 1, MPI_INT, win, NOTES);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(right, win);
    expect_invalid(rc, "MPIX_Get_notify of counter NOTES");
    expect_invalid(MPIX_Win_create_notify(win, 1), "MPIX_Win_create_notify with counters there");
    MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
    MPI_Barrier(MPI_COMM_WORLD);
    expect_count(win, 2, 1, "after the failed operations");
}

static void fence(MPI_Win win, int *buf)
{
    int block[BLOCK];
    for (int j = 0; j < BLOCK; j++)
        block[j] = value(5, rank, j);
    MPIX_Win_set_notify(win, 0, 0);
    MPI_Win_fence(0, win);
    MPIX_Put_notify(block, BLOCK, MPI_INT, right, off_fence, BLOCK, MPI_INT, win, 0);
    MPI_Win_fence(0, win);
    expect_count(win, 0, 1, "the fence epoch's put");
    for (int j = 0; j < BLOCK; j++)
        want[off_fence + j] = value(5, left, j);
    check_range(buf, 0, words, "the window after the fence epoch");
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
}

static void run(int allocate)
{
    MPI_Aint bytes = (MPI_Aint)(words * sizeof(int));
    int *buf = NULL;
    MPI_Win win;
    for (int i = 0; i < words; i++)
        want[i] = background(rank, i);
    for (int j = 0; j < 8; j++)
        want[OFF_GET + j] = source(rank, j);
    if (allocate) {
        MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
        memcpy(buf, want, (size_t)bytes);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        buf = malloc((size_t)bytes);
        if (!buf)
            fail("out of memory");
        memcpy(buf, want, (size_t)bytes);
        MPI_Win_create(buf, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }

    MPIX_Win_create_notify(win, NOTES);
    for (int idx = 0; idx < NOTES; idx++)
        expect_count(win, idx, 0, "new counters");
    MPI_Barrier(MPI_COMM_WORLD); /* read before any rank notifies */
    MPI_Win_lock_all(0, win);
    ring(win, buf);
    fan_in(win, buf);
    bad_indices(win);
    MPI_Win_unlock_all(win);
    fence(win, buf);

    MPIX_Win_free_notify(win);
    MPI_Count c = 0;
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    expect_invalid(MPIX_Win_get_notify(win, 0, &c), "MPIX_Win_get_notify after MPIX_Win_free_notify");
    MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
    MPIX_Win_create_notify(win, 1); /* again, as new */
    expect_count(win, 0, 0, "counters made again");
    MPIX_Win_free_notify(win);
    MPI_Win_free(&win);
    if (!allocate)
        free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    off_fence = OFF_FAN + size + 1;
    words = off_fence + BLOCK + 1;
    want = malloc((size_t)words * sizeof *want);
    if (!want)
        fail("out of memory");
    run(0);
    run(1);
    free(want);
    if (rank == 0)
        printf("mpi_notify: %d ranks, MPI_Win_create and MPI_Win_allocate windows: ok\n", size);
    MPI_Finalize();
    return 0;
}
