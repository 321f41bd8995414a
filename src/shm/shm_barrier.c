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

struct shm_watch_look {
    const struct shm_watch *watch;
    int from;
};

static int shm_watch_gone(void *ctx)
{
    struct shm_watch_look *l = ctx;
    return !l->watch->alive(l->watch->ctx, l->from);
}

/* Wait for w to reach episode, asking watch (if any) now and then whether rank from lives. */
static int shm_watch_wait(struct util_waitword *w, uint32_t episode, const struct shm_watch *watch, int from)
{
    if (!watch) {
        util_wait_geq(w, episode);
        return -1;
    }
    struct shm_watch_look look = {watch, from};
    return util_wait_geq_watched(w, episode, shm_watch_gone, &look) ? from : -1;
}

int shm_barrier_wait_watched(void *mem, int n, int rank, uint32_t *episode_p, const struct shm_watch *watch)
{
    uint32_t episode = ++*episode_p;
    int rounds = shm_barrier_rounds(n);
    struct shm_barrier_flag *flags = mem;
    for (int k = 0; k < rounds; k++) {
        int from = (rank - (1 << k) % n + n) % n;
        util_wake_store(&flags[rank * rounds + k].word, episode);
        int gone = shm_watch_wait(&flags[from * rounds + k].word, episode, watch, from);
        if (gone >= 0)
            return gone;
    }
    return -1;
}

int shm_allgather_watched(void *mem, char *slots, size_t slot, int n, int rank, uint32_t *episode_p,
                          const void *mine, size_t len, void *all, const struct shm_watch *watch)
{
    if (n == 1) {
        memcpy(all, mine, len);
        return -1;
    }
    memcpy(slots + (size_t)rank * slot, mine, len);
    int gone = shm_barrier_wait_watched(mem, n, rank, episode_p, watch);
    if (gone >= 0)
        return gone;
    for (int r = 0; r < n; r++)
        memcpy((char *)all + (size_t)r * len, slots + (size_t)r * slot, len);
    return shm_barrier_wait_watched(mem, n, rank, episode_p, watch);
}

void shm_barrier_wait(void *mem, int n, int rank, uint32_t *episode_p)
{
    shm_barrier_wait_watched(mem, n, rank, episode_p, NULL);
}

void shm_allgather(void *mem, char *slots, size_t slot, int n, int rank, uint32_t *episode_p, const void *mine,
                   size_t len, void *all)
{
    shm_allgather_watched(mem, slots, slot, n, rank, episode_p, mine, len, all, NULL);
}
