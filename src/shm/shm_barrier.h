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

#endif
