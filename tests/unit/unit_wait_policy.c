/* unit_wait_policy.c -- how a waiter chooses between polling, yielding and
 * sleeping (util_wait.h), on one CPU this process pins itself to:
 *
 * - past ORMA_SPIN polls it yields, noting its CPU among the ranks' and
 *   whether another rank last waited on it (looking again every 64
 *   yields);
 * - yields that hand the core to busy loops for over 200 us, 8 of 16,
 *   mark the process contended -- only yields beside another rank on this CPU;
 *   a waiter beside such a rank then goes from polling to sleeping;
 * - waits that sleep every time still see every store: the dissemination
 *   barrier of 3 ranks on this one CPU, beside the busy loops. */
#include "check.h"
#include "forked.h"
#include "shm_barrier.h"
#include "util_config.h"
#include "util_time.h"
#include "util_wait.h"

#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPIN 4
#define ROUNDS 300
#define BUSY 3

/* Relaxes until the backoff leaves phase 0 or calls polls were made past
 * its spin; returns the phase it is in. */
static uint32_t phase_after(struct util_backoff *b, int calls)
{
    for (int i = 0; i < SPIN + calls && b->phase == 0; i++)
        if (!util_backoff_relax(b))
            break;
    return b->phase;
}

struct barrier_args {
    char *mem;
    _Atomic uint32_t *cpus;
};

static int barrier_child(int r, void *arg)
{
    struct barrier_args *a = arg;
    util_wait_share_cpus(a->cpus, 3, r);
    uint32_t episode = 0;
    for (int i = 0; i < ROUNDS; i++)
        shm_barrier_wait(a->mem, 3, r, &episode);
    return 0;
}

static int barrier_rounds(void)
{
    size_t bsize = shm_barrier_size(3);
    char *mem = mmap(NULL, bsize + 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(mem != MAP_FAILED);
    struct barrier_args a = {mem, (_Atomic uint32_t *)(mem + bsize)};
    int ok = forked_all(3, barrier_child, &a);
    munmap(mem, bsize + 64);
    return ok;
}

int main(void)
{
    util_config_load();
    util_config.spin = SPIN;
    util_config.yield_us = 60u * 1000000u; /* no budget runs out here */
    int cpu = sched_getcpu();
    CHECK(cpu >= 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);

    /* without the ranks' CPUs: yields after the polls, beside nobody */
    struct util_backoff b = {0};
    CHECK(phase_after(&b, 1) == 1 && !b.shared);

    _Atomic uint32_t cpus[3] = {0, 0, 0};
    util_wait_share_cpus(cpus, 3, 1);
    CHECK(atomic_load(&cpus[1]) == (uint32_t)cpu + 1);
    /* alone on this CPU: yields, and notes its CPU */
    atomic_store(&cpus[1], 0);
    b = (struct util_backoff){0};
    CHECK(phase_after(&b, 1) == 1 && !b.shared);
    CHECK(atomic_load(&cpus[1]) == (uint32_t)cpu + 1);
    /* another rank last waited here: beside it */
    atomic_store(&cpus[2], (uint32_t)cpu + 1);
    b = (struct util_backoff){0};
    CHECK(phase_after(&b, 1) == 1 && b.shared);
    /* it moves while this one yields: seen within 64 yields */
    atomic_store(&cpus[2], (uint32_t)cpu + 2);
    for (int i = 0; i < 64; i++)
        CHECK(util_backoff_relax(&b));
    CHECK(b.phase == 1 && !b.shared);

    /* busy loops on this CPU (another job's, as orma-bench --contend starts
     * them): a yield hands one of them the core, for a time slice */
    pid_t busy[BUSY];
    for (int i = 0; i < BUSY; i++) {
        busy[i] = fork();
        CHECK(busy[i] >= 0);
        if (busy[i] == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            for (volatile unsigned long x = 0;; x++)
                ;
        }
    }
    /* beside nobody, lost yields are not held against the machine */
    b = (struct util_backoff){0};
    for (int i = 0; i < SPIN + 40; i++)
        CHECK(util_backoff_relax(&b));
    CHECK(!b.shared && !util_wait_contended());
    /* beside a rank on this CPU, they are */
    atomic_store(&cpus[2], (uint32_t)cpu + 1);
    uint64_t deadline = util_time_ns() + UINT64_C(5000000000);
    b = (struct util_backoff){0};
    while (!util_wait_contended() && util_time_ns() < deadline)
        if (!util_backoff_relax(&b))
            b = (struct util_backoff){0}; /* a budget ran out: again */
    CHECK(util_wait_contended());
    /* contended, beside it: from the polls straight to sleeping */
    b = (struct util_backoff){0};
    CHECK(phase_after(&b, 1) == 2);

    /* 3 ranks on this CPU, contended: every wait sleeps, and each round of
     * the barrier still completes, with the busy loops running beside them */
    CHECK(barrier_rounds());

    for (int i = 0; i < BUSY; i++) {
        kill(busy[i], SIGKILL);
        int st;
        CHECK(waitpid(busy[i], &st, 0) == busy[i]);
    }
    return 0;
}
