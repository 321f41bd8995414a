/* mpi_bigcount.c -- MPI 4.0's large-count one-sided calls (the _c forms),
 * built only against a host whose mpi.h declares them.
 *
 * Each _c call on small windows, every value checked: Win_create_c,
 * Win_allocate_c, Win_allocate_shared_c with Win_shared_query_c; Put_c,
 * Get_c, Accumulate_c, Get_accumulate_c and the request forms.  Then
 * transfers past INT_MAX bytes, rank 0 to rank 1, from rank 0's window
 * (its memory is the origin) into rank 1's window of 2 GiB + 2 MiB:
 *   Put_c of 2^31 + 16 MPI_BYTEs (a count past INT_MAX),
 *   Put of 2049 elements of a contiguous 1 MiB type (an int count whose
 *     bytes pass INT_MAX),
 * every byte of the target checked; and the errors orma must give rather
 * than truncate a count: Put_c of 2^31 + 16 bytes ending past the window
 * (MPI_ERR_RMA_RANGE, the window unchanged), counts whose bytes overflow
 * size_t and negative ones (MPI_ERR_COUNT), a displacement unit past
 * INT_MAX (orma's are ints: MPI_ERR_ARG).  Host departures, run with
 * liborma-mpi only: MPICH 4.0 alone moves nothing on the Put_c of 2^31 +
 * 16 bytes (and returns success), does not detect puts past a window
 * (they would write past it), and takes any unit. */
#include "mpi_test.h"

#include <limits.h>
#include <stdint.h>

#if MPI_VERSION < 4
#error "mpi_bigcount needs MPI 4.0's large-count calls"
#endif

#define N 64

static void want_class(const char *what, int rc, int cls)
{
    int got = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &got);
    if (got != cls)
        fail("%s: error class %d, expected %d", what, got, cls);
}

/* The small windows: every _c call once, under fence or lock_all. */
static void small_calls(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *mem = malloc(N * sizeof *mem), *amem = NULL, *smem = NULL;
    if (!mem)
        fail("malloc");
    MPI_Win cwin, awin, swin;
    fill_bg_int(mem, N, rank);
    MPI_Win_create_c(mem, N * sizeof(int), (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cwin);
    MPI_Win_allocate_c(N * sizeof(int), (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &amem, &awin);
    MPI_Win_allocate_shared_c(N * sizeof(int), (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &smem, &swin);
    fill_bg_int(amem, N, rank);
    fill_bg_int(smem, N, rank);

    MPI_Aint qsize = 0, qunit = 0;
    int *theirs = NULL;
    MPI_Win_shared_query_c(swin, right, &qsize, &qunit, &theirs);
    expect("MPI_Win_shared_query_c: size", right, qsize, N * (long long)sizeof(int));
    expect("MPI_Win_shared_query_c: disp_unit", right, qunit, sizeof(int));

    int src[4], got[4 + 2], add[2], old[2 + 2];
    for (int i = 0; i < 4; i++)
        src[i] = 1000 * (rank + 1) + i;
    add[0] = rank + 1, add[1] = 10 * (rank + 1);
    for (int i = 0; i < 6; i++)
        got[i] = -7;
    for (int i = 0; i < 4; i++)
        old[i] = -7;

    /* fence: put, get, accumulate */
    MPI_Win_fence(0, cwin);
    MPI_Put_c(src, 4, MPI_INT, right, 4, 4, MPI_INT, cwin);
    MPI_Get_c(got + 1, 4, MPI_INT, left, 0, 4, MPI_INT, cwin);
    for (int r = 0; r < size; r++)
        MPI_Accumulate_c(add, 2, MPI_INT, r, 10, 2, MPI_INT, MPI_SUM, cwin);
    MPI_Win_fence(0, cwin);
    for (int i = 0; i < 4; i++)
        expect("MPI_Get_c", i, got[1 + i], bg(left, i));
    expect("MPI_Get_c: the element before", -1, got[0], -7);
    expect("MPI_Get_c: the element after", 4, got[5], -7);

    /* lock_all: get_accumulate and the request forms */
    MPI_Request req[4];
    int rsrc[2] = {2000 * (rank + 1), 2000 * (rank + 1) + 1}, rgot[2] = {-7, -7};
    MPI_Win_lock_all(0, awin);
    MPI_Get_accumulate_c(add, 2, MPI_INT, old + 1, 2, MPI_INT, right, 20, 2, MPI_INT, MPI_SUM, awin);
    MPI_Win_flush(right, awin);
    expect("MPI_Get_accumulate_c: old value", 20, old[1], bg(right, 20));
    expect("MPI_Get_accumulate_c: old value", 21, old[2], bg(right, 21));
    expect("MPI_Get_accumulate_c: the element before", 0, old[0], -7);
    expect("MPI_Get_accumulate_c: the element after", 3, old[3], -7);
    MPI_Rput_c(rsrc, 2, MPI_INT, right, 30, 2, MPI_INT, awin, &req[0]);
    MPI_Rget_c(rgot, 2, MPI_INT, left, 40, 2, MPI_INT, awin, &req[1]);
    MPI_Raccumulate_c(add, 2, MPI_INT, right, 50, 2, MPI_INT, MPI_SUM, awin, &req[2]);
    int rold[2] = {-7, -7};
    MPI_Rget_accumulate_c(add, 2, MPI_INT, rold, 2, MPI_INT, left, 60, 2, MPI_INT, MPI_SUM, awin, &req[3]);
    MPI_Status st[4]; /* not MPI_STATUSES_IGNORE: MPICH's is a pointer GCC's access checks flag */
    MPI_Waitall(4, req, st);
    MPI_Win_unlock_all(awin);
    expect("MPI_Rget_c", 40, rgot[0], bg(left, 40));
    expect("MPI_Rget_c", 41, rgot[1], bg(left, 41));
    expect("MPI_Rget_accumulate_c: old value", 60, rold[0], bg(left, 60));
    expect("MPI_Rget_accumulate_c: old value", 61, rold[1], bg(left, 61));
    MPI_Barrier(MPI_COMM_WORLD);

    /* shared memory: a load of the right's, seen through shared_query_c */
    MPI_Win_lock_all(0, swin);
    MPI_Win_sync(swin);
    for (int i = 0; i < N; i++)
        expect("a load through MPI_Win_shared_query_c", i, theirs[i], bg(right, i));
    MPI_Win_unlock_all(swin);

    /* every element of this rank's windows */
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, cwin);
    for (int i = 0; i < N; i++) {
        long long want = bg(rank, i);
        if (i >= 4 && i < 8)
            want = 1000 * (left + 1) + i - 4;
        else if (i == 10 || i == 11)
            want += (i == 10 ? 1 : 10) * (long long)size * (size + 1) / 2;
        expect("the MPI_Win_create_c window", i, mem[i], want);
    }
    MPI_Win_unlock(rank, cwin);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, awin);
    for (int i = 0; i < N; i++) {
        long long want = bg(rank, i);
        if (i == 20 || i == 21 || i == 50 || i == 51) /* get_accumulate and raccumulate from the left */
            want += i % 2 ? 10 * (left + 1) : left + 1;
        else if (i == 30 || i == 31)
            want = 2000 * (left + 1) + i - 30;
        else if (i == 60 || i == 61) /* rget_accumulate from the right */
            want += i % 2 ? 10 * (right + 1) : right + 1;
        expect("the MPI_Win_allocate_c window", i, amem[i], want);
    }
    MPI_Win_unlock(rank, awin);
    MPI_Win_free(&cwin);
    MPI_Win_free(&awin);
    MPI_Win_free(&swin);
    free(mem);
}

/* The big transfers move 8-byte words of a pattern with every word
 * distinct (an odd multiplier is a bijection), so that a shifted or
 * truncated copy shows; their displacements and lengths are multiples of
 * 8 bytes. */
static inline uint64_t pattern(size_t word) { return (word + 1) * UINT64_C(0x9e3779b97f4a7c15); }

#define BIG_TYPE ((size_t)1 << 20)                  /* a contiguous type of 1 MiB */
#define BIG_WIN (((size_t)1 << 31) + 2 * BIG_TYPE) /* bytes: 2 GiB + 2 MiB */
#define BIG_COUNT (((MPI_Count)1 << 31) + 16)      /* bytes: past INT_MAX */
#define BIG_BG UINT64_C(0xa5a5a5a5a5a5a5a5)

/* Rank 1's window after a put of n bytes of the pattern at disp. */
static void big_check(const uint64_t *mem, size_t disp, size_t n, const char *what)
{
    size_t lo = disp / 8, hi = (disp + n) / 8;
    for (size_t i = 0; i < BIG_WIN / 8; i++) {
        uint64_t want = i >= lo && i < hi ? pattern(i - lo) : BIG_BG;
        if (mem[i] != want)
            fail("%s: bytes %zu..%zu are 0x%016llx, expected 0x%016llx", what, 8 * i, 8 * i + 7,
                 (unsigned long long)mem[i], (unsigned long long)want);
    }
}

static void big_transfers(void)
{
    uint64_t *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate_c((MPI_Aint)BIG_WIN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (size_t i = 0; i < BIG_WIN / 8; i++)
        mem[i] = rank == 0 ? pattern(i) : BIG_BG;

    /* A count past INT_MAX.  MPICH 4.0 alone moves nothing here (and
     * returns success): liborma-mpi's runs only. */
    if (mt_orma) {
        MPI_Win_fence(0, win);
        if (rank == 0)
            want_class("MPI_Put_c of 2^31 + 16 bytes",
                       MPI_Put_c(mem, BIG_COUNT, MPI_BYTE, 1, 8, BIG_COUNT, MPI_BYTE, win), MPI_SUCCESS);
        MPI_Win_fence(0, win);
        if (rank == 1)
            big_check(mem, 8, (size_t)BIG_COUNT, "MPI_Put_c of 2^31 + 16 bytes");
    }

    /* an int count of a type whose bytes pass INT_MAX */
    MPI_Datatype mib;
    MPI_Type_contiguous((int)BIG_TYPE, MPI_BYTE, &mib);
    MPI_Type_commit(&mib);
    MPI_Win_fence(0, win);
    if (rank == 0)
        want_class("MPI_Put of 2049 MiB", MPI_Put(mem, 2049, mib, 1, 0, 2049, mib, win), MPI_SUCCESS);
    MPI_Win_fence(0, win);
    if (rank == 1)
        big_check(mem, 0, 2049 * BIG_TYPE, "MPI_Put of 2049 MiB");
    MPI_Type_free(&mib);

    /* errors, not truncations (MPICH alone writes past the window) */
    if (mt_orma) {
        MPI_Win_lock_all(0, win);
        if (rank == 0) {
            size_t disp = BIG_WIN - (size_t)BIG_COUNT + 1; /* one byte past the end */
            want_class("MPI_Put_c of 2^31 + 16 bytes ending past the window",
                       MPI_Put_c(mem, BIG_COUNT, MPI_BYTE, 1, (MPI_Aint)disp, BIG_COUNT, MPI_BYTE, win),
                       MPI_ERR_RMA_RANGE);
            MPI_Count huge = (MPI_Count)1 << 62; /* 2^64 bytes of ints */
            want_class("MPI_Put_c of 2^62 ints", MPI_Put_c(mem, huge, MPI_INT, 1, 0, huge, MPI_INT, win),
                       MPI_ERR_COUNT);
            want_class("MPI_Get_c of 2^62 ints", MPI_Get_c(mem, huge, MPI_INT, 1, 0, huge, MPI_INT, win),
                       MPI_ERR_COUNT);
            want_class("MPI_Accumulate_c of 2^62 ints",
                       MPI_Accumulate_c(mem, huge, MPI_INT, 1, 0, huge, MPI_INT, MPI_SUM, win), MPI_ERR_COUNT);
            want_class("MPI_Put_c of count -1", MPI_Put_c(mem, -1, MPI_BYTE, 1, 0, -1, MPI_BYTE, win),
                       MPI_ERR_COUNT);
            want_class("MPI_Put_c of count -2^40",
                       MPI_Put_c(mem, -((MPI_Count)1 << 40), MPI_BYTE, 1, 0, 1, MPI_BYTE, win), MPI_ERR_COUNT);
        }
        MPI_Win_unlock_all(win);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1)
            big_check(mem, 0, 2049 * BIG_TYPE, "the window after refused puts");

        MPI_Win bad = MPI_WIN_NULL;
        int one = 0;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        want_class("MPI_Win_create_c with a displacement unit of 2^31",
                   MPI_Win_create_c(&one, sizeof one, (MPI_Aint)1 << 31, MPI_INFO_NULL, MPI_COMM_WORLD, &bad),
                   MPI_ERR_ARG);
        if (bad != MPI_WIN_NULL)
            fail("MPI_Win_create_c with a displacement unit of 2^31 gave a window");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    small_calls();
    big_transfers();
    mt_finalize();
    return 0;
}
