/* mpi_threads_rma.c -- one-sided calls from 2 and 4 threads per process at
 * once (MPI_THREAD_MULTIPLE), each thread flushing its own operations.
 *
 * 1. One window in a lock_all epoch opened by the main thread: every
 *    thread puts its own slice of every rank, flushes, gets it back and
 *    compares; accumulates into a counter every thread of every rank adds
 *    to; takes tickets with MPI_Fetch_and_op and with an
 *    MPI_Compare_and_swap loop and marks each with an accumulate.  After
 *    MPI_Win_unlock_all every rank checks its window: the last data of
 *    every slice, the counter's exact total, every ticket taken exactly
 *    once, and the gaps between slices untouched.
 * 2. One window per thread (allocate, create, allocate_shared, dynamic),
 *    created by the main thread in the same order at every rank; each
 *    thread runs lock_all, put, flush, get, unlock_all on its own window.
 * The host must provide MPI_THREAD_MULTIPLE (Open MPI and MPICH do), else
 * the test fails. */
#include "mpi_test.h"

#include <pthread.h>

#define SLICE 8   /* ints a thread writes at each target */
#define STRIDE 12 /* ints from one slice to the next: 4 never written */
#define ROUNDS 6
#define NTICK 3   /* tickets of each kind a thread takes from each target */
#define MAXT 4

static int nt; /* threads per rank */

/* The value of int i of the slice thread t of rank o puts to target in round it. */
static int data(int o, int t, int it, int target, int i)
{
    return 1 + (((it * 8 + o) * 8 + t) * 8 + target) * SLICE + i;
}

/* Layout of the shared window at each rank, in ints: slices, then the
 * counters (sum, fetch_and_op, compare_and_swap), then the marks of the
 * fetch_and_op tickets and of the compare_and_swap ones. */
static int nslices(void) { return size * nt; }
static int slice_at(int o, int t) { return (o * nt + t) * STRIDE; }
static int c_sum(void) { return nslices() * STRIDE; }
static int c_fao(void) { return c_sum() + 1; }
static int c_cas(void) { return c_sum() + 2; }
static int tickets(void) { return size * nt * NTICK; }
static int seen_fao(int k) { return c_sum() + 3 + k; }
static int seen_cas(int k) { return c_sum() + 3 + tickets() + k; }
/* Rounded up to 64 bytes: MPICH 4.0 puts the ranks' parts of an
 * MPI_Win_allocate window one after the other in one segment, and its
 * MPI_Fetch_and_op reads 12 bytes too early at a rank whose part does not
 * start 16-byte aligned. */
static int nints(void) { return (c_sum() + 3 + 2 * tickets() + 15) / 16 * 16; }

static MPI_Win win;
static int *mem;

static int flushed_fetch(const int *one, int target, int at, MPI_Op op)
{
    int got = -1;
    MPI_Fetch_and_op(one, &got, MPI_INT, target, at, op, win);
    MPI_Win_flush(target, win);
    return got;
}

static void *shared_window(void *arg)
{
    int t = (int)(long)arg, one = 1, add = rank * nt + t + 1;
    int src[SLICE], dst[SLICE];
    for (int it = 0; it < ROUNDS; it++)
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < SLICE; i++) {
                src[i] = data(rank, t, it, r, i);
                dst[i] = 0;
            }
            MPI_Put(src, SLICE, MPI_INT, r, slice_at(rank, t), SLICE, MPI_INT, win);
            MPI_Win_flush(r, win);
            MPI_Get(dst, SLICE, MPI_INT, r, slice_at(rank, t), SLICE, MPI_INT, win);
            MPI_Win_flush(r, win);
            for (int i = 0; i < SLICE; i++)
                expect("get of this thread's slice after its put and flush", i, dst[i], src[i]);
            MPI_Accumulate(&add, 1, MPI_INT, r, c_sum(), 1, MPI_INT, MPI_SUM, win);
        }
    for (int r = 0; r < size; r++)
        for (int k = 0; k < NTICK; k++) {
            int f = flushed_fetch(&one, r, c_fao(), MPI_SUM);
            if (f < 0 || f >= tickets())
                fail("fetch_and_op ticket %d out of 0..%d (target %d, disp %d, nt %d)", f, tickets() - 1, r, c_fao(), nt);
            MPI_Accumulate(&one, 1, MPI_INT, r, seen_fao(f), 1, MPI_INT, MPI_SUM, win);
            int cur = flushed_fetch(&one, r, c_cas(), MPI_NO_OP);
            for (long tries = 0;; tries++) {
                int next = cur + 1, got = -1;
                if (cur < 0 || cur >= tickets() || tries > 1000000)
                    fail("compare_and_swap counter %d after %ld tries", cur, tries);
                MPI_Compare_and_swap(&next, &cur, &got, MPI_INT, r, c_cas(), win);
                MPI_Win_flush(r, win);
                if (got == cur)
                    break;
                cur = got;
            }
            MPI_Accumulate(&one, 1, MPI_INT, r, seen_cas(cur), 1, MPI_INT, MPI_SUM, win);
        }
    MPI_Win_flush_all(win);
    return NULL;
}

static void run_threads(void *(*fn)(void *))
{
    pthread_t tid[MAXT];
    for (long t = 0; t < nt; t++)
        if (pthread_create(&tid[t], NULL, fn, (void *)t))
            fail("pthread_create");
    for (int t = 0; t < nt; t++)
        pthread_join(tid[t], NULL);
}

static void part1(void)
{
    int n = nints();
    MPI_Win_allocate((MPI_Aint)n * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    fill_bg_int(mem, (size_t)n, rank);
    for (int i = c_sum(); i < seen_cas(tickets()); i++)
        mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    run_threads(shared_window);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    MPI_Win_sync(win);
    int sum = 0;
    for (int o = 0; o < size; o++)
        for (int t = 0; t < nt; t++) {
            int at = slice_at(o, t);
            sum += o * nt + t + 1;
            for (int i = 0; i < SLICE; i++)
                expect("slice at the end", at + i, mem[at + i], data(o, t, ROUNDS - 1, rank, i));
            for (int i = SLICE; i < STRIDE; i++)
                expect("gap after a slice", at + i, mem[at + i], bg(rank, at + i));
        }
    expect("counter of every thread's accumulates", c_sum(), mem[c_sum()], ROUNDS * sum);
    expect("fetch_and_op counter", c_fao(), mem[c_fao()], tickets());
    expect("compare_and_swap counter", c_cas(), mem[c_cas()], tickets());
    for (int k = 0; k < tickets(); k++) {
        expect("takers of a fetch_and_op ticket", k, mem[seen_fao(k)], 1);
        expect("takers of a compare_and_swap ticket", k, mem[seen_cas(k)], 1);
    }
    for (int i = seen_cas(tickets()); i < n; i++)
        expect("padding at the end", i, mem[i], bg(rank, i));
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

/* Part 2: thread t alone on window wins[t]. */
static struct mt_win wins[MAXT];

static void *own_window(void *arg)
{
    int t = (int)(long)arg;
    struct mt_win *w = &wins[t];
    int src[SLICE], dst[SLICE];
    for (int it = 0; it < ROUNDS; it++) {
        MPI_Win_lock_all(0, w->win);
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < SLICE; i++) {
                src[i] = data(rank, t, it, r, i);
                dst[i] = 0;
            }
            MPI_Put(src, SLICE, MPI_INT, r, mt_disp(w, r, rank * STRIDE), SLICE, MPI_INT, w->win);
            MPI_Win_flush(r, w->win);
            MPI_Get(dst, SLICE, MPI_INT, r, mt_disp(w, r, rank * STRIDE), SLICE, MPI_INT, w->win);
            MPI_Win_flush(r, w->win);
            for (int i = 0; i < SLICE; i++)
                expect(mt_flavor_name[w->flavor], i, dst[i], src[i]);
        }
        MPI_Win_unlock_all(w->win);
    }
    return NULL;
}

static void part2(void)
{
    int n = size * STRIDE; /* one slice per rank */
    for (int t = 0; t < nt; t++) {
        mt_win_open(&wins[t], (enum mt_flavor)(t % MT_FLAVORS), (size_t)n * sizeof(int), sizeof(int));
        fill_bg_int(wins[t].base, (size_t)n, rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    run_threads(own_window);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int t = 0; t < nt; t++) {
        struct mt_win *w = &wins[t];
        int *m = w->base;
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
        MPI_Win_sync(w->win);
        for (int o = 0; o < size; o++)
            for (int i = 0; i < STRIDE; i++) {
                int at = o * STRIDE + i;
                expect(mt_flavor_name[w->flavor], at, m[at], i < SLICE ? data(o, t, ROUNDS - 1, rank, i) : bg(rank, at));
            }
        MPI_Win_unlock(rank, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int t = 0; t < nt; t++)
        mt_win_close(&wins[t]);
}

int main(int argc, char **argv)
{
    int provided = -1;
    mt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE)
        fail("MPI_Init_thread(MPI_THREAD_MULTIPLE) gave thread level %d: this test needs MPI_THREAD_MULTIPLE",
             provided);
    if (size > 8)
        fail("at most 8 ranks");
    for (nt = 2; nt <= MAXT; nt += 2) {
        part1();
        part2();
        if (rank == 0)
            printf("mpi_threads_rma: %d threads per rank, %d ranks: ok\n", nt, size);
    }
    mt_finalize();
    return 0;
}
