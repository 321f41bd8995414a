/* dtype_op_kernels.h -- the reduction kernels and their table, generated
 * per type class.  Included by one file per instruction set the kernels are
 * compiled for (dtype_op_base.c: the baseline; dtype_op_avx2.c,
 * dtype_op_avx512.c: used when the CPU has them), each defining
 * DTYPE_OP_TABLE as its table's name first; dtype_op.c picks the widest the
 * CPU runs.  The same C in each: the
 * results are the same bits (unit_op_isa), only the vector width differs --
 * but for which NaN's payload a sum or product of two NaNs keeps, which
 * IEEE 754 leaves to the instruction's operand order.
 *
 * Integer sums and products wrap like the hardware instead of being
 * undefined: they are computed in unsigned long long and truncated to the
 * unsigned type of the same width (C promotes narrow types to int, whose
 * overflow is undefined). */
#ifndef DTYPE_OP_TABLE
#error "define DTYPE_OP_TABLE, the name of the table, before including dtype_op_kernels.h"
#endif

#include "dtype_op.h"

#include <stdbool.h>
#include <stdint.h>

#define KERNEL(name, T, expr)                                                                      \
    static void name(void *target, const void *origin, size_t count)                               \
    {                                                                                              \
        T *restrict t = target;                                                                    \
        const T *restrict o = origin;                                                              \
        for (size_t i = 0; i < count; i++) {                                                       \
            T a = t[i], b = o[i];                                                                  \
            (void)a; /* REPLACE reads only the origin */                                           \
            t[i] = (T)(expr);                                                                      \
        }                                                                                          \
    }

/* Integers: U is the unsigned type of the same width. */
#define INT_KERNELS(S, T, U)                                                                       \
    KERNEL(sum_##S, T, (U)((unsigned long long)(U)a + (U)b))                                       \
    KERNEL(prod_##S, T, (U)((unsigned long long)(U)a * (U)b))                                      \
    KERNEL(min_##S, T, b < a ? b : a)                                                              \
    KERNEL(max_##S, T, b > a ? b : a)                                                              \
    KERNEL(land_##S, T, a && b)                                                                    \
    KERNEL(lor_##S, T, a || b)                                                                     \
    KERNEL(lxor_##S, T, !a != !b)                                                                  \
    KERNEL(band_##S, T, a & b)                                                                     \
    KERNEL(bor_##S, T, a | b)                                                                      \
    KERNEL(bxor_##S, T, a ^ b)                                                                     \
    KERNEL(replace_##S, T, b)

#define FLOAT_KERNELS(S, T)                                                                        \
    KERNEL(sum_##S, T, a + b)                                                                      \
    KERNEL(prod_##S, T, a * b)                                                                     \
    KERNEL(min_##S, T, b < a ? b : a)                                                              \
    KERNEL(max_##S, T, b > a ? b : a)                                                              \
    KERNEL(replace_##S, T, b)

#define COMPLEX_KERNELS(S, T)                                                                      \
    KERNEL(sum_##S, T, a + b)                                                                      \
    KERNEL(prod_##S, T, a * b)                                                                     \
    KERNEL(replace_##S, T, b)

INT_KERNELS(i8, int8_t, uint8_t)
INT_KERNELS(i16, int16_t, uint16_t)
INT_KERNELS(i32, int32_t, uint32_t)
INT_KERNELS(i64, int64_t, uint64_t)
INT_KERNELS(u8, uint8_t, uint8_t)
INT_KERNELS(u16, uint16_t, uint16_t)
INT_KERNELS(u32, uint32_t, uint32_t)
INT_KERNELS(u64, uint64_t, uint64_t)
FLOAT_KERNELS(f, float)
FLOAT_KERNELS(d, double)
FLOAT_KERNELS(ld, long double)
COMPLEX_KERNELS(cf, float _Complex)
COMPLEX_KERNELS(cd, double _Complex)
COMPLEX_KERNELS(cld, long double _Complex)
KERNEL(land_b, bool, a && b)
KERNEL(lor_b, bool, a || b)
KERNEL(lxor_b, bool, a != b)
KERNEL(replace_b, bool, b)

/* MINLOC and MAXLOC as MPI defines them: the pair with the smaller (larger)
 * value, and on equal values the smaller index.  Only the two members are
 * written: the padding of the target's struct is not the origin's to set.
 * takes: when the origin's pair replaces the target's (REPLACE: always). */
#define PAIR_KERNEL(name, P, takes)                                                                \
    static void name(void *target, const void *origin, size_t count)                               \
    {                                                                                              \
        P *restrict t = target;                                                                    \
        const P *restrict o = origin;                                                              \
        for (size_t i = 0; i < count; i++)                                                         \
            if (takes) {                                                                           \
                t[i].value = o[i].value;                                                           \
                t[i].index = o[i].index;                                                           \
            }                                                                                      \
    }
#define PAIR_KERNELS(S, P)                                                                         \
    PAIR_KERNEL(minloc_##S, P,                                                                     \
                o[i].value < t[i].value || (o[i].value == t[i].value && o[i].index < t[i].index))  \
    PAIR_KERNEL(maxloc_##S, P,                                                                     \
                o[i].value > t[i].value || (o[i].value == t[i].value && o[i].index < t[i].index))  \
    PAIR_KERNEL(replace_##S, P, 1)

PAIR_KERNELS(fi, struct orma_float_int)
PAIR_KERNELS(di, struct orma_double_int)
PAIR_KERNELS(li, struct orma_long_int)
PAIR_KERNELS(ii, struct orma_2int)
PAIR_KERNELS(si, struct orma_short_int)
PAIR_KERNELS(ldi, struct orma_long_double_int)

static void noop(void *target, const void *origin, size_t count)
{
    (void)target;
    (void)origin;
    (void)count;
}

#define INT_ROW(S)                                                                                 \
    {[ORMA_SUM] = sum_##S, [ORMA_PROD] = prod_##S, [ORMA_MIN] = min_##S, [ORMA_MAX] = max_##S,     \
     [ORMA_LAND] = land_##S, [ORMA_LOR] = lor_##S, [ORMA_LXOR] = lxor_##S, [ORMA_BAND] = band_##S, \
     [ORMA_BOR] = bor_##S, [ORMA_BXOR] = bxor_##S, [ORMA_REPLACE] = replace_##S, [ORMA_NO_OP] = noop}
#define FLOAT_ROW(S)                                                                               \
    {[ORMA_SUM] = sum_##S, [ORMA_PROD] = prod_##S, [ORMA_MIN] = min_##S, [ORMA_MAX] = max_##S,     \
     [ORMA_REPLACE] = replace_##S, [ORMA_NO_OP] = noop}
#define COMPLEX_ROW(S)                                                                             \
    {[ORMA_SUM] = sum_##S, [ORMA_PROD] = prod_##S, [ORMA_REPLACE] = replace_##S, [ORMA_NO_OP] = noop}

#define PAIR_ROW(S)                                                                                \
    {[ORMA_MINLOC] = minloc_##S, [ORMA_MAXLOC] = maxloc_##S, [ORMA_REPLACE] = replace_##S, [ORMA_NO_OP] = noop}

const dtype_op_fn DTYPE_OP_TABLE[DC_N][ORMA_OP_COUNT] = {
    [DC_I8] = INT_ROW(i8), [DC_I16] = INT_ROW(i16), [DC_I32] = INT_ROW(i32), [DC_I64] = INT_ROW(i64),
    [DC_U8] = INT_ROW(u8), [DC_U16] = INT_ROW(u16), [DC_U32] = INT_ROW(u32), [DC_U64] = INT_ROW(u64),
    [DC_F] = FLOAT_ROW(f), [DC_D] = FLOAT_ROW(d), [DC_LD] = FLOAT_ROW(ld),
    [DC_CF] = COMPLEX_ROW(cf), [DC_CD] = COMPLEX_ROW(cd), [DC_CLD] = COMPLEX_ROW(cld),
    [DC_BOOL] = {[ORMA_LAND] = land_b, [ORMA_LOR] = lor_b, [ORMA_LXOR] = lxor_b, [ORMA_REPLACE] = replace_b,
                [ORMA_NO_OP] = noop},
    /* bytes are bits: the bitwise ops of unsigned 8-bit integers */
    [DC_BYTE] = {[ORMA_BAND] = band_u8, [ORMA_BOR] = bor_u8, [ORMA_BXOR] = bxor_u8, [ORMA_REPLACE] = replace_u8,
                [ORMA_NO_OP] = noop},
    [DC_CHAR] = {[ORMA_REPLACE] = replace_u8, [ORMA_NO_OP] = noop},
    [DC_FI] = PAIR_ROW(fi), [DC_DI] = PAIR_ROW(di), [DC_LI] = PAIR_ROW(li),
    [DC_II] = PAIR_ROW(ii), [DC_SI] = PAIR_ROW(si), [DC_LDI] = PAIR_ROW(ldi),
};

