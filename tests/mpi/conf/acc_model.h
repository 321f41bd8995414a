/* acc_model.h -- conf_acc.c's reference model: the predefined operations
 * and the representative types it checks, the values each rank and index
 * gets, and each op applied in the test's own C (with the hosts' departures
 * it must allow for named in conf_acc.c). */
#ifndef CONF_ACC_MODEL_H
#define CONF_ACC_MODEL_H

#include "conf.h"

#include <complex.h>
#include <stdbool.h>
#include <stddef.h>

/* The predefined operations, in the order of the window's slots. */
enum op {
    O_SUM, O_PROD, O_MIN, O_MAX, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR,
    O_MAXLOC, O_MINLOC, O_REPLACE, O_NO_OP, NOPS
};
static const char *const op_name[NOPS] = {
    "MPI_SUM", "MPI_PROD", "MPI_MIN", "MPI_MAX", "MPI_LAND", "MPI_LOR", "MPI_LXOR",
    "MPI_BAND", "MPI_BOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};

static MPI_Op op_handle(int o)
{
    switch (o) {
    case O_SUM: return MPI_SUM;
    case O_PROD: return MPI_PROD;
    case O_MIN: return MPI_MIN;
    case O_MAX: return MPI_MAX;
    case O_LAND: return MPI_LAND;
    case O_LOR: return MPI_LOR;
    case O_LXOR: return MPI_LXOR;
    case O_BAND: return MPI_BAND;
    case O_BOR: return MPI_BOR;
    case O_BXOR: return MPI_BXOR;
    case O_MAXLOC: return MPI_MAXLOC;
    case O_MINLOC: return MPI_MINLOC;
    case O_REPLACE: return MPI_REPLACE;
    default: return MPI_NO_OP;
    }
}

#define BIT(o) (1u << (o))
#define ARITH (BIT(O_SUM) | BIT(O_PROD))
#define MINMAX (BIT(O_MIN) | BIT(O_MAX))
#define LOGICAL (BIT(O_LAND) | BIT(O_LOR) | BIT(O_LXOR))
#define BITWISE (BIT(O_BAND) | BIT(O_BOR) | BIT(O_BXOR))
#define LOC (BIT(O_MAXLOC) | BIT(O_MINLOC))
#define ANY (BIT(O_REPLACE) | BIT(O_NO_OP))

/* How the test computes with a type's elements. */
enum kind { SINT, UINT, REAL, CPLX, BYTES, BOOL, PAIR_INT, PAIR_DOUBLE, CHAR };

struct pair_int { int v, i; };        /* MPI_2INT */
struct pair_double { double v; int i; }; /* MPI_DOUBLE_INT (with padding) */

struct ty {
    const char *name;
    MPI_Datatype dt;
    enum kind kind;
    int size;       /* bytes of one element: its extent */
    unsigned ops;   /* the operations the standard defines for it */
    unsigned xops;  /* more that the hosts accept in accumulate and fetch_and_op */
    int cas;        /* allowed in MPI_Compare_and_swap */
};

#define INTEGER (ARITH | MINMAX | LOGICAL | BITWISE | ANY)
static const struct ty types[] = {
    {"MPI_INT", MPI_INT, SINT, sizeof(int), INTEGER, 0, 1},
    {"MPI_UNSIGNED", MPI_UNSIGNED, UINT, sizeof(unsigned), INTEGER, 0, 1},
    {"MPI_LONG_LONG", MPI_LONG_LONG, SINT, sizeof(long long), INTEGER, 0, 1},
    {"MPI_SHORT", MPI_SHORT, SINT, sizeof(short), INTEGER, 0, 1},
    {"MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG, UINT, sizeof(unsigned long), INTEGER, 0, 1},
    {"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR, SINT, 1, INTEGER, 0, 1},
    {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, UINT, 1, INTEGER, 0, 1},
    {"MPI_INT8_T", MPI_INT8_T, SINT, 1, INTEGER, 0, 1},
    {"MPI_UINT8_T", MPI_UINT8_T, UINT, 1, INTEGER, 0, 1},
    {"MPI_INT16_T", MPI_INT16_T, SINT, 2, INTEGER, 0, 1},
    {"MPI_UINT16_T", MPI_UINT16_T, UINT, 2, INTEGER, 0, 1},
    {"MPI_INT32_T", MPI_INT32_T, SINT, 4, INTEGER, 0, 1},
    {"MPI_UINT32_T", MPI_UINT32_T, UINT, 4, INTEGER, 0, 1},
    {"MPI_INT64_T", MPI_INT64_T, SINT, 8, INTEGER, 0, 1},
    {"MPI_UINT64_T", MPI_UINT64_T, UINT, 8, INTEGER, 0, 1},
    {"MPI_FLOAT", MPI_FLOAT, REAL, sizeof(float), ARITH | MINMAX | ANY, 0, 0},
    {"MPI_DOUBLE", MPI_DOUBLE, REAL, sizeof(double), ARITH | MINMAX | ANY, 0, 0},
    {"MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX, CPLX, sizeof(float complex), ARITH | ANY, 0, 0},
    {"MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, CPLX, sizeof(double complex), ARITH | ANY, 0, 0},
    {"MPI_BYTE", MPI_BYTE, BYTES, 1, BITWISE | ANY, 0, 1},
    {"MPI_C_BOOL", MPI_C_BOOL, BOOL, sizeof(bool), LOGICAL | ANY, 0, 1},
    {"MPI_2INT", MPI_2INT, PAIR_INT, sizeof(struct pair_int), LOC | ANY, 0, 0},
    {"MPI_DOUBLE_INT", MPI_DOUBLE_INT, PAIR_DOUBLE, sizeof(struct pair_double), LOC | ANY, 0, 0},
    {"MPI_CHAR", MPI_CHAR, CHAR, 1, ANY, ARITH | MINMAX | BIT(O_BAND), 0},
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

/* ---- element values and arithmetic, in the test's own C ---- */

static long long get_s(const struct ty *t, const void *p)
{
    if (t->kind == CHAR) {
        char c;
        memcpy(&c, p, 1);
        return c;
    }
    int8_t a; int16_t b; int32_t c; int64_t d;
    switch (t->size) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    default: memcpy(&d, p, 8); return d;
    }
}

static unsigned long long get_u(const struct ty *t, const void *p)
{
    uint8_t a; uint16_t b; uint32_t c; uint64_t d;
    switch (t->size) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    default: memcpy(&d, p, 8); return d;
    }
}

/* Stores the low t->size bytes of v (the values never overflow the type:
 * see sval/uval, so this is the value). */
static void put_int(const struct ty *t, void *p, unsigned long long v)
{
    uint8_t a = (uint8_t)v; uint16_t b = (uint16_t)v; uint32_t c = (uint32_t)v; uint64_t d = v;
    switch (t->size) {
    case 1: memcpy(p, &a, 1); break;
    case 2: memcpy(p, &b, 2); break;
    case 4: memcpy(p, &c, 4); break;
    default: memcpy(p, &d, 8); break;
    }
}

static double get_real(const struct ty *t, const void *p)
{
    float f;
    double d;
    if (t->size == sizeof(float)) {
        memcpy(&f, p, sizeof f);
        return f;
    }
    memcpy(&d, p, sizeof d);
    return d;
}

static void put_real(const struct ty *t, void *p, double v)
{
    float f = (float)v;
    if (t->size == sizeof(float))
        memcpy(p, &f, sizeof f);
    else
        memcpy(p, &v, sizeof v);
}

/* The real type of a complex type's parts. */
static const struct ty *real_part(const struct ty *t)
{
    static const struct ty f = {"float", MPI_FLOAT, REAL, sizeof(float), 0, 0, 0};
    static const struct ty d = {"double", MPI_DOUBLE, REAL, sizeof(double), 0, 0, 0};
    return t->size == sizeof(float complex) ? &f : &d;
}

static int is_logical(int op) { return op == O_LAND || op == O_LOR || op == O_LXOR; }

/* Integer values for rank r, element i and role (0 the target's initial
 * value, 1 the origin's, 2 a compare value), as op needs them: small for
 * MPI_PROD (no overflow), zero or not (in all four combinations of target
 * and origin over the K elements) for the logical operations, otherwise
 * spread over the type's width so that every byte matters; no sum
 * overflows; unsigned ones have the top bit set where top_bit says. */
static long long sval(int op, int bits, int r, int i, int role)
{
    long long s = (r * 7 + i * 3 + role * 5) % 11 - 5;
    if (op == O_PROD)
        return s;
    if (is_logical(op))
        return (i >> role) & 1 ? (r % 2 ? -1 : 1) * (2 + (r + i) % 3) : 0;
    return s * (1LL << (bits - 5)) + (r * 13 + i * 5 + role * 3) % 8;
}

static unsigned long long uval(int op, int bits, int top, int r, int i, int role)
{
    unsigned long long s = (unsigned long long)((r * 7 + i * 3 + role * 5) % 11);
    if (op == O_PROD)
        return s;
    if (is_logical(op))
        return (i >> role) & 1 ? 2 + (unsigned long long)((r + i) % 3) : 0;
    return s * (1ULL << (bits - (top ? 4 : 5))) + (unsigned long long)((r * 13 + i * 5 + role * 3) % 8);
}

/* Whether t's values for op may have the top bit set: not for MPI_SUM
 * (no overflow), and not for MPI_MIN/MPI_MAX where a host compares the
 * unsigned type as signed -- MPICH 4.0 every unsigned type (its yaksa
 * reductions, pmodels/mpich#6083), Open MPI 4.1.2-4.1.4 MPI_UNSIGNED_LONG
 * (open-mpi/ompi#10525): MPI_MIN(5, 2^63) is 2^63 there, in MPI_Accumulate
 * as in MPI_Reduce_local.  Those host-alone runs use smaller values. */
static int top_bit(const struct ty *t, int op)
{
    if (op == O_SUM)
        return 0;
    if (op != O_MIN && op != O_MAX)
        return 1;
    return conf_host_ok(CONF_NOT_MPICH) && (t->dt != MPI_UNSIGNED_LONG || conf_host_ok(CONF_NOT_OPEN_MPI));
}

/* Halves: sums and products of them are exact in float. */
static double rval(int op, int r, int i, int role)
{
    return ((r * 7 + i * 3 + role * 5) % 11 - 5) * 0.5 + (op == O_PROD ? 0 : 64.0 * (r + 1));
}

/* Writes the value of rank r's element i in role into p. */
static void val(const struct ty *t, int op, int r, int i, int role, void *p)
{
    switch (t->kind) {
    case SINT:
    case CHAR:
        put_int(t, p, (unsigned long long)sval(op, 8 * t->size, r, i, role));
        break;
    case UINT:
        put_int(t, p, uval(op, 8 * t->size, top_bit(t, op), r, i, role));
        break;
    case REAL:
        put_real(t, p, rval(op, r, i, role));
        break;
    case CPLX: {
        const struct ty *part = real_part(t);
        put_real(part, p, rval(op, r, i, role));
        put_real(part, (char *)p + part->size, rval(op, r + 3, i + 1, role + 1));
        break;
    }
    case BYTES:
        *(unsigned char *)p = (unsigned char)(r * 37 + i * 11 + role * 101 + 7);
        break;
    case BOOL: {
        bool b = (i >> role) & 1;
        memcpy(p, &b, sizeof b);
        break;
    }
    case PAIR_INT: {
        /* values 0..2: ties between target and origin, broken by index */
        struct pair_int v = {(r * 2 + i * (role + 1)) % 3, 100 * r + 10 * role + i};
        memcpy(p, &v, sizeof v);
        break;
    }
    case PAIR_DOUBLE: {
        struct pair_double v;
        memset(&v, 0, sizeof v);
        v.v = (r * 2 + i * (role + 1)) % 3 + 0.25;
        v.i = 100 * r + 10 * role + i;
        memcpy(p, &v, sizeof v);
        break;
    }
    }
}

static long long logic(int op, int a, int b)
{
    return op == O_LAND ? (a && b) : op == O_LOR ? (a || b) : (!a != !b);
}

/* a = a op b, as MPI defines op (6.9.2). */
static void apply(const struct ty *t, int op, void *a, const void *b)
{
    if (op == O_NO_OP)
        return;
    if (op == O_REPLACE) {
        memcpy(a, b, (size_t)t->size);
        return;
    }
    switch (t->kind) {
    case SINT:
    case CHAR: {
        long long x = get_s(t, a), y = get_s(t, b), z = 0;
        switch (op) {
        case O_SUM: z = x + y; break;
        case O_PROD: z = x * y; break;
        case O_MIN: z = x < y ? x : y; break;
        case O_MAX: z = x > y ? x : y; break;
        case O_BAND: z = x & y; break;
        case O_BOR: z = x | y; break;
        case O_BXOR: z = x ^ y; break;
        default: z = logic(op, x != 0, y != 0); break;
        }
        put_int(t, a, (unsigned long long)z);
        break;
    }
    case UINT:
    case BYTES:
    case BOOL: {
        unsigned long long x = get_u(t, a), y = get_u(t, b), z = 0;
        switch (op) {
        case O_SUM: z = x + y; break;
        case O_PROD: z = x * y; break;
        case O_MIN: z = x < y ? x : y; break;
        case O_MAX: z = x > y ? x : y; break;
        case O_BAND: z = x & y; break;
        case O_BOR: z = x | y; break;
        case O_BXOR: z = x ^ y; break;
        default: z = (unsigned long long)logic(op, x != 0, y != 0); break;
        }
        put_int(t, a, z);
        break;
    }
    case REAL: {
        double x = get_real(t, a), y = get_real(t, b);
        double z = op == O_SUM ? x + y : op == O_PROD ? x * y : op == O_MIN ? (x < y ? x : y) : (x > y ? x : y);
        put_real(t, a, z);
        break;
    }
    case CPLX:
        if (t->size == sizeof(float complex)) {
            float complex x, y;
            memcpy(&x, a, sizeof x);
            memcpy(&y, b, sizeof y);
            x = op == O_SUM ? x + y : x * y;
            memcpy(a, &x, sizeof x);
        } else {
            double complex x, y;
            memcpy(&x, a, sizeof x);
            memcpy(&y, b, sizeof y);
            x = op == O_SUM ? x + y : x * y;
            memcpy(a, &x, sizeof x);
        }
        break;
    case PAIR_INT:
    case PAIR_DOUBLE: {
        /* MAXLOC/MINLOC: the larger/smaller value with its index; on a tie
         * the value with the smaller of the two indices */
        double xv, yv;
        int xi, yi;
        struct pair_int pi;
        struct pair_double pd;
        if (t->kind == PAIR_INT) {
            memcpy(&pi, a, sizeof pi); xv = pi.v; xi = pi.i;
            memcpy(&pi, b, sizeof pi); yv = pi.v; yi = pi.i;
        } else {
            memcpy(&pd, a, sizeof pd); xv = pd.v; xi = pd.i;
            memcpy(&pd, b, sizeof pd); yv = pd.v; yi = pd.i;
        }
        int take_b = op == O_MAXLOC ? yv > xv : yv < xv;
        int i = xv == yv ? (xi < yi ? xi : yi) : take_b ? yi : xi;
        if (take_b)
            memcpy(a, b, (size_t)t->size);
        memcpy((char *)a + (t->kind == PAIR_INT ? offsetof(struct pair_int, i) : offsetof(struct pair_double, i)),
               &i, sizeof i);
        break;
    }
    }
}

/* Equality of elements (values: -0.0 == 0.0; no padding compared). */
static int same(const struct ty *t, const void *a, const void *b)
{
    if (t->kind == REAL)
        return get_real(t, a) == get_real(t, b);
    if (t->kind == CPLX) {
        const struct ty *part = real_part(t);
        return get_real(part, a) == get_real(part, b) &&
               get_real(part, (const char *)a + part->size) == get_real(part, (const char *)b + part->size);
    }
    if (t->kind == PAIR_DOUBLE) {
        struct pair_double x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        return x.v == y.v && x.i == y.i;
    }
    return !memcmp(a, b, (size_t)t->size);
}

static const char *show(const struct ty *t, const void *p)
{
    static char s[2][80];
    static int k;
    char *o = s[k ^= 1];
    const struct ty *part = real_part(t);
    struct pair_int pi;
    struct pair_double pd;
    switch (t->kind) {
    case SINT: case CHAR: snprintf(o, 80, "%lld", get_s(t, p)); break;
    case UINT: case BOOL: snprintf(o, 80, "%llu", get_u(t, p)); break;
    case BYTES: snprintf(o, 80, "0x%02x", *(const unsigned char *)p); break;
    case REAL: snprintf(o, 80, "%g", get_real(t, p)); break;
    case CPLX:
        snprintf(o, 80, "%g%+gi", get_real(part, p), get_real(part, (const char *)p + part->size));
        break;
    case PAIR_INT: memcpy(&pi, p, sizeof pi); snprintf(o, 80, "{%d, %d}", pi.v, pi.i); break;
    case PAIR_DOUBLE: memcpy(&pd, p, sizeof pd); snprintf(o, 80, "{%g, %d}", pd.v, pd.i); break;
    }
    return o;
}

#endif
