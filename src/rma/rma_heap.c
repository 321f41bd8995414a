#include "rma_heap.h"
#include "boot_job.h"
#include "util_status.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* The blocks, newest first; threads allocate and free at once (a block is
 * found, and freed, by one thread at a time). */
static struct rma_heap_block *rma_heap_blocks;
static pthread_mutex_t rma_heap_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint64_t rma_heap_next_seq = 1;

uint64_t rma_heap_seq_new(void) { return atomic_fetch_add_explicit(&rma_heap_next_seq, 1, memory_order_relaxed); }

int rma_heap_alloc(size_t size, void **base_p)
{
    struct rma_heap_block *b = calloc(1, sizeof *b);
    if (!b)
        return util_error(ORMA_ERR_NOMEM, "out of memory allocating %zu bytes", size);
    char name[SHM_NAME_MAX];
    b->seq = rma_heap_seq_new();
    boot_job_name(name, sizeof name, "m%llu-r%d", (unsigned long long)b->seq, boot_job.rank);
    int status = shm_seg_create(name, size ? size : 1, &b->seg);
    if (status) {
        free(b);
        return status;
    }
    /* The name stays while the block lives, even in a job of one rank:
     * a window made later may span ranks of other jobs (spawned,
     * connected), which map the block by it.  A killed job's blocks go
     * with its other objects (the next job's sweep). */
    b->base = b->seg.base;
    b->size = size;
    pthread_mutex_lock(&rma_heap_mu);
    b->next = rma_heap_blocks;
    rma_heap_blocks = b;
    pthread_mutex_unlock(&rma_heap_mu);
    *base_p = b->base;
    return ORMA_SUCCESS;
}

static void rma_heap_block_free(struct rma_heap_block *b)
{
    shm_seg_unlink(b->seg.name);
    shm_seg_unmap(&b->seg);
    free(b);
}

int rma_heap_free(void *base)
{
    pthread_mutex_lock(&rma_heap_mu);
    for (struct rma_heap_block **p = &rma_heap_blocks; *p; p = &(*p)->next) {
        if ((*p)->base == base) {
            struct rma_heap_block *b = *p;
            *p = b->next;
            pthread_mutex_unlock(&rma_heap_mu);
            rma_heap_block_free(b);
            return ORMA_SUCCESS;
        }
    }
    pthread_mutex_unlock(&rma_heap_mu);
    return util_error(ORMA_ERR_BASE, "orma_free_mem(%p): not memory from orma_alloc_mem, or already freed",
                      base);
}

const struct rma_heap_block *rma_heap_find(const void *base, size_t len)
{
    uintptr_t lo = (uintptr_t)base;
    pthread_mutex_lock(&rma_heap_mu);
    struct rma_heap_block *b = rma_heap_blocks;
    for (; b; b = b->next) {
        uintptr_t blo = (uintptr_t)b->base;
        size_t bsize = b->seg.size;
        if (lo >= blo && lo - blo <= bsize && len <= bsize - (lo - blo))
            break;
    }
    pthread_mutex_unlock(&rma_heap_mu);
    return b;
}

void rma_heap_release_all(void)
{
    while (rma_heap_blocks) {
        struct rma_heap_block *b = rma_heap_blocks;
        rma_heap_blocks = b->next;
        rma_heap_block_free(b);
    }
}
