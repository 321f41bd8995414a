/* dtype_op.h -- the element-wise kernels of the reduction operations:
 * target[i] = target[i] op origin[i] (REPLACE: origin[i]; NO_OP: nothing)
 * for every predefined type the operation is defined for.  Plain loops:
 * atomicity is the caller's business (hardware atomics or a lock). */
#ifndef ORMA_DTYPE_OP_H
#define ORMA_DTYPE_OP_H

#include <orma.h>
#include <stddef.h>

typedef void (*dtype_op_fn)(void *target, const void *origin, size_t count);

/* The kernel of op on predefined type id, or NULL when MPI does not define
 * op for that type. */
dtype_op_fn dtype_op_kernel(int op, int typeid_);

const char *dtype_op_name(int op);

/* Whether type id is one of the integer types (C integers, fixed-width,
 * ORMA_AINT): its SUM wraps and its bitwise ops are the machine's. */
int dtype_is_integer(int typeid_);

/* Whether compare-and-swap is defined for type id (MPI: integers, logical,
 * byte and address types). */
int dtype_cas_allowed(int typeid_);

#endif
