/* dtype_op.c -- reduction kernels, generated per type class.
 *
 * Integer sums and products wrap like the hardware instead of being
 * undefined: they are computed in unsigned long long and truncated to the
 * unsigned type of the same width (C promotes narrow types to int, whose
 * overflow is undefined). */
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
 * written: the padding of the target's struct is not the origin's to set. */
#define PAIR_KERNELS(S, P)                                                                         \
    static void minloc_##S(void *target, const void *origin, size_t count)                         \
    {                                                                                              \
        P *restrict t = target;                                                                    \
        const P *restrict o = origin;                                                              \
        for (size_t i = 0; i < count; i++)                                                         \
            if (o[i].value < t[i].value || (o[i].value == t[i].value && o[i].index < t[i].index)) { \
                t[i].value = o[i].value;                                                           \
                t[i].index = o[i].index;                                                           \
            }                                                                                      \
    }                                                                                              \
    static void maxloc_##S(void *target, const void *origin, size_t count)                         \
    {                                                                                              \
        P *restrict t = target;                                                                    \
        const P *restrict o = origin;                                                              \
        for (size_t i = 0; i < count; i++)                                                         \
            if (o[i].value > t[i].value || (o[i].value == t[i].value && o[i].index < t[i].index)) { \
                t[i].value = o[i].value;                                                           \
                t[i].index = o[i].index;                                                           \
            }                                                                                      \
    }                                                                                              \
    static void replace_##S(void *target, const void *origin, size_t count)                        \
    {                                                                                              \
        P *restrict t = target;                                                                    \
        const P *restrict o = origin;                                                              \
        for (size_t i = 0; i < count; i++) {                                                       \
            t[i].value = o[i].value;                                                               \
            t[i].index = o[i].index;                                                               \
        }                                                                                          \
    }

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

/* The kernel family of each predefined type: integers by width and
 * signedness (the C type names map onto them), then the other classes. */
enum dtype_class { C_NONE, C_I8, C_I16, C_I32, C_I64, C_U8, C_U16, C_U32, C_U64, C_F, C_D, C_LD, C_CF, C_CD,
                   C_CLD, C_BOOL, C_BYTE, C_CHAR, C_FI, C_DI, C_LI, C_II, C_SI, C_LDI, C_N };

#define INT_CLASS(T) ((T)-1 < (T)1 ? (sizeof(T) == 1 ? C_I8 : sizeof(T) == 2 ? C_I16 : sizeof(T) == 4 ? C_I32 : C_I64) \
                                : (sizeof(T) == 1 ? C_U8 : sizeof(T) == 2 ? C_U16 : sizeof(T) == 4 ? C_U32 : C_U64))

static const unsigned char dtype_class_of[ORMA_TYPEID_COUNT] = {
    [ORMA_TYPEID_BYTE] = C_BYTE,
    [ORMA_TYPEID_CHAR] = C_CHAR, /* MPI: text, not a number -- REPLACE and NO_OP only */
    [ORMA_TYPEID_SIGNED_CHAR] = INT_CLASS(signed char),
    [ORMA_TYPEID_UNSIGNED_CHAR] = INT_CLASS(unsigned char),
    [ORMA_TYPEID_SHORT] = INT_CLASS(short),
    [ORMA_TYPEID_UNSIGNED_SHORT] = INT_CLASS(unsigned short),
    [ORMA_TYPEID_INT] = INT_CLASS(int),
    [ORMA_TYPEID_UNSIGNED] = INT_CLASS(unsigned),
    [ORMA_TYPEID_LONG] = INT_CLASS(long),
    [ORMA_TYPEID_UNSIGNED_LONG] = INT_CLASS(unsigned long),
    [ORMA_TYPEID_LONG_LONG] = INT_CLASS(long long),
    [ORMA_TYPEID_UNSIGNED_LONG_LONG] = INT_CLASS(unsigned long long),
    [ORMA_TYPEID_INT8] = C_I8, [ORMA_TYPEID_INT16] = C_I16, [ORMA_TYPEID_INT32] = C_I32, [ORMA_TYPEID_INT64] = C_I64,
    [ORMA_TYPEID_UINT8] = C_U8, [ORMA_TYPEID_UINT16] = C_U16, [ORMA_TYPEID_UINT32] = C_U32,
    [ORMA_TYPEID_UINT64] = C_U64,
    [ORMA_TYPEID_FLOAT] = C_F, [ORMA_TYPEID_DOUBLE] = C_D, [ORMA_TYPEID_LONG_DOUBLE] = C_LD,
    [ORMA_TYPEID_C_BOOL] = C_BOOL,
    [ORMA_TYPEID_C_FLOAT_COMPLEX] = C_CF, [ORMA_TYPEID_C_DOUBLE_COMPLEX] = C_CD,
    [ORMA_TYPEID_C_LONG_DOUBLE_COMPLEX] = C_CLD,
    [ORMA_TYPEID_AINT] = INT_CLASS(intptr_t),
    [ORMA_TYPEID_FLOAT_INT] = C_FI, [ORMA_TYPEID_DOUBLE_INT] = C_DI, [ORMA_TYPEID_LONG_INT] = C_LI,
    [ORMA_TYPEID_2INT] = C_II, [ORMA_TYPEID_SHORT_INT] = C_SI, [ORMA_TYPEID_LONG_DOUBLE_INT] = C_LDI,
};

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

static const dtype_op_fn dtype_kernels[C_N][ORMA_OP_COUNT] = {
    [C_I8] = INT_ROW(i8), [C_I16] = INT_ROW(i16), [C_I32] = INT_ROW(i32), [C_I64] = INT_ROW(i64),
    [C_U8] = INT_ROW(u8), [C_U16] = INT_ROW(u16), [C_U32] = INT_ROW(u32), [C_U64] = INT_ROW(u64),
    [C_F] = FLOAT_ROW(f), [C_D] = FLOAT_ROW(d), [C_LD] = FLOAT_ROW(ld),
    [C_CF] = COMPLEX_ROW(cf), [C_CD] = COMPLEX_ROW(cd), [C_CLD] = COMPLEX_ROW(cld),
    [C_BOOL] = {[ORMA_LAND] = land_b, [ORMA_LOR] = lor_b, [ORMA_LXOR] = lxor_b, [ORMA_REPLACE] = replace_b,
                [ORMA_NO_OP] = noop},
    /* bytes are bits: the bitwise ops of unsigned 8-bit integers */
    [C_BYTE] = {[ORMA_BAND] = band_u8, [ORMA_BOR] = bor_u8, [ORMA_BXOR] = bxor_u8, [ORMA_REPLACE] = replace_u8,
                [ORMA_NO_OP] = noop},
    [C_CHAR] = {[ORMA_REPLACE] = replace_u8, [ORMA_NO_OP] = noop},
    [C_FI] = PAIR_ROW(fi), [C_DI] = PAIR_ROW(di), [C_LI] = PAIR_ROW(li),
    [C_II] = PAIR_ROW(ii), [C_SI] = PAIR_ROW(si), [C_LDI] = PAIR_ROW(ldi),
};

dtype_op_fn dtype_op_kernel(int op, int typeid_)
{
    if (op < 0 || op >= ORMA_OP_COUNT || typeid_ < 0 || typeid_ >= ORMA_TYPEID_COUNT)
        return NULL;
    return dtype_kernels[dtype_class_of[typeid_]][op];
}

int dtype_is_integer(int typeid_)
{
    if (typeid_ < 0 || typeid_ >= ORMA_TYPEID_COUNT)
        return 0;
    int c = dtype_class_of[typeid_];
    return c >= C_I8 && c <= C_U64;
}

int dtype_cas_allowed(int typeid_)
{
    if (typeid_ < 0 || typeid_ >= ORMA_TYPEID_COUNT)
        return 0;
    int c = dtype_class_of[typeid_];
    return (c >= C_I8 && c <= C_U64) || c == C_BOOL || c == C_BYTE;
}

#define OP_NAME(name) "ORMA_" #name,
static const char *const dtype_op_names[ORMA_OP_COUNT] = {ORMA_OP_LIST(OP_NAME)};

const char *dtype_op_name(int op)
{
    return op >= 0 && op < ORMA_OP_COUNT ? dtype_op_names[op] : "invalid op";
}
