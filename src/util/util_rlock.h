/* util_rlock.h -- a lock its holder may take again (a thread's nested
 * calls), that knows whether this thread holds it.  The windows of the
 * core (rma_mt.h) and of liborma-mpi (mpi_orma.h) keep threads apart with
 * it.  A plain mutex underneath: a waiter sleeps, as a preempted holder's
 * waiters should on a machine with more threads than cores. */
#ifndef ORMA_UTIL_RLOCK_H
#define ORMA_UTIL_RLOCK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct util_rlock {
    pthread_mutex_t mu;
    _Atomic(const void *) owner; /* the holding thread (util_rlock_self), or NULL */
    unsigned depth;              /* its nested takes (owner only) */
};

/* This thread, as owners are named. */
extern _Thread_local char util_rlock_me;
#define util_rlock_self ((const void *)&util_rlock_me)

static inline void util_rlock_init(struct util_rlock *l)
{
    pthread_mutex_init(&l->mu, NULL);
    atomic_init(&l->owner, NULL);
    l->depth = 0;
}

static inline int util_rlock_mine(struct util_rlock *l)
{
    return atomic_load_explicit(&l->owner, memory_order_relaxed) == util_rlock_self;
}

static inline void util_rlock_take(struct util_rlock *l)
{
    if (util_rlock_mine(l)) {
        l->depth++;
        return;
    }
    pthread_mutex_lock(&l->mu);
    atomic_store_explicit(&l->owner, util_rlock_self, memory_order_relaxed);
    l->depth = 1;
}

/* util_rlock_take unless another thread holds it: 1 when taken. */
static inline int util_rlock_try(struct util_rlock *l)
{
    if (util_rlock_mine(l)) {
        l->depth++;
        return 1;
    }
    if (pthread_mutex_trylock(&l->mu))
        return 0;
    atomic_store_explicit(&l->owner, util_rlock_self, memory_order_relaxed);
    l->depth = 1;
    return 1;
}

static inline void util_rlock_give(struct util_rlock *l)
{
    if (--l->depth)
        return;
    atomic_store_explicit(&l->owner, NULL, memory_order_relaxed);
    pthread_mutex_unlock(&l->mu);
}

/* Let go of it however deep this thread holds it, for a wait that others'
 * calls must be able to pass (rma_lock_wait): the depth to retake, or 0
 * when this thread did not hold it. */
static inline unsigned util_rlock_drop(struct util_rlock *l)
{
    if (!util_rlock_mine(l))
        return 0;
    unsigned depth = l->depth;
    l->depth = 0;
    atomic_store_explicit(&l->owner, NULL, memory_order_relaxed);
    pthread_mutex_unlock(&l->mu);
    return depth;
}

static inline void util_rlock_retake(struct util_rlock *l, unsigned depth)
{
    if (!depth)
        return;
    pthread_mutex_lock(&l->mu);
    atomic_store_explicit(&l->owner, util_rlock_self, memory_order_relaxed);
    l->depth = depth;
}

/* The lock this thread destroyed while holding it, or NULL: the scope that
 * took it (a guard's cleanup) must not give it back -- its object is gone.
 * Compared, never read through. */
extern _Thread_local const struct util_rlock *util_rlock_destroyed;

/* The lock's end, its object about to be freed: released if this thread
 * holds it (however deep, and recorded in util_rlock_destroyed), then
 * destroyed. */
static inline void util_rlock_destroy(struct util_rlock *l)
{
    if (util_rlock_mine(l)) {
        l->depth = 0;
        atomic_store_explicit(&l->owner, NULL, memory_order_relaxed);
        pthread_mutex_unlock(&l->mu);
        util_rlock_destroyed = l;
    }
    pthread_mutex_destroy(&l->mu);
}

/* A guard's end: give l back, unless this thread destroyed it meanwhile. */
static inline void util_rlock_leave(struct util_rlock *l)
{
    if (l == util_rlock_destroyed) {
        util_rlock_destroyed = NULL;
        return;
    }
    util_rlock_give(l);
}

#endif
