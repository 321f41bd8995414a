/* caf_reg.c -- registering coarrays: each an orma window of its own
 * (orma_win_allocate: shared memory on a node, the same offsets on every
 * image), in a lock_all epoch for its whole life. */
#include "caf_impl.h"

#include <stdlib.h>
#include <string.h>

/* ALLOCATE of an allocatable component of a coarray (not collective): its
 * memory comes from orma's shared heap, so that the other images of the
 * node reach it with loads and stores, and is attached to the component's
 * dynamic window, where the others find it by the address the component's
 * descriptor holds (caf_ref.c). */
static void caf_component_allocate(size_t size, struct caf_token *t, struct caf_desc *desc, int *stat,
                                   char *errmsg, size_t errmsg_len)
{
    if (!t || t->kind != CAF_REG_COARRAY_ALLOC_REGISTER_ONLY) {
        caf_fail(1, stat, errmsg, errmsg_len, "ALLOCATE of a component whose coarray was not registered");
        return;
    }
    if (t->base) {
        caf_fail(5014 /* gfortran's "already allocated" */, stat, errmsg, errmsg_len,
                 "ALLOCATE of a component that is allocated");
        return;
    }
    void *mem = NULL;
    int rc = orma_alloc_mem(size ? size : 1, ORMA_INFO_NULL, &mem);
    if (rc == ORMA_SUCCESS && (rc = orma_win_attach(t->win, mem, size ? size : 1)) != ORMA_SUCCESS)
        orma_free_mem(mem);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, errmsg, errmsg_len, "ALLOCATE of a component of %zu bytes: %s (%s)", size,
                 orma_strerror(rc), orma_error_message());
        return;
    }
    t->base = mem;
    t->size = size;
    if (desc)
        desc->base = mem;
    caf_ok(stat);
}

/* Frees a component's memory, keeping its registration. */
static int caf_component_free(struct caf_token *t)
{
    if (!t->base)
        return ORMA_SUCCESS;
    int rc = orma_win_detach(t->win, t->base);
    if (rc == ORMA_SUCCESS)
        rc = orma_free_mem(t->base);
    t->base = NULL;
    t->size = 0;
    return rc;
}

void caf_token_unlink(struct caf_token *t)
{
    if (t->prev)
        t->prev->next = t->next;
    else
        caf.tokens = t->next;
    if (t->next)
        t->next->prev = t->prev;
}

void caf_token_release(struct caf_token *t)
{
    if (t->kind == CAF_REG_COARRAY_ALLOC_REGISTER_ONLY)
        caf_component_free(t);
    orma_win_unlock_all(t->win);
    orma_win_free(&t->win);
    free(t->peer);
    t->peer = NULL;
}

struct caf_peer *caf_map_peers(orma_win win, int n)
{
    struct caf_peer *peer = calloc((size_t)n, sizeof *peer);
    for (int r = 0; peer && r < n; r++) {
        size_t size = 0;
        int unit;
        void *base = NULL;
        if (orma_win_shared_query(win, r, &size, &unit, &base) == ORMA_SUCCESS && base && size)
            peer[r] = (struct caf_peer){base, size};
    }
    return peer;
}

void _gfortran_caf_register(size_t size, int type, void **token, struct caf_desc *desc, int *stat, char *errmsg,
                            size_t errmsg_len)
{
    caf_start(NULL, NULL);
    if (type == CAF_REG_COARRAY_ALLOC_ALLOCATE_ONLY) {
        caf_component_allocate(size, token ? *token : NULL, desc, stat, errmsg, errmsg_len);
        return;
    }
    if (caf.ending) {
        caf_fail(CAF_STAT_STOPPED_IMAGE, stat, errmsg, errmsg_len, "a coarray allocated after termination began");
        return;
    }
    if (caf_collective_blocked("ALLOCATE of a coarray", stat, errmsg, errmsg_len))
        return;
    struct caf_token *t = calloc(1, sizeof *t);
    if (!t) {
        caf_fail(1, stat, errmsg, errmsg_len, "out of memory registering a coarray of %zu bytes", size);
        return;
    }
    /* Locks, CRITICAL and events come as a number of elements: a 64-bit
     * word each (caf_atomic.c). */
    int words = type == CAF_REG_LOCK_STATIC || type == CAF_REG_LOCK_ALLOC || type == CAF_REG_CRITICAL ||
                type == CAF_REG_EVENT_STATIC || type == CAF_REG_EVENT_ALLOC;
    if (words)
        size *= sizeof(uint64_t);
    void *base = NULL;
    int rc;
    /* Over the current team: its images are the window's ranks. */
    orma_team ot = caf.team->ot;
    if (type == CAF_REG_COARRAY_ALLOC_REGISTER_ONLY) {
        /* An allocatable component: a dynamic window, its memory attached
         * when each image allocates it. */
        rc = orma_win_create_dynamic_team(ot, ORMA_INFO_NULL, &t->win);
        size = 0;
    } else {
        rc = orma_win_allocate_team(ot, size, 1, ORMA_INFO_NULL, &base, &t->win);
    }
    if (rc == ORMA_SUCCESS && (rc = orma_win_lock_all(0, t->win)) != ORMA_SUCCESS)
        orma_win_free(&t->win);
    if (rc != ORMA_SUCCESS) {
        free(t);
        caf_fail(1, stat, errmsg, errmsg_len, "cannot allocate a coarray of %zu bytes: %s (%s)", size,
                 orma_strerror(rc), orma_error_message());
        return;
    }
    t->base = base;
    t->size = size;
    t->kind = type;
    t->team = caf.team;
    if (type != CAF_REG_COARRAY_ALLOC_REGISTER_ONLY)
        t->peer = caf_map_peers(t->win, caf.team->n);
    if (type == CAF_REG_COARRAY_ALLOC)
        t->desc = desc; /* the program's own descriptor, alive while allocated */
    /* Locks and events start unlocked and at count 0; memory from
     * orma_win_allocate is zero already, but say so. */
    if (words && size)
        memset(base, 0, size);
    t->next = caf.tokens;
    if (caf.tokens)
        caf.tokens->prev = t;
    caf.tokens = t;
    *token = t;
    if (desc && type != CAF_REG_COARRAY_ALLOC_REGISTER_ONLY)
        desc->base = base;
    caf_ok(stat);
}

void _gfortran_caf_deregister(void **token, int type, int *stat, char *errmsg, size_t errmsg_len)
{
    struct caf_token *t = token ? *token : NULL;
    if (type == 1 /* CAF_DEREGTYPE_COARRAY_DEALLOCATE_ONLY: a component's memory */) {
        int rc = t && t->kind == CAF_REG_COARRAY_ALLOC_REGISTER_ONLY ? caf_component_free(t) : ORMA_ERR_ARG;
        if (rc != ORMA_SUCCESS) {
            caf_fail(1, stat, errmsg, errmsg_len, "DEALLOCATE of a component: %s", orma_error_message());
            return;
        }
        caf_ok(stat);
        return;
    }
    if (!t) {
        caf_fail(1, stat, errmsg, errmsg_len, "deallocating a coarray that is not allocated");
        return;
    }
    if (caf_collective_blocked("DEALLOCATE of a coarray", stat, errmsg, errmsg_len))
        return;
    /* DEALLOCATE is collective with an implicit SYNC ALL: every put to the
     * coarray is complete before anyone frees it (orma_win_free's barrier). */
    int rc = orma_win_flush_all(t->win);
    if (rc == ORMA_SUCCESS && t->kind == CAF_REG_COARRAY_ALLOC_REGISTER_ONLY)
        rc = caf_component_free(t);
    if (rc == ORMA_SUCCESS)
        rc = orma_win_unlock_all(t->win);
    if (rc == ORMA_SUCCESS)
        rc = orma_win_free(&t->win);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, errmsg, errmsg_len, "cannot deallocate a coarray: %s (%s)", orma_strerror(rc),
                 orma_error_message());
        return;
    }
    caf_token_unlink(t);
    free(t->peer);
    free(t);
    *token = NULL;
    caf_ok(stat);
}
