/* floor.h -- the floors: what the hardware and kernel do without orma, the
 * reference points the orma numbers are compared with.  Results have
 * backend "floor".  Each returns a BENCH_* status, the same on every rank,
 * and uses ranks 0 and 1 only (others just take part in the collectives).
 *
 *   cacheline  round trip of a flag between 2 cores through one cache line
 *              each (orma_win_allocate_shared memory, C11 atomics); 8 bytes
 *   memcpy     rank 0 copies a private buffer into another, every size
 *   cma        rank 0 process_vm_writev's into rank 1's malloc'd buffer,
 *              every size; skipped with a note when the kernel refuses */
#ifndef BENCH_FLOOR_H
#define BENCH_FLOOR_H

#include "bench.h"

int bench_floor_cacheline(const bench_ctx *ctx);
int bench_floor_memcpy(const bench_ctx *ctx);
int bench_floor_cma(const bench_ctx *ctx);

#endif
