/* rma_req.c -- the request table (see rma_req.h).  Threads may create,
 * query and free requests at once: the table has a lock, held for a few
 * loads and stores (a request is complete when it is created). */
#include "rma_req.h"
#include "util_status.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct rma_req {
    uint32_t gen;  /* 0: free */
    uint32_t done;
    int status;
    uint32_t next_free;  /* index + 1 of the next free slot, or 0 */
};

static struct rma_req *rma_reqs;
static uint32_t rma_reqs_cap, rma_reqs_free; /* free: index + 1 of a free slot, or 0 */
static uint32_t rma_req_next_gen = 1;
static pthread_mutex_t rma_req_mu = PTHREAD_MUTEX_INITIALIZER;

static int rma_req_grow(void)
{
    uint32_t cap = rma_reqs_cap ? 2 * rma_reqs_cap : 64;
    struct rma_req *t = realloc(rma_reqs, cap * sizeof *t);
    if (!t)
        return util_error(ORMA_ERR_NOMEM, "cannot grow the request table to %u entries", cap);
    for (uint32_t i = rma_reqs_cap; i < cap; i++)
        t[i] = (struct rma_req){0, 0, 0, i + 1 < cap ? i + 2 : rma_reqs_free};
    rma_reqs_free = rma_reqs_cap + 1;
    rma_reqs = t;
    rma_reqs_cap = cap;
    return ORMA_SUCCESS;
}

int rma_req_create(int op_status, orma_request *handle_p)
{
    pthread_mutex_lock(&rma_req_mu);
    if (!rma_reqs_free) {
        int status = rma_req_grow();
        if (status) {
            pthread_mutex_unlock(&rma_req_mu);
            return status;
        }
    }
    uint32_t i = rma_reqs_free - 1;
    struct rma_req *r = &rma_reqs[i];
    rma_reqs_free = r->next_free;
    r->gen = rma_req_next_gen++;
    if (!rma_req_next_gen)
        rma_req_next_gen = 1;
    r->done = 1;
    r->status = op_status;
    r->next_free = 0;
    *handle_p = ((uint64_t)r->gen << 32) | (uint64_t)(i + 1);
    pthread_mutex_unlock(&rma_req_mu);
    return ORMA_SUCCESS;
}

static struct rma_req *rma_req_lookup(orma_request handle)
{
    uint64_t low = handle & UINT32_MAX;
    if (low == 0 || low > rma_reqs_cap)
        return NULL;
    struct rma_req *r = &rma_reqs[low - 1];
    return r->gen && r->gen == (uint32_t)(handle >> 32) ? r : NULL;
}

int rma_req_query(orma_request handle, int *done_p, int *op_status_p)
{
    pthread_mutex_lock(&rma_req_mu);
    struct rma_req *r = rma_req_lookup(handle);
    if (r) {
        *done_p = (int)r->done;
        *op_status_p = r->status;
    }
    pthread_mutex_unlock(&rma_req_mu);
    return r ? ORMA_SUCCESS : ORMA_ERR_REQUEST;
}

void rma_req_free(orma_request handle)
{
    pthread_mutex_lock(&rma_req_mu);
    struct rma_req *r = rma_req_lookup(handle);
    if (r) {
        r->gen = 0;
        r->next_free = rma_reqs_free;
        rma_reqs_free = (uint32_t)(r - rma_reqs) + 1;
    }
    pthread_mutex_unlock(&rma_req_mu);
}
