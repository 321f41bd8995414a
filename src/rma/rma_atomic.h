/* rma_atomic.h -- element-wise atomic updates of memory mapped here.
 *
 * An accumulate-family call on mapped memory updates each element with one
 * hardware atomic: the machine's fetch-add/and/or/xor/exchange where the op
 * is one of those on an integer, else a compare-and-swap loop around the
 * reduction kernel.  That needs elements of 1, 2, 4 or 8 bytes, or 16 with
 * cmpxchg16b, naturally aligned; everything else is updated under the
 * target's striped locks (rma_acc.c).  Which of the two a location gets
 * depends only on the type, the op-independent width and the address, so
 * every origin updating that location with that type makes the same choice
 * -- that is what makes the two schemes safe side by side.
 *
 * The plan of each (op, type) pair is decided once, at start-up. */
#ifndef ORMA_RMA_ATOMIC_H
#define ORMA_RMA_ATOMIC_H

#include "dtype_op.h"

#include <stddef.h>
#include <stdint.h>

enum rma_native {
    RMA_NAT_KERNEL, /* compare-and-swap loop around the kernel */
    RMA_NAT_ADD,    /* integer SUM: fetch-add (wraps, as the kernel) */
    RMA_NAT_AND,
    RMA_NAT_OR,
    RMA_NAT_XOR,
    RMA_NAT_XCHG,   /* REPLACE */
    RMA_NAT_LOAD    /* NO_OP */
};

struct rma_acc_plan {
    dtype_op_fn kernel; /* NULL: op not defined for the type */
    uint32_t extent;    /* bytes one element spans */
    uint8_t width;      /* hardware atomic width, or 0: locks only */
    uint8_t native;     /* enum rma_native */
    uint8_t writes;     /* 0 for NO_OP */
};

/* Decide every plan (at start-up). */
void rma_atomic_init(void);

/* The plan of op on predefined type id; both must be in range. */
extern struct rma_acc_plan rma_plans[ORMA_OP_COUNT][ORMA_TYPEID_COUNT];
static inline const struct rma_acc_plan *rma_acc_plan(int op, int typeid_) { return &rma_plans[op][typeid_]; }

/* Whether addr can take atomics of plan's width. */
static inline int rma_atomic_fits(const struct rma_acc_plan *p, const void *addr)
{
    return p->width && ((uintptr_t)addr & (p->width - 1u)) == 0;
}

/* target[i] = target[i] op origin[i] for count elements, each atomically;
 * result[i] receives the old value when result is not NULL.  target must
 * satisfy rma_atomic_fits. */
void rma_atomic_acc(const struct rma_acc_plan *p, void *target, const void *origin, void *result,
                    size_t count);

/* One element of width 1, 2, 4 or 8 bytes: *result = *target; if it equals
 * *compare, *target = *origin -- atomically. */
void rma_atomic_cas(unsigned width, void *target, const void *origin, const void *compare, void *result);

#endif
