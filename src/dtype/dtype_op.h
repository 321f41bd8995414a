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
 * op for that type -- except on ORMA_CHAR and ORMA_BYTE, which take the ops
 * of the C integer types char and unsigned char unless ORMA_CHECK is set
 * (dtype_op.c). */
dtype_op_fn dtype_op_kernel(int op, int typeid_);

const char *dtype_op_name(int op);

/* The kernel family of each predefined type: integers by width and
 * signedness (the C type names map onto them), then the other classes. */
enum dtype_class { DC_NONE, DC_I8, DC_I16, DC_I32, DC_I64, DC_U8, DC_U16, DC_U32, DC_U64, DC_F, DC_D, DC_LD, DC_CF, DC_CD,
                   DC_CLD, DC_BOOL, DC_BYTE, DC_CHAR, DC_FI, DC_DI, DC_LI, DC_II, DC_SI, DC_LDI, DC_N };

/* The kernel tables, one per instruction set (dtype_op_kernels.h), and the
 * kernel of op on type id from a given one (tests compare them). */
enum dtype_isa { DTYPE_ISA_BASE, DTYPE_ISA_AVX2, DTYPE_ISA_AVX512, DTYPE_ISA_N };
extern const dtype_op_fn dtype_kernels_base[DC_N][ORMA_OP_COUNT];
extern const dtype_op_fn dtype_kernels_avx2[DC_N][ORMA_OP_COUNT];
extern const dtype_op_fn dtype_kernels_avx512[DC_N][ORMA_OP_COUNT];
dtype_op_fn dtype_op_kernel_isa(int isa, int op, int typeid_);

/* The widest instruction set the CPU has: the one dtype_op_kernel uses. */
int dtype_op_isa(void);

/* Whether the CPU can run the kernels of isa. */
int dtype_op_isa_ok(int isa);

/* Whether type id is one of the integer types (C integers, fixed-width,
 * ORMA_AINT, and ORMA_CHAR and ORMA_BYTE as dtype_op_kernel takes them):
 * its SUM wraps and
 * its bitwise ops are the machine's. */
int dtype_is_integer(int typeid_);

/* Whether compare-and-swap is defined for type id (MPI: integers, logical,
 * byte and address types). */
int dtype_cas_allowed(int typeid_);

#endif
