/* nt_sleep.c -- a waiter asleep in the kernel is woken by the raise it
 * waits for.
 *
 * Registered with ORMA_SLEEP_US=8000000: a waiting rank's longest single
 * sleep is 8 s instead of 1 ms, so a raise that failed to wake a sleeper
 * would cost seconds instead of a millisecond, and shows.  A thread of
 * each rank raises its right neighbour's counters with notified operations
 * of no data, each after DELAY_MS outside orma -- long enough for a waiter
 * to have spun, yielded and gone to sleep -- while another waits on its
 * own: orma_notify_wait, orma_notify_waitany (the counter raised is
 * the second), orma_notify_waitall (raised one after the other).  Then two
 * threads wait at once on two counters raised one after the other: the
 * first raise wakes both, the second must wake the one that slept again.
 * Every wait must end within SLACK_S of the raises it waits for. */
#include "nt_test.h"
#include "thr_test.h"

enum { ROUNDS = 4, DELAY_MS = 20 };
enum { C_ONE, C_NEVER, C_ANY, C_ALL1, C_ALL2, C_T0, C_T1, NCTR };
#define SLACK_S 2.5

static int rank, nranks, rt;
static orma_win win;

static void raise_after_delay(int id)
{
    st_sleep_ms(DELAY_MS);
    CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, rt, 0, 0, ORMA_BYTE, win, id, ORMA_NOTIFY_ADD, 1));
    CHECK_OK(orma_win_flush(rt, win));
}

/* A wait that began at t0 for raises nraises delays after it. */
static void expect_soon(double t0, int nraises, const char *what, int round)
{
    double took = orma_wtime() - t0, allowed = nraises * DELAY_MS / 1000.0 + SLACK_S;
    if (took > allowed) {
        fprintf(stderr, "rank %d: round %d: %s took %.3f s, more than %.3f: a sleeping waiter was not woken\n",
                rank, round, what, took, allowed);
        exit(1);
    }
}

/* Thread 0 waits, thread 1 raises. */
static void wait_and_raise(struct thr_team *team, int t)
{
    if (t == 0) {
        int any[2] = {C_NEVER, C_ANY}, all[2] = {C_ALL1, C_ALL2};
        for (int r = 0; r < ROUNDS; r++) {
            uint64_t v = (uint64_t)r + 1, vals[2] = {v, v};
            size_t index = 9;
            double t0 = orma_wtime();
            CHECK_OK(orma_notify_wait(win, C_ONE, v));
            expect_soon(t0, 1, "orma_notify_wait", r);
            t0 = orma_wtime();
            CHECK_OK(orma_notify_waitany(win, 2, any, vals, &index));
            CHECK(index == 1);
            expect_soon(t0, 1, "orma_notify_waitany", r);
            t0 = orma_wtime();
            CHECK_OK(orma_notify_waitall(win, 2, all, vals));
            expect_soon(t0, 2, "orma_notify_waitall", r);
        }
        return;
    }
    (void)team;
    for (int r = 0; r < ROUNDS; r++) {
        raise_after_delay(C_ONE);
        raise_after_delay(C_ANY);
        raise_after_delay(C_ALL1);
        raise_after_delay(C_ALL2);
    }
}

/* Threads 0 and 1 wait on C_T0 and C_T1; thread 2 raises them in turn. */
static void sleepers(struct thr_team *team, int t)
{
    for (int r = 0; r < ROUNDS; r++) {
        thr_sync(team);
        if (t < 2) {
            double t0 = orma_wtime();
            CHECK_OK(orma_notify_wait(win, t == 0 ? C_T0 : C_T1, (uint64_t)r + 1));
            expect_soon(t0, t + 1, t == 0 ? "the first of two sleeping threads" : "the second of two sleeping threads",
                        r);
        } else {
            raise_after_delay(C_T0);
            raise_after_delay(C_T1);
        }
    }
}

int main(int argc, char **argv)
{
    struct st_win w;
    (void)argc;
    (void)argv;
    thr_init(&rank, &nranks);
    rt = (rank + 1) % nranks;
    nt_win_open(&w, ST_ALLOCATE, 64, NCTR, 1);
    win = w.win;
    CHECK_OK(orma_win_lock_all(0, win));
    nt_step("one thread waiting, another raising");
    thr_run(2, wait_and_raise, NULL);
    nt_step("two threads waiting, a third raising");
    thr_run(3, sleepers, NULL);
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier());
    uint64_t want[NCTR] = {ROUNDS, 0, ROUNDS, ROUNDS, ROUNDS, ROUNDS, ROUNDS};
    nt_expect_counters(win, NCTR, want, "counters after the waits");
    st_win_close(&w);
    nt_finish("nt_sleep");
    return 0;
}
