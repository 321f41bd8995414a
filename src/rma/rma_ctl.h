/* rma_ctl.h -- the window's control segment, shared by every rank of it.
 *
 * Created by rank 0 when the window is created, mapped by all, unlinked as
 * soon as all have it.  Offsets, never pointers; fixed-width fields; a field
 * written by one rank sits on a cache line no other rank writes.
 *
 *   header | rank block 0 | ... | rank block n-1 | barrier flags
 *
 * A rank block is RMA_CTL_BLOCK_SIZE(max_attach) bytes. */
#ifndef ORMA_RMA_CTL_H
#define ORMA_RMA_CTL_H

#include "util_wait.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define RMA_CTL_MAGIC 0x776e6463u
#define RMA_LINE 64

struct rma_ctl_header {
    uint32_t magic;      /* writer: rank 0, at creation */
    uint32_t nranks;     /* writer: rank 0, at creation */
    uint32_t max_attach; /* writer: rank 0, at creation */
    uint32_t pad[13];
};

/* One attached region of a dynamic window; seg_seq != 0 names the owner's
 * orma_alloc_mem segment holding it (direct access), else the region is
 * private memory (single-copy syscalls). */
struct rma_region {
    _Atomic uint64_t base;    /* address at the owner */
    _Atomic uint64_t size;
    _Atomic uint64_t seg_seq; /* 0: private memory */
    _Atomic uint64_t seg_off; /* offset of base in that segment */
};

struct rma_ctl_rank {
    /* line 0 -- writer: the owner.  Number of the last fence epoch the owner
     * has opened; origins wait on it before touching the owner's memory. */
    struct util_waitword fence_seq;
    char pad0[RMA_LINE - sizeof(struct util_waitword)];

    /* line 1 -- writer: the owner (attach/detach).  A sequence lock: odd
     * while the region table changes. */
    _Atomic uint32_t regions_version;
    _Atomic uint32_t nregions;
    char pad1[RMA_LINE - 8];

    struct rma_region regions[]; /* max_attach entries */
};

#define RMA_CTL_BLOCK_SIZE(max_attach)                                                       \
    ((sizeof(struct rma_ctl_rank) + (size_t)(max_attach) * sizeof(struct rma_region) + RMA_LINE - 1) / \
     RMA_LINE * RMA_LINE)

static inline struct rma_ctl_rank *rma_ctl_block(struct rma_ctl_header *h, int rank)
{
    return (struct rma_ctl_rank *)((char *)h + sizeof *h + (size_t)rank * RMA_CTL_BLOCK_SIZE(h->max_attach));
}

static inline void *rma_ctl_barrier(struct rma_ctl_header *h)
{
    return (char *)h + sizeof *h + (size_t)h->nranks * RMA_CTL_BLOCK_SIZE(h->max_attach);
}

#endif
