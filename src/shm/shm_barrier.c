#include "shm_barrier.h"
#include "util_wait.h"

#include <string.h>

struct shm_barrier_flag {
    struct util_waitword word; /* writer: the rank owning the flag */
    char pad[64 - sizeof(struct util_waitword)];
};

static int shm_barrier_rounds(int n)
{
    int rounds = 0;
    while ((1 << rounds) < n)
        rounds++;
    return rounds;
}

size_t shm_barrier_size(int n)
{
    return (size_t)n * (size_t)shm_barrier_rounds(n) * sizeof(struct shm_barrier_flag);
}

void shm_barrier_wait(void *mem, int n, int rank, uint32_t *episode_p)
{
    uint32_t episode = ++*episode_p;
    int rounds = shm_barrier_rounds(n);
    struct shm_barrier_flag *flags = mem;
    for (int k = 0; k < rounds; k++) {
        int from = (rank - (1 << k) % n + n) % n;
        util_wake_store(&flags[rank * rounds + k].word, episode);
        util_wait_geq(&flags[from * rounds + k].word, episode);
    }
}

void shm_allgather(void *mem, char *slots, size_t slot, int n, int rank, uint32_t *episode_p, const void *mine,
                   size_t len, void *all)
{
    if (n == 1) {
        memcpy(all, mine, len);
        return;
    }
    memcpy(slots + (size_t)rank * slot, mine, len);
    shm_barrier_wait(mem, n, rank, episode_p);
    for (int r = 0; r < n; r++)
        memcpy((char *)all + (size_t)r * len, slots + (size_t)r * slot, len);
    shm_barrier_wait(mem, n, rank, episode_p); /* the slots may be reused by the next exchange */
}
