/* mpi_race.c -- one bug of one-sided communication per run, in a plain MPI
 * program, for orma's race checker (ORMA_CHECK=race) through liborma-mpi:
 *   mpi_race orma CASE
 * Each case is its bug alone, inside a function bug_CASE, built with debug
 * information; mpi_race.sh runs it and checks that exactly one report
 * line comes out, of the case's kind, naming the ranks of the two calls
 * and their sites in bug_CASE: this program's calls of MPI_Put etc., not
 * liborma-mpi's of orma_put.  Each call a report should name carries the
 * comment "race: CASE" on its line, where mpi_race.sh finds the line
 * (built without optimization: -O2 made one call instruction of
 * bug_acc_ops's two MPI_Accumulate calls, both sites then the second's).
 * The reports do not stop the job (ORMA_CHECK_ABORT unset): the program
 * ends as any other, exit status 0.
 *
 * Cases (T is the last rank, which is also an origin with 2 ranks):
 *   fence_puts      ranks 0 and 1 put ints [0, 4) and [2, 4) of T in one fence epoch
 *   acc_ops         ranks 0 and 1 accumulate into int 1 of T under MPI_Win_lock_all,
 *                   with MPI_SUM and MPI_MAX, both before any flush
 *   put_get         rank 0 puts ints [0, 2) of T and gets [1, 3) in one lock epoch,
 *                   with no flush between
 *   origin_changed  rank 0 puts 4 ints to T and writes its origin buffer before
 *                   MPI_Win_flush
 *   outside         rank 0 puts 8 bytes at 12 of T's 16-byte window (MPI_Win_create
 *                   over malloc'd memory, MPI_ERRORS_RETURN on it)
 *   rput_changed    rank 0 puts 4 ints to T with MPI_Rput and writes its origin buffer
 *                   before MPI_Wait (the request is liborma-mpi's, found at the wait)
 *   private_store   rank 0 puts 2 ints to T's window over 64 malloc'd bytes
 *                   (MPI_Win_create: private memory, whose small puts orma otherwise
 *                   gathers until the closing fence, after the store), a barrier, then
 *                   T stores into one of them before the closing MPI_Win_fence
 * The ranks past the second take part in the windows' creation and
 * synchronization only. */
#include "mpi_test.h"

#define NOINLINE __attribute__((noinline))

/* external, so that every symbol table names them */
void bug_fence_puts(void);
void bug_acc_ops(void);
void bug_put_get(void);
void bug_origin_changed(void);
void bug_outside(void);
void bug_rput_changed(void);
void bug_private_store(void);

/* An allocated window of n ints per rank, zeroed, and its memory. */
static MPI_Win ints_window(int n, int **base_p)
{
    MPI_Win win;
    if (n < 64) /* MPICH 4.0.2 alone misplaces puts and accumulates into allocated windows of a few bytes */
        n = 64;
    if (MPI_Win_allocate((MPI_Aint)n * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, base_p,
                         &win) != MPI_SUCCESS)
        fail("MPI_Win_allocate");
    memset(*base_p, 0, (size_t)n * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    return win;
}

NOINLINE void bug_fence_puts(void)
{
    int *base, src[4] = {1, 2, 3, 4}, t = size - 1;
    MPI_Win win = ints_window(8, &base);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(src, 4, MPI_INT, t, 0, 4, MPI_INT, win); /* race: fence_puts */
    else if (rank == 1)
        MPI_Put(src, 2, MPI_INT, t, 2, 2, MPI_INT, win); /* race: fence_puts */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

NOINLINE void bug_acc_ops(void)
{
    int *base, v = rank + 1, t = size - 1;
    MPI_Win win = ints_window(4, &base);
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, t, 1, 1, MPI_INT, MPI_SUM, win); /* race: acc_ops */
    else if (rank == 1)
        MPI_Accumulate(&v, 1, MPI_INT, t, 1, 1, MPI_INT, MPI_MAX, win); /* race: acc_ops */
    MPI_Barrier(MPI_COMM_WORLD); /* both issued, neither flushed */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
}

NOINLINE void bug_put_get(void)
{
    int *base, src[2] = {5, 6}, dst[2] = {0, 0}, t = size - 1;
    MPI_Win win = ints_window(4, &base);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win);
        MPI_Put(src, 2, MPI_INT, t, 0, 2, MPI_INT, win); /* race: put_get */
        MPI_Get(dst, 2, MPI_INT, t, 1, 2, MPI_INT, win); /* race: put_get */
        MPI_Win_unlock(t, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

NOINLINE void bug_origin_changed(void)
{
    int *base, src[4] = {7, 8, 9, 10}, t = size - 1;
    MPI_Win win = ints_window(4, &base);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win);
        MPI_Put(src, 4, MPI_INT, t, 0, 4, MPI_INT, win); /* race: origin_changed */
        *(volatile int *)&src[2] = 99; /* before the put is complete */
        MPI_Win_flush(t, win); /* race: origin_changed */
        MPI_Win_unlock(t, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

NOINLINE void bug_outside(void)
{
    /* the window is 16 bytes in the middle of 256: a put carried out past
     * its end lands in this rank's own slack, never in the heap's */
    char *mem = calloc(256, 1), src[8] = "outside";
    int t = size - 1;
    MPI_Win win;
    if (!mem || MPI_Win_create(mem + 64, 16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win) != MPI_SUCCESS)
        fail("MPI_Win_create");
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    if (rank == 0)
        (void)MPI_Put(src, 8, MPI_BYTE, t, 12, 8, MPI_BYTE, win); /* race: outside */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    free(mem);
}

NOINLINE void bug_rput_changed(void)
{
    int *base, src[4] = {11, 12, 13, 14}, t = size - 1;
    MPI_Win win = ints_window(4, &base);
    if (rank == 0) {
        MPI_Request req;
        MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win);
        MPI_Rput(src, 4, MPI_INT, t, 0, 4, MPI_INT, win, &req); /* race: rput_changed */
        *(volatile int *)&src[2] = 99; /* before the request completed */
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* race: rput_changed */
        MPI_Win_unlock(t, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

NOINLINE void bug_private_store(void)
{
    int *mem = calloc(16, sizeof(int)), src[2] = {21, 22}, t = size - 1;
    MPI_Win win;
    if (!mem || MPI_Win_create(mem, 16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win) != MPI_SUCCESS)
        fail("MPI_Win_create");
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(src, 2, MPI_INT, t, 4, 2, MPI_INT, win); /* race: private_store */
    MPI_Barrier(MPI_COMM_WORLD); /* the put is issued */
    if (rank == t)
        *(volatile int *)&mem[5] = 7; /* a store into the put's bytes, inside the epoch */
    MPI_Win_fence(0, win); /* race: private_store */
    MPI_Win_free(&win);
    free(mem);
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    {"fence_puts", bug_fence_puts}, {"acc_ops", bug_acc_ops},   {"put_get", bug_put_get},
    {"origin_changed", bug_origin_changed}, {"outside", bug_outside}, {"rput_changed", bug_rput_changed},
    {"private_store", bug_private_store},
};

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (size < 2)
        fail("needs 2 ranks or more");
    if (argc < 3)
        fail("usage: mpi_race host|orma CASE");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(argv[2], cases[i].name)) {
            cases[i].run();
            mt_finalize();
            return 0;
        }
    fail("no case %s", argv[2]);
}
