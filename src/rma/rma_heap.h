/* rma_heap.h -- orma_alloc_mem: memory in shared segments of this rank, so
 * that a window created on it later is reached directly by its peers.
 * Each allocation is one segment named "m<seq>-r<rank>"; peers open it by
 * that name when a window exposes it. */
#ifndef ORMA_RMA_HEAP_H
#define ORMA_RMA_HEAP_H

#include "shm_seg.h"

#include <stddef.h>
#include <stdint.h>

struct rma_heap_block {
    void *base;
    size_t size;
    uint64_t seq;
    struct shm_seg seg;
    struct rma_heap_block *next;
};

int rma_heap_alloc(size_t size, void **base_p);
/* ORMA_ERR_BASE when base is not the start of a live allocation. */
int rma_heap_free(void *base);
/* The allocation holding all of [base, base+len), or NULL. */
const struct rma_heap_block *rma_heap_find(const void *base, size_t len);
void rma_heap_release_all(void);
/* A new number for a segment named "m<seq>-r<rank>", which peers map as
 * they map allocations (dynamic windows' adopted regions, rma_dynamic.c). */
uint64_t rma_heap_seq_new(void);

#endif
