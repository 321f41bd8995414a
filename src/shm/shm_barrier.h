/* shm_barrier.h -- a dissemination barrier in shared memory.
 *
 * Round k of episode e: rank r raises its own flag for round k to e, then
 * waits until the flag of rank (r - 2^k) mod n for round k reaches e.  Every
 * flag has a single writer and its own cache line; flags only grow (modulo
 * 2^32), so nothing is ever reset.  ceil(log2 n) rounds; with 2 ranks one
 * exchange of one cache line each way.  (Hensgen, Finkel and Manber's
 * dissemination barrier.) */
#ifndef ORMA_SHM_BARRIER_H
#define ORMA_SHM_BARRIER_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of shared memory (zero-filled) a barrier of n ranks needs. */
size_t shm_barrier_size(int n);

/* *episode_p is this rank's private episode counter, starting at 0. */
void shm_barrier_wait(void *mem, int n, int rank, uint32_t *episode_p);

/* An allgather of the same n ranks over the barrier at mem and n exchange
 * slots of slot bytes each: every rank gives len <= slot bytes, all receive
 * n * len in rank order.  Two barriers: the slots may be reused at once. */
void shm_allgather(void *mem, char *slots, size_t slot, int n, int rank, uint32_t *episode_p, const void *mine,
                   size_t len, void *all);

/* The same, for ranks that may die without taking this one down (ranks of
 * other jobs): while it waits for a rank, the barrier asks alive(ctx, rank)
 * every few milliseconds, and gives up when it says 0.  Returns the rank it
 * gave up on, or -1 when every rank arrived.  A barrier given up on leaves
 * its flags inconsistent: the ranks' team is no more. */
struct shm_watch {
    int (*alive)(void *ctx, int rank);
    void *ctx;
};
int shm_barrier_wait_watched(void *mem, int n, int rank, uint32_t *episode_p, const struct shm_watch *watch);
int shm_allgather_watched(void *mem, char *slots, size_t slot, int n, int rank, uint32_t *episode_p,
                          const void *mine, size_t len, void *all, const struct shm_watch *watch);

#endif
