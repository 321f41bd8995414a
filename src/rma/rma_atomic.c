/* rma_atomic.c -- hardware atomics for the accumulate family.
 *
 * Every element is loaded, combined and stored as one unit; the loads and
 * the compare-and-swap are on integers of the element's width, so floating
 * values are compared bit for bit (a NaN never makes the loop spin).  A
 * kernel that leaves the bits unchanged (MIN that loses, NO_OP) stores
 * nothing: the atomic load already was the element's linearization point. */
#include "rma_atomic.h"
#include "dtype_type.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#define RMA_HAVE_CAS16 1
typedef unsigned __int128 rma_u128;

/* lock cmpxchg16b, written out: the compiler's 16-byte builtins may call a
 * library whose fallback (and ThreadSanitizer's emulation) is a lock
 * private to the process, which is no atomicity at all between processes.
 * Returns the value the memory held; the swap happened if it equals old. */
static inline rma_u128 rma_cas16(rma_u128 *p, rma_u128 old, rma_u128 nv)
{
    uint64_t lo = (uint64_t)old, hi = (uint64_t)(old >> 64);
    __asm__ __volatile__("lock cmpxchg16b %0"
                         : "+m"(*p), "+a"(lo), "+d"(hi)
                         : "b"((uint64_t)nv), "c"((uint64_t)(nv >> 64))
                         : "memory", "cc");
    return ((rma_u128)hi << 64) | lo;
}
#else
#define RMA_HAVE_CAS16 0
#endif

struct rma_acc_plan rma_plans[ORMA_OP_COUNT][ORMA_TYPEID_COUNT];

static int rma_cas16_available(void)
{
#if RMA_HAVE_CAS16
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_CMPXCHG16B);
#else
    return 0;
#endif
}

void rma_atomic_init(void)
{
    int cas16 = rma_cas16_available();
    for (int op = 0; op < ORMA_OP_COUNT; op++) {
        for (int id = 0; id < ORMA_TYPEID_COUNT; id++) {
            struct rma_acc_plan *p = &rma_plans[op][id];
            const struct orma_type_s *t = &orma_predefined_types.types[id];
            p->kernel = dtype_op_kernel(op, id);
            p->extent = (uint32_t)t->extent;
            p->writes = op != ORMA_NO_OP;
            size_t e = t->extent;
            p->width = (e == 1 || e == 2 || e == 4 || e == 8 || (e == 16 && cas16)) ? (uint8_t)e : 0;
            p->native = RMA_NAT_KERNEL;
            int bits = dtype_is_integer(id) || id == ORMA_TYPEID_BYTE;
            if (op == ORMA_NO_OP)
                p->native = RMA_NAT_LOAD;
            else if (op == ORMA_REPLACE && t->contiguous)
                p->native = RMA_NAT_XCHG; /* a pair's padding is not the origin's to write */
            else if (op == ORMA_SUM && dtype_is_integer(id))
                p->native = RMA_NAT_ADD;
            else if (op == ORMA_BAND && bits)
                p->native = RMA_NAT_AND;
            else if (op == ORMA_BOR && bits)
                p->native = RMA_NAT_OR;
            else if (op == ORMA_BXOR && bits)
                p->native = RMA_NAT_XOR;
            if (p->width == 16 && p->native != RMA_NAT_LOAD)
                p->native = RMA_NAT_KERNEL; /* cmpxchg16b is all there is */
        }
    }
}

/* The case of one native read-modify-write instruction. */
#define RMA_ATOMIC_RMW(NAT, fn)                                                                    \
    case RMA_NAT_##NAT:                                                                            \
        old = fn(&t[i], v, __ATOMIC_ACQ_REL);                                                      \
        break;

/* One width: U is the unsigned integer of that many bytes. */
#define RMA_ATOMIC_WIDTH(W, U)                                                                     \
    static void rma_atomic_acc_##W(const struct rma_acc_plan *p, U *t, const char *o, char *r,    \
                                   size_t count)                                                   \
    {                                                                                              \
        for (size_t i = 0; i < count; i++) {                                                       \
            U v = 0, old;                                                                          \
            if (p->native != RMA_NAT_LOAD && p->native != RMA_NAT_KERNEL)                          \
                memcpy(&v, o + i * W, W);                                                          \
            switch (p->native) {                                                                   \
                RMA_ATOMIC_RMW(ADD, __atomic_fetch_add)                                            \
                RMA_ATOMIC_RMW(AND, __atomic_fetch_and)                                            \
                RMA_ATOMIC_RMW(OR, __atomic_fetch_or)                                              \
                RMA_ATOMIC_RMW(XOR, __atomic_fetch_xor)                                            \
                RMA_ATOMIC_RMW(XCHG, __atomic_exchange_n)                                          \
            case RMA_NAT_LOAD:                                                                     \
                old = __atomic_load_n(&t[i], __ATOMIC_ACQUIRE);                                    \
                break;                                                                             \
            default:                                                                               \
                memcpy(&v, o + i * W, W); /* the kernel needs it aligned */                        \
                old = __atomic_load_n(&t[i], __ATOMIC_RELAXED);                                    \
                for (;;) {                                                                         \
                    U nv = old;                                                                    \
                    p->kernel(&nv, &v, 1);                                                         \
                    if (nv == old ||                                                               \
                        __atomic_compare_exchange_n(&t[i], &old, nv, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) \
                        break;                                                                     \
                }                                                                                  \
                break;                                                                             \
            }                                                                                      \
            if (r)                                                                                 \
                memcpy(r + i * W, &old, W);                                                        \
        }                                                                                          \
    }

RMA_ATOMIC_WIDTH(1, uint8_t)
RMA_ATOMIC_WIDTH(2, uint16_t)
RMA_ATOMIC_WIDTH(4, uint32_t)
RMA_ATOMIC_WIDTH(8, uint64_t)

#if RMA_HAVE_CAS16
/* 16 bytes: cmpxchg16b only.  Even the first read is a
 * compare-and-swap (of 0 with 0), since two 8-byte loads could tear and the
 * unchanged-bits shortcut must never act on a torn value. */
static void rma_atomic_acc_16(const struct rma_acc_plan *p, rma_u128 *t, const char *o, char *r, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        rma_u128 v = 0;
        if (p->native != RMA_NAT_LOAD)
            memcpy(&v, o + i * 16, 16);
        rma_u128 old = rma_cas16(&t[i], 0, 0);
        while (p->native != RMA_NAT_LOAD) {
            rma_u128 nv = old;
            p->kernel(&nv, &v, 1);
            if (nv == old)
                break;
            rma_u128 seen = rma_cas16(&t[i], old, nv);
            if (seen == old)
                break;
            old = seen;
        }
        if (r)
            memcpy(r + i * 16, &old, 16);
    }
}
#endif

void rma_atomic_acc(const struct rma_acc_plan *p, void *target, const void *origin, void *result, size_t count)
{
#define RMA_ATOMIC_CALL(W)                                                                         \
    case W:                                                                                        \
        rma_atomic_acc_##W(p, target, origin, result, count);                                      \
        break;
    switch (p->width) {
        RMA_ATOMIC_CALL(1)
        RMA_ATOMIC_CALL(2)
        RMA_ATOMIC_CALL(4)
        RMA_ATOMIC_CALL(8)
#if RMA_HAVE_CAS16
    case 16:
        rma_atomic_acc_16(p, target, origin, result, count);
        break;
#endif
    default:
        break; /* never planned */
    }
}

#define RMA_CAS_WIDTH(W, U)                                                                        \
    case W: {                                                                                      \
        U want, v;                                                                                 \
        memcpy(&want, compare, W);                                                                 \
        memcpy(&v, origin, W);                                                                     \
        __atomic_compare_exchange_n((U *)target, &want, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); \
        memcpy(result, &want, W);                                                                  \
        break;                                                                                     \
    }

void rma_atomic_cas(unsigned width, void *target, const void *origin, const void *compare, void *result)
{
    switch (width) {
        RMA_CAS_WIDTH(1, uint8_t)
        RMA_CAS_WIDTH(2, uint16_t)
        RMA_CAS_WIDTH(4, uint32_t)
        RMA_CAS_WIDTH(8, uint64_t)
    default:
        break;
    }
}
