/* acc_test.h -- the accumulate tests' model of the predefined types and of
 * the reduction operations: for every type its class, size and extent, a
 * generator of element values, a sequential reference of every op, and a
 * comparison by value (acc_plan.h builds the tests' calls on it).
 *
 * The reference does not share code with the library: integers are widened
 * to 64 bits and truncated back (so SUM and PROD wrap as unsigned arithmetic
 * of the type's width), floating and complex values are small multiples of
 * 1/4 whose sums and products are exact in every precision, so results can
 * be compared with == on the C type.  Floating, complex and pair elements
 * are compared by value (member by member), never as bytes: long double and
 * the pair structs have padding bytes that no operation is required to
 * keep or write. */
#ifndef ORMA_ACC_TEST_H
#define ORMA_ACC_TEST_H

#include "hash32.h"
#include "sync_test.h"

#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum at_class {
    AT_INT,  /* every integer type, AINT included */
    AT_BYTE, /* MPI: bitwise ops only (ORMA_CHECK=1); else the C integer type unsigned char */
    AT_CHAR, /* MPI: REPLACE and NO_OP only (ORMA_CHECK=1); else the C integer type char */
    AT_BOOL, /* logical ops only */
    AT_FLT,
    AT_CPX,
    AT_PAIR
};

struct at_type {
    orma_type type;
    int id;
    const char *name; /* "ORMA_INT32" */
    size_t size;      /* bytes of data, as orma_type_size */
    size_t extent;    /* bytes one element spans, as orma_type_extent */
    size_t vsize;     /* pair: bytes of the value member; else size */
    size_t ioff;      /* pair: offset of the index member */
    int cls;
    int sign; /* integer types: signed */
};

static struct at_type at_types[ORMA_TYPEID_COUNT];

#define AT_OP_NAME(name) "ORMA_" #name,
static const char *const at_op_names[ORMA_OP_COUNT] = {ORMA_OP_LIST(AT_OP_NAME)};
#undef AT_OP_NAME

static inline const char *at_op_name(int op)
{
    return op >= 0 && op < ORMA_OP_COUNT ? at_op_names[op] : "(op out of range)";
}

static inline int at_class_of(int id)
{
    switch (id) {
    case ORMA_TYPEID_BYTE: return AT_BYTE;
    case ORMA_TYPEID_CHAR: return AT_CHAR;
    case ORMA_TYPEID_C_BOOL: return AT_BOOL;
    case ORMA_TYPEID_FLOAT:
    case ORMA_TYPEID_DOUBLE:
    case ORMA_TYPEID_LONG_DOUBLE: return AT_FLT;
    case ORMA_TYPEID_C_FLOAT_COMPLEX:
    case ORMA_TYPEID_C_DOUBLE_COMPLEX:
    case ORMA_TYPEID_C_LONG_DOUBLE_COMPLEX: return AT_CPX;
    case ORMA_TYPEID_FLOAT_INT:
    case ORMA_TYPEID_DOUBLE_INT:
    case ORMA_TYPEID_LONG_INT:
    case ORMA_TYPEID_2INT:
    case ORMA_TYPEID_SHORT_INT:
    case ORMA_TYPEID_LONG_DOUBLE_INT: return AT_PAIR;
    default: return AT_INT;
    }
}

static inline int at_is_signed(int id)
{
    switch (id) {
    case ORMA_TYPEID_SIGNED_CHAR:
    case ORMA_TYPEID_SHORT:
    case ORMA_TYPEID_INT:
    case ORMA_TYPEID_LONG:
    case ORMA_TYPEID_LONG_LONG:
    case ORMA_TYPEID_INT8:
    case ORMA_TYPEID_INT16:
    case ORMA_TYPEID_INT32:
    case ORMA_TYPEID_INT64:
    case ORMA_TYPEID_AINT: return 1;
    case ORMA_TYPEID_CHAR: return (char)-1 < 0;
    default: return 0;
    }
}

/* ORMA_CHECK=1 (or all) in the environment: ORMA_CHAR takes only what MPI
 * defines.  ORMA_CHECK=race alone leaves that as without ORMA_CHECK. */
static inline int at_check_mode(void)
{
    const char *v = getenv("ORMA_CHECK");
    return v && (!strcmp(v, "1") || !strcmp(v, "all"));
}

static inline void at_type_set(int id, orma_type type, const char *name, size_t size,
                               size_t extent, size_t vsize, size_t ioff)
{
    struct at_type *t = &at_types[id];
    size_t s = 0, e = 0;
    t->type = type;
    t->id = id;
    t->name = name;
    t->size = size;
    t->extent = extent;
    t->vsize = vsize;
    t->ioff = ioff;
    t->cls = at_class_of(id);
    t->sign = at_is_signed(id);
    /* The model must agree with the library before anything is compared. */
    CHECK_OK(orma_type_size(type, &s));
    CHECK_OK(orma_type_extent(type, &e));
    if (s != size || e != extent || strcmp(orma_type_name(type), name)) {
        fprintf(stderr, "rank %d: %s: library says size %zu extent %zu name %s, want %zu %zu\n",
                check_rank(), name, s, e, orma_type_name(type), size, extent);
        exit(1);
    }
}

static inline void at_types_init(void)
{
#define AT_PRE(NAME, ctype)                                                                        \
    at_type_set(ORMA_TYPEID_##NAME, ORMA_##NAME, "ORMA_" #NAME, sizeof(ctype), sizeof(ctype),     \
                sizeof(ctype), 0);
#define AT_PAIR_TYPE(NAME, stype, vtype)                                                           \
    at_type_set(ORMA_TYPEID_##NAME, ORMA_##NAME, "ORMA_" #NAME, sizeof(vtype) + sizeof(int),      \
                sizeof(stype), sizeof(vtype), offsetof(stype, index));
    ORMA_PREDEFINED_TYPE_LIST(AT_PRE)
    ORMA_PAIR_TYPE_LIST(AT_PAIR_TYPE)
#undef AT_PRE
#undef AT_PAIR_TYPE
}

/* Is op defined for t (MPI's table, as orma.h states it, and ORMA_CHAR as
 * the host MPIs take it outside check mode)? */
static inline int at_op_defined(int op, const struct at_type *t)
{
    if (op < 0 || op >= ORMA_OP_COUNT)
        return 0;
    if (op == ORMA_REPLACE || op == ORMA_NO_OP)
        return 1;
    switch (t->cls) {
    case AT_INT: return op != ORMA_MINLOC && op != ORMA_MAXLOC;
    case AT_CHAR: return !at_check_mode() && op != ORMA_MINLOC && op != ORMA_MAXLOC;
    case AT_BYTE:
        return (!at_check_mode() && op != ORMA_MINLOC && op != ORMA_MAXLOC) || op == ORMA_BAND || op == ORMA_BOR ||
               op == ORMA_BXOR;
    case AT_FLT: return op == ORMA_SUM || op == ORMA_PROD || op == ORMA_MIN || op == ORMA_MAX;
    case AT_CPX: return op == ORMA_SUM || op == ORMA_PROD;
    case AT_BOOL: return op == ORMA_LAND || op == ORMA_LOR || op == ORMA_LXOR;
    case AT_PAIR: return op == ORMA_MINLOC || op == ORMA_MAXLOC;
    default: return 0;
    }
}

/* May t be used with orma_compare_and_swap? */
static inline int at_cas_allowed(const struct at_type *t)
{
    return t->cls == AT_INT || t->cls == AT_BYTE || t->cls == AT_BOOL;
}

/* ---- element access ---------------------------------------------------- */

/* An integer element widened to 64 bits (sign- or zero-extended). */
static inline uint64_t at_int_load(const struct at_type *t, const unsigned char *p)
{
    switch (t->size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return t->sign ? (uint64_t)(int64_t)(int8_t)v : v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return t->sign ? (uint64_t)(int64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return t->sign ? (uint64_t)(int64_t)(int32_t)v : v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* Store the low bytes of u as an element of t (truncation wraps). */
static inline void at_int_store(const struct at_type *t, unsigned char *p, uint64_t u)
{
    switch (t->size) {
    case 1: { uint8_t v = (uint8_t)u; memcpy(p, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)u; memcpy(p, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)u; memcpy(p, &v, 4); break; }
    default: memcpy(p, &u, 8); break;
    }
}

/* A floating element, or the value member of a pair, as long double (every
 * value the tests use is exact in every type). */
static inline long double at_num_load(const struct at_type *t, const unsigned char *p)
{
    switch (t->id) {
    case ORMA_TYPEID_FLOAT:
    case ORMA_TYPEID_FLOAT_INT: { float v; memcpy(&v, p, sizeof v); return v; }
    case ORMA_TYPEID_DOUBLE:
    case ORMA_TYPEID_DOUBLE_INT: { double v; memcpy(&v, p, sizeof v); return v; }
    case ORMA_TYPEID_LONG_INT: { long v; memcpy(&v, p, sizeof v); return (long double)v; }
    case ORMA_TYPEID_2INT: { int v; memcpy(&v, p, sizeof v); return v; }
    case ORMA_TYPEID_SHORT_INT: { short v; memcpy(&v, p, sizeof v); return v; }
    default: { long double v; memcpy(&v, p, sizeof v); return v; }
    }
}

static inline void at_num_store(const struct at_type *t, unsigned char *p, long double x)
{
    switch (t->id) {
    case ORMA_TYPEID_FLOAT:
    case ORMA_TYPEID_FLOAT_INT: { float v = (float)x; memcpy(p, &v, sizeof v); break; }
    case ORMA_TYPEID_DOUBLE:
    case ORMA_TYPEID_DOUBLE_INT: { double v = (double)x; memcpy(p, &v, sizeof v); break; }
    case ORMA_TYPEID_LONG_INT: { long v = (long)x; memcpy(p, &v, sizeof v); break; }
    case ORMA_TYPEID_2INT: { int v = (int)x; memcpy(p, &v, sizeof v); break; }
    case ORMA_TYPEID_SHORT_INT: { short v = (short)x; memcpy(p, &v, sizeof v); break; }
    default: { long double v = x; memcpy(p, &v, sizeof v); break; }
    }
}

static inline long double _Complex at_cpx_load(const struct at_type *t, const unsigned char *p)
{
    switch (t->id) {
    case ORMA_TYPEID_C_FLOAT_COMPLEX: { float _Complex v; memcpy(&v, p, sizeof v); return v; }
    case ORMA_TYPEID_C_DOUBLE_COMPLEX: { double _Complex v; memcpy(&v, p, sizeof v); return v; }
    default: { long double _Complex v; memcpy(&v, p, sizeof v); return v; }
    }
}

static inline void at_cpx_store(const struct at_type *t, unsigned char *p, long double re,
                                long double im)
{
    switch (t->id) {
    case ORMA_TYPEID_C_FLOAT_COMPLEX: {
        float v[2] = {(float)re, (float)im}; /* C11 6.2.5: same layout */
        memcpy(p, v, sizeof v);
        break;
    }
    case ORMA_TYPEID_C_DOUBLE_COMPLEX: {
        double v[2] = {(double)re, (double)im};
        memcpy(p, v, sizeof v);
        break;
    }
    default: {
        long double v[2] = {re, im};
        memcpy(p, v, sizeof v);
        break;
    }
    }
}

static inline int at_pair_index(const struct at_type *t, const unsigned char *p)
{
    int i;
    memcpy(&i, p + t->ioff, sizeof i);
    return i;
}

static inline void at_pair_store(const struct at_type *t, unsigned char *p, long double v, int index)
{
    at_num_store(t, p, v);
    memcpy(p + t->ioff, &index, sizeof index);
}

/* ---- values ------------------------------------------------------------ */

static inline uint32_t at_mix(uint32_t a, uint32_t b)
{
    return test_hash32(a * 0x9E3779B1u ^ test_hash32(b + 0x632BE5ABu));
}

/* Integers that hit the edges of every width: zero in the low bytes,
 * the largest and smallest values, all ones. */
static const uint64_t at_int_samples[] = {
    0, 1, UINT64_MAX, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000u,
    0xffffffffu, INT64_MAX, UINT64_C(0x8000000000000000), 12345, 3, UINT64_C(0xfffffffffffffff9),
    UINT64_C(0x5555555555555555), UINT64_C(0xaaaaaaaaaaaaaaaa), UINT64_C(0x0123456789abcdef),
    0x100, 0, 0x10000};
#define AT_NSAMPLES (sizeof at_int_samples / sizeof at_int_samples[0])

/* Element j of the stream seed, written at dst (padding left as it was). */
static inline void at_gen(const struct at_type *t, uint32_t seed, size_t j, unsigned char *dst)
{
    uint32_t h = at_mix(seed, (uint32_t)j);
    switch (t->cls) {
    case AT_INT:
    case AT_BYTE:
    case AT_CHAR: at_int_store(t, dst, at_int_samples[h % AT_NSAMPLES]); break;
    case AT_BOOL: {
        _Bool b = h & 1u;
        memcpy(dst, &b, sizeof b);
        break;
    }
    case AT_FLT: at_num_store(t, dst, (long double)((int)(h % 17u) - 8) * 0.25L); break;
    case AT_CPX:
        at_cpx_store(t, dst, (long double)((int)(h % 9u) - 4) * 0.5L,
                     (long double)((int)(h / 9u % 7u) - 3) * 0.25L);
        break;
    default: {
        /* Few values and indices, so that equal values (and equal
         * indices) are common: the tie rule of MINLOC/MAXLOC matters. */
        long double v = (long double)((int)(h % 4u) - 1);
        if (t->id == ORMA_TYPEID_FLOAT_INT || t->id == ORMA_TYPEID_DOUBLE_INT ||
            t->id == ORMA_TYPEID_LONG_DOUBLE_INT)
            v *= 0.5L;
        at_pair_store(t, dst, v, (int)(h / 4u % 5u));
        break;
    }
    }
}

/* Ties seen by the reference: [0] equal values, origin index smaller,
 * [1] equal values, origin index larger. */
static unsigned at_ties[2];

/* The sequential reference: tg = tg op org, for one element. */
static inline void at_apply(const struct at_type *t, int op, unsigned char *tg,
                            const unsigned char *org)
{
    if (op == ORMA_NO_OP)
        return;
    switch (t->cls) {
    case AT_INT:
    case AT_BYTE:
    case AT_CHAR: {
        uint64_t a = at_int_load(t, tg), b = at_int_load(t, org), r;
        int less = t->sign ? (int64_t)a < (int64_t)b : a < b;
        switch (op) {
        case ORMA_SUM: r = a + b; break;
        case ORMA_PROD: r = a * b; break;
        case ORMA_MIN: r = less ? a : b; break;
        case ORMA_MAX: r = less ? b : a; break;
        case ORMA_LAND: r = a && b; break;
        case ORMA_LOR: r = a || b; break;
        case ORMA_LXOR: r = !a != !b; break;
        case ORMA_BAND: r = a & b; break;
        case ORMA_BOR: r = a | b; break;
        case ORMA_BXOR: r = a ^ b; break;
        default: r = b; break; /* REPLACE */
        }
        at_int_store(t, tg, r);
        break;
    }
    case AT_BOOL: {
        _Bool a, b, r;
        memcpy(&a, tg, sizeof a);
        memcpy(&b, org, sizeof b);
        switch (op) {
        case ORMA_LAND: r = a && b; break;
        case ORMA_LOR: r = a || b; break;
        case ORMA_LXOR: r = a != b; break;
        default: r = b; break;
        }
        memcpy(tg, &r, sizeof r);
        break;
    }
    case AT_FLT: {
        long double a = at_num_load(t, tg), b = at_num_load(t, org), r;
        switch (op) {
        case ORMA_SUM: r = a + b; break;
        case ORMA_PROD: r = a * b; break;
        case ORMA_MIN: r = b < a ? b : a; break;
        case ORMA_MAX: r = b > a ? b : a; break;
        default: r = b; break;
        }
        at_num_store(t, tg, r);
        break;
    }
    case AT_CPX: {
        long double _Complex a = at_cpx_load(t, tg), b = at_cpx_load(t, org);
        long double ar = creall(a), ai = cimagl(a), br = creall(b), bi = cimagl(b);
        /* Written out, not a*b: the reference must not depend on how the
         * compiler treats complex infinities. */
        if (op == ORMA_SUM)
            at_cpx_store(t, tg, ar + br, ai + bi);
        else if (op == ORMA_PROD)
            at_cpx_store(t, tg, ar * br - ai * bi, ar * bi + ai * br);
        else
            at_cpx_store(t, tg, br, bi);
        break;
    }
    default: {
        long double av = at_num_load(t, tg), bv = at_num_load(t, org);
        int ai = at_pair_index(t, tg), bi = at_pair_index(t, org), take;
        if (op == ORMA_MINLOC || op == ORMA_MAXLOC) {
            if (av == bv && ai != bi)
                at_ties[bi < ai ? 0 : 1]++;
            if (av == bv)
                take = bi < ai;
            else
                take = op == ORMA_MINLOC ? bv < av : bv > av;
        } else {
            take = 1; /* REPLACE */
        }
        if (take)
            at_pair_store(t, tg, bv, bi);
        break;
    }
    }
}

/* Equal as values of t (members of a pair; no padding). */
static inline int at_same(const struct at_type *t, const unsigned char *a, const unsigned char *b)
{
    switch (t->cls) {
    case AT_FLT: return at_num_load(t, a) == at_num_load(t, b);
    case AT_CPX: {
        long double _Complex x = at_cpx_load(t, a), y = at_cpx_load(t, b);
        return creall(x) == creall(y) && cimagl(x) == cimagl(y);
    }
    case AT_PAIR:
        return at_num_load(t, a) == at_num_load(t, b) && at_pair_index(t, a) == at_pair_index(t, b);
    default: return memcmp(a, b, t->size) == 0;
    }
}

static inline void at_show(const struct at_type *t, const unsigned char *p, char *buf, size_t len)
{
    switch (t->cls) {
    case AT_FLT: snprintf(buf, len, "%Lg", at_num_load(t, p)); break;
    case AT_CPX: {
        long double _Complex x = at_cpx_load(t, p);
        snprintf(buf, len, "(%Lg, %Lg)", creall(x), cimagl(x));
        break;
    }
    case AT_PAIR: snprintf(buf, len, "{%Lg, %d}", at_num_load(t, p), at_pair_index(t, p)); break;
    default: snprintf(buf, len, "0x%llx", (unsigned long long)at_int_load(t, p)); break;
    }
}

/* count elements of t at got must equal those at want (stride extent). */
#define AT_EXPECT(t, got, want, count, what)                                   \
    at_expect_at(__FILE__, __LINE__, (t), (got), (want), (count), (what))
static inline void at_expect_at(const char *file, int line, const struct at_type *t,
                                const unsigned char *got, const unsigned char *want, size_t count,
                                const char *what)
{
    for (size_t i = 0; i < count; i++) {
        if (!at_same(t, got + i * t->extent, want + i * t->extent)) {
            char g[96], w[96];
            at_show(t, got + i * t->extent, g, sizeof g);
            at_show(t, want + i * t->extent, w, sizeof w);
            fprintf(stderr, "rank %d: %s:%d: %s (%s): element %zu is %s, expected %s\n",
                    check_rank(), file, line, what, t->name, i, g, w);
            exit(1);
        }
    }
}

/* A request variable's contents before a call that may write it. */
#define AT_REQ_UNSET ((orma_request)0x5eed5eed5eed5eedu)

/* The status rc must be want; an error must leave a message naming the
 * rank (as CHECK_ERR, with a description of the call). */
#define AT_RC(rc, want, what) at_rc_at(__FILE__, __LINE__, (rc), (want), (what))
static inline void at_rc_at(const char *file, int line, int rc, int want, const char *what)
{
    char me[32];
    if (rc != want) {
        fprintf(stderr, "rank %d: %s:%d: %s returned %d (%s), expected %d (%s): %s\n", check_rank(),
                file, line, what, rc, orma_strerror(rc), want, orma_strerror(want),
                rc ? orma_error_message() : "");
        exit(1);
    }
    snprintf(me, sizeof me, "rank %d", check_rank());
    if (want != ORMA_SUCCESS && !strstr(orma_error_message(), me)) {
        fprintf(stderr, "rank %d: %s:%d: %s: message \"%s\" does not name the rank\n", check_rank(),
                file, line, what, orma_error_message());
        exit(1);
    }
}

#endif
