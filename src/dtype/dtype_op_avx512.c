/* dtype_op_avx512.c -- the reduction kernels compiled for AVX-512 (F, BW,
 * VL, DQ; dtype_op_kernels.h; CMake adds the flags), used only when the CPU
 * has them.  A 16 KB sum of uint64 in a loop here: 0.137 us with AVX2,
 * 0.094 with AVX-512. */
#define DTYPE_OP_TABLE dtype_kernels_avx512
#include "dtype_op_kernels.h"
