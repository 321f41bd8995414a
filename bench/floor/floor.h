/* floor.h -- the floors: what the hardware and kernel do without orma, the
 * reference points the orma numbers are compared with.  Results have
 * backend "floor".  Each returns a BENCH_* status, the same on every rank,
 * and uses ranks 0 and 1 only (others just take part in the collectives).
 *
 *   cacheline  round trip of a flag between 2 cores through one cache line
 *              each (orma_win_allocate_shared memory, C11 atomics); 8 bytes
 *   memcpy     rank 0 copies a private buffer into another, every size
 *   cma        rank 0 process_vm_writev's into rank 1's malloc'd buffer,
 *              every size; skipped with a note when the kernel refuses
 *
 * The same-pattern floors do the exchange of a put round trip (floor_rt.h)
 * with raw primitives and flags, no orma synchronization: the written
 * lines were just read by their owner on the other core, as in the orma
 * round trip and unlike in memcpy and cma, where they stay with the writer.
 * Sync "flag"; mbps counts 2 x bytes like the put rows.
 *   xcopy      memcpy into the other rank's buffer of one shared window,
 *              every size; the same pattern as put on allocate
 *   cma_rt     process_vm_writev into the other rank's malloc'd buffer,
 *              every size; as put on create; skipped like cma */
#ifndef BENCH_FLOOR_H
#define BENCH_FLOOR_H

#include <stdatomic.h>
#include <stdint.h>

#include "bench.h"

int bench_floor_cacheline(const bench_ctx *ctx);
/* The cache-line floor's loop (flag.h): n round trips numbered from
 * *k + 1 between rank 0's flag mine and rank 1's peer (rank 1: its own
 * flag mine, rank 0's peer), both ranks calling it; the notify suite
 * times it in its own batches. */
void bench_floor_cacheline_trips(int rank, _Atomic uint64_t *mine, _Atomic uint64_t *peer, uint64_t *k, long n);
int bench_floor_memcpy(const bench_ctx *ctx);
/* The memcpy floor at bytes alone, when --op names memcpy (the as and
 * bspbench suites' reference for g); BENCH_OK otherwise. */
int bench_floor_memcpy_at(const bench_ctx *ctx, size_t bytes);
int bench_floor_cma(const bench_ctx *ctx);
int bench_floor_xcopy(const bench_ctx *ctx);
int bench_floor_cma_rt(const bench_ctx *ctx);

#endif
