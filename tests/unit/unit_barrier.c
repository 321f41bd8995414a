/* unit_barrier.c -- the dissemination barrier and the futex wait, across
 * forked processes (1 to 5, more than the cores): after barrier i no process
 * may see another still before it, and nobody may pass early. */
#include "check.h"
#include "forked.h"
#include "shm_barrier.h"
#include "util_config.h"
#include "util_time.h"
#include "util_wait.h"

#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 2000

struct run_args {
    char *mem;
    _Atomic uint32_t *progress;
    int n;
};

static int run_child(int r, void *arg)
{
    struct run_args *a = arg;
    uint32_t episode = 0;
    for (uint32_t i = 1; i <= ROUNDS; i++) {
        atomic_store(&a->progress[r * 16], i);
        shm_barrier_wait(a->mem, a->n, r, &episode);
        for (int q = 0; q < a->n; q++) {
            uint32_t p = atomic_load(&a->progress[q * 16]);
            if (p < i || p > i + 1)
                return 3; /* somebody behind, or two ahead */
        }
        shm_barrier_wait(a->mem, a->n, r, &episode);
    }
    return 0;
}

static int run(int n)
{
    size_t bsize = shm_barrier_size(n);
    char *mem = mmap(NULL, bsize + 64 * 8, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(mem != MAP_FAILED);
    struct run_args a = {mem, (_Atomic uint32_t *)(mem + bsize), n};
    int ok = forked_all(n, run_child, &a);
    munmap(mem, bsize + 64 * 8);
    return ok;
}

int main(void)
{
    util_config_load();
    for (int n = 1; n <= 5; n++)
        CHECK(run(n));

    /* a waiter that sleeps in the kernel is woken by the store, promptly */
    struct util_waitword *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(w != MAP_FAILED);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        usleep(200000);
        util_wake_store(w, 5);
        _exit(0);
    }
    uint64_t t0 = util_time_ns();
    util_wait_geq(w, 5);
    uint64_t waited = util_time_ns() - t0;
    CHECK(atomic_load(&w->value) == 5);
    CHECK(waited >= 150000000 && waited < 2000000000);
    int st;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(atomic_load(&w->sleepers) == 0);
    return 0;
}
