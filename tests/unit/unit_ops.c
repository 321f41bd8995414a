/* unit_ops.c -- the reduction kernels: which (op, type) pairs exist, against
 * MPI's table written out again here, and the results of every kernel on
 * sample values, against a reference computed in wider arithmetic.  Twice:
 * with ORMA_CHECK's strictness, where ORMA_CHAR and ORMA_BYTE take only what
 * MPI defines for them, and without, where they take the ops of the C
 * integer types char and unsigned char as the host MPIs do. */
#include "check.h"
#include "dtype_op.h"
#include "dtype_type.h"
#include "util_config.h"

#include <complex.h>
#include <stdbool.h>

enum cls { INT, FLT, CPX, BOOL_, BYTE_, CHAR_, PAIR };

static int class_of(int id)
{
    switch (id) {
    case ORMA_TYPEID_BYTE: return util_config.check ? BYTE_ : INT;
    case ORMA_TYPEID_CHAR: return util_config.check ? CHAR_ : INT;
    case ORMA_TYPEID_FLOAT: case ORMA_TYPEID_DOUBLE: case ORMA_TYPEID_LONG_DOUBLE: return FLT;
    case ORMA_TYPEID_C_FLOAT_COMPLEX: case ORMA_TYPEID_C_DOUBLE_COMPLEX:
    case ORMA_TYPEID_C_LONG_DOUBLE_COMPLEX: return CPX;
    case ORMA_TYPEID_C_BOOL: return BOOL_;
    case ORMA_TYPEID_FLOAT_INT: case ORMA_TYPEID_DOUBLE_INT: case ORMA_TYPEID_LONG_INT:
    case ORMA_TYPEID_2INT: case ORMA_TYPEID_SHORT_INT: case ORMA_TYPEID_LONG_DOUBLE_INT: return PAIR;
    default: return INT;
    }
}

static int defined(int op, int c)
{
    switch (op) {
    case ORMA_SUM: case ORMA_PROD: return c == INT || c == FLT || c == CPX;
    case ORMA_MIN: case ORMA_MAX: return c == INT || c == FLT;
    case ORMA_LAND: case ORMA_LOR: case ORMA_LXOR: return c == INT || c == BOOL_;
    case ORMA_BAND: case ORMA_BOR: case ORMA_BXOR: return c == INT || c == BYTE_;
    case ORMA_REPLACE: case ORMA_NO_OP: return 1;
    default: return c == PAIR; /* MINLOC, MAXLOC */
    }
}

static int is_signed(int id)
{
    switch (id) {
    case ORMA_TYPEID_SIGNED_CHAR: case ORMA_TYPEID_SHORT: case ORMA_TYPEID_INT: case ORMA_TYPEID_LONG:
    case ORMA_TYPEID_LONG_LONG: case ORMA_TYPEID_INT8: case ORMA_TYPEID_INT16: case ORMA_TYPEID_INT32:
    case ORMA_TYPEID_INT64: case ORMA_TYPEID_AINT: return 1;
    case ORMA_TYPEID_CHAR: return (char)-1 < 0;
    default: return 0;
    }
}

/* An integer element as a 64-bit value (sign- or zero-extended). */
static int64_t load_int(const void *p, size_t size, int sign)
{
    uint64_t u = 0;
    memcpy(&u, p, size); /* little-endian */
    if (size < 8 && sign && (u >> (8 * size - 1)) & 1)
        u |= ~UINT64_C(0) << (8 * size);
    return (int64_t)u;
}

static int64_t int_ref(int op, int64_t a, int64_t b, size_t size, int sign)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    uint64_t mask = size == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * size)) - 1;
    /* compare as the type does */
    int less = sign ? a < b : (ua & mask) < (ub & mask);
    switch (op) {
    case ORMA_SUM: return (int64_t)(ua + ub);
    case ORMA_PROD: return (int64_t)(ua * ub);
    case ORMA_MIN: return less ? a : b;
    case ORMA_MAX: return less ? b : a;
    case ORMA_LAND: return a && b;
    case ORMA_LOR: return a || b;
    case ORMA_LXOR: return !a != !b;
    case ORMA_BAND: return a & b;
    case ORMA_BOR: return a | b;
    case ORMA_BXOR: return a ^ b;
    case ORMA_REPLACE: return b;
    default: return a; /* NO_OP */
    }
}

static long double flt_ref(int op, long double a, long double b)
{
    switch (op) {
    case ORMA_SUM: return a + b;
    case ORMA_PROD: return a * b;
    case ORMA_MIN: return b < a ? b : a;
    case ORMA_MAX: return b > a ? b : a;
    case ORMA_REPLACE: return b;
    default: return a;
    }
}

#define N 16
static const int64_t int_samples[N] = {0, 1, -1, 2, 127, -128, 255, 32767, -32768, 65535, 2147483647,
                                       -2147483647 - 1, 4294967295LL, INT64_MAX, INT64_MIN, 12345};

static void check_int(int op, int id, dtype_op_fn k)
{
    size_t size = orma_predefined_types.types[id].size;
    int sign = is_signed(id);
    unsigned char t[N * 8], o[N * 8];
    for (int i = 0; i < N; i++) {
        int64_t a = int_samples[i], b = int_samples[(i * 7 + 3) % N];
        memcpy(t + i * size, &a, size);
        memcpy(o + i * size, &b, size);
    }
    unsigned char want[N * 8];
    for (int i = 0; i < N; i++) {
        int64_t a = load_int(t + i * size, size, sign), b = load_int(o + i * size, size, sign);
        int64_t r = int_ref(op, a, b, size, sign);
        memcpy(want + i * size, &r, size);
    }
    k(t, o, N);
    if (memcmp(t, want, N * size)) {
        fprintf(stderr, "%s on %s differs from the reference\n", dtype_op_name(op),
                orma_predefined_types.types[id].name);
        exit(1);
    }
}

#define FLT_CHECK(T, op, k)                                                                        \
    do {                                                                                           \
        T t[N], o[N], want[N];                                                                     \
        for (int i = 0; i < N; i++) {                                                              \
            t[i] = (T)(i - 7) * (T)0.5;                                                            \
            o[i] = (T)((i * 5) % 11 - 4) * (T)0.25;                                               \
            want[i] = (T)flt_ref(op, t[i], o[i]);                                                  \
        }                                                                                          \
        k(t, o, N);                                                                                \
        for (int i = 0; i < N; i++) /* values, not bytes: long double has padding */              \
            CHECK(t[i] == want[i]);                                                                \
    } while (0)

#define CPX_CHECK(T, op, k)                                                                        \
    do {                                                                                           \
        T t[N], o[N], want[N];                                                                     \
        for (int i = 0; i < N; i++) {                                                              \
            t[i] = (T)((i - 7) * 0.5) + (T)(i * 0.25) * I;                                         \
            o[i] = (T)(i % 3) - (T)(i * 0.5) * I;                                                  \
            want[i] = op == ORMA_SUM ? t[i] + o[i] : op == ORMA_PROD ? t[i] * o[i]                 \
                      : op == ORMA_REPLACE ? o[i] : t[i];                                          \
        }                                                                                          \
        k(t, o, N);                                                                                \
        for (int i = 0; i < N; i++)                                                                \
            CHECK(t[i] == want[i]);                                                                \
    } while (0)

/* MINLOC/MAXLOC as MPI: the smaller (larger) value wins, ties go to the
 * smaller index; the padding of the target is never written. */
#define PAIR_CHECK(P, op, k)                                                                       \
    do {                                                                                           \
        P t[N], o[N], want[N];                                                                     \
        memset(t, 0xA5, sizeof t);                                                                 \
        memset(o, 0x5A, sizeof o);                                                                 \
        for (int i = 0; i < N; i++) {                                                              \
            t[i].value = (i % 5) - 2;                                                              \
            t[i].index = i;                                                                        \
            o[i].value = (i % 3) - 1;                                                              \
            o[i].index = 2 * N - i * (i % 2 ? 1 : 3);                                              \
        }                                                                                          \
        memcpy(want, t, sizeof t);                                                                 \
        for (int i = 0; i < N; i++) {                                                              \
            int lt = o[i].value < t[i].value, gt = o[i].value > t[i].value;                        \
            int eq = !lt && !gt, take;                                                             \
            if (op == ORMA_MINLOC)                                                                 \
                take = lt || (eq && o[i].index < t[i].index);                                      \
            else if (op == ORMA_MAXLOC)                                                            \
                take = gt || (eq && o[i].index < t[i].index);                                      \
            else                                                                                   \
                take = op == ORMA_REPLACE;                                                         \
            if (take) {                                                                            \
                want[i].value = o[i].value;                                                        \
                want[i].index = o[i].index;                                                        \
            }                                                                                      \
        }                                                                                          \
        k(t, o, N);                                                                                \
        CHECK(!memcmp(t, want, sizeof t));                                                         \
    } while (0)

static int check_table(void)
{
    int pairs = 0;
    for (int op = 0; op < ORMA_OP_COUNT; op++) {
        for (int id = 0; id < ORMA_TYPEID_COUNT; id++) {
            int c = class_of(id);
            dtype_op_fn k = dtype_op_kernel(op, id);
            if (!defined(op, c)) {
                if (k)
                    fprintf(stderr, "%s should not be defined on %s\n", dtype_op_name(op),
                            orma_predefined_types.types[id].name);
                CHECK(!k);
                continue;
            }
            CHECK(k);
            pairs++;
            if (c == INT || c == BYTE_ || c == CHAR_) {
                check_int(op, id, k);
            } else if (c == BOOL_) {
                bool t[4] = {0, 0, 1, 1}, o[4] = {0, 1, 0, 1};
                bool want[4];
                for (int i = 0; i < 4; i++)
                    want[i] = (bool)int_ref(op, t[i], o[i], 1, 0);
                k(t, o, 4);
                if (memcmp(t, want, sizeof t))
                    fprintf(stderr, "%s on ORMA_C_BOOL: %d%d%d%d, want %d%d%d%d\n", dtype_op_name(op), t[0],
                            t[1], t[2], t[3], want[0], want[1], want[2], want[3]);
                CHECK(!memcmp(t, want, sizeof t));
            } else if (c == PAIR) {
                switch (id) {
                case ORMA_TYPEID_FLOAT_INT: PAIR_CHECK(struct orma_float_int, op, k); break;
                case ORMA_TYPEID_DOUBLE_INT: PAIR_CHECK(struct orma_double_int, op, k); break;
                case ORMA_TYPEID_LONG_INT: PAIR_CHECK(struct orma_long_int, op, k); break;
                case ORMA_TYPEID_2INT: PAIR_CHECK(struct orma_2int, op, k); break;
                case ORMA_TYPEID_SHORT_INT: PAIR_CHECK(struct orma_short_int, op, k); break;
                default: PAIR_CHECK(struct orma_long_double_int, op, k); break;
                }
            } else if (id == ORMA_TYPEID_FLOAT) {
                FLT_CHECK(float, op, k);
            } else if (id == ORMA_TYPEID_DOUBLE) {
                FLT_CHECK(double, op, k);
            } else if (id == ORMA_TYPEID_LONG_DOUBLE) {
                FLT_CHECK(long double, op, k);
            } else if (id == ORMA_TYPEID_C_FLOAT_COMPLEX) {
                CPX_CHECK(float _Complex, op, k);
            } else if (id == ORMA_TYPEID_C_DOUBLE_COMPLEX) {
                CPX_CHECK(double _Complex, op, k);
            } else {
                CPX_CHECK(long double _Complex, op, k);
            }
        }
    }
    return pairs;
}

int main(void)
{
    util_config.check = 1;
    int strict = check_table();
    CHECK(!dtype_op_kernel(ORMA_SUM, ORMA_TYPEID_CHAR) && !dtype_is_integer(ORMA_TYPEID_CHAR));
    CHECK(!dtype_op_kernel(ORMA_SUM, ORMA_TYPEID_BYTE) && !dtype_is_integer(ORMA_TYPEID_BYTE));
    util_config.check = 0;
    int pairs = check_table();
    CHECK(pairs == strict + 10 + 7); /* ORMA_CHAR's integer ops, ORMA_BYTE's arithmetic and logical ones */
    CHECK(dtype_op_kernel(ORMA_SUM, ORMA_TYPEID_CHAR) && dtype_is_integer(ORMA_TYPEID_CHAR));
    CHECK(dtype_op_kernel(ORMA_SUM, ORMA_TYPEID_BYTE) && dtype_is_integer(ORMA_TYPEID_BYTE));
    CHECK(dtype_op_kernel(-1, 0) == NULL && dtype_op_kernel(ORMA_OP_COUNT, 0) == NULL);
    CHECK(dtype_op_kernel(ORMA_SUM, ORMA_TYPEID_COUNT) == NULL);
    printf("unit_ops: %d defined (op, type) pairs checked\n", pairs);
    return 0;
}
