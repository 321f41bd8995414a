/* api_mem.c -- orma_alloc_mem / orma_free_mem. */
#include "api_check.h"
#include "rma_heap.h"

int orma_alloc_mem(size_t size, orma_info info, void **base_p)
{
    int status = api_check_init("orma_alloc_mem");
    if (!status)
        status = api_info_valid("orma_alloc_mem", info);
    if (status)
        return status;
    if (!base_p)
        return util_error(ORMA_ERR_ARG, "orma_alloc_mem: base_p is NULL");
    return rma_heap_alloc(size, base_p);
}

int orma_free_mem(void *base)
{
    int status = api_check_init("orma_free_mem");
    if (status)
        return status;
    if (!base)
        return ORMA_SUCCESS;
    if (__builtin_expect(rma_race_sites, 0)) { /* window memory freed before its window */
        API_RACE_ENTER();
        const struct rma_heap_block *blk = rma_heap_find(base, 1);
        if (blk)
            rma_race_freeing(blk->base, blk->size, "orma_free_mem");
    }
    return rma_heap_free(base);
}
