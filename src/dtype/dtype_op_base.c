/* dtype_op_base.c -- the reduction kernels for the baseline instruction
 * set of the build (dtype_op_kernels.h). */
#define DTYPE_OP_TABLE dtype_kernels_base
#include "dtype_op_kernels.h"
