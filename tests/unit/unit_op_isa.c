/* unit_op_isa.c -- the kernels of wider instruction sets (dtype_op_kernels.h:
 * AVX2, AVX-512; complex types keep the baseline's) against the baseline's: the same
 * (op, type) pairs defined, and the same bytes left in the target for every
 * kernel, on random data (any bit pattern; C_BOOL 0 and 1), at counts that
 * leave vector remainders, with the origin and target at every alignment
 * an element allows.  One exception: where both operands of a float or
 * double addition or product are NaNs, which NaN's payload comes out is the
 * instruction's operand order, which IEEE 754 leaves open and compilers
 * swap; there a NaN must meet a NaN.  The tables the
 * CPU cannot run are skipped, named on stdout; unit_ops checks the chosen
 * table's results against a reference. */
#include "check.h"
#include "dtype_op.h"
#include "dtype_type.h"

#include <stdint.h>

#define MAXN 1100
#define MAXE 32 /* the widest predefined element: long double complex */

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned char next_byte(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned char)rng;
}

/* The float lanes of a type: 4 (float, float complex), 8 (double, double
 * complex), or 0 (compared byte for byte). */
static size_t lane_of(int id)
{
    switch (id) {
    case ORMA_TYPEID_FLOAT: case ORMA_TYPEID_C_FLOAT_COMPLEX: return 4;
    case ORMA_TYPEID_DOUBLE: case ORMA_TYPEID_C_DOUBLE_COMPLEX: return 8;
    default: return 0;
    }
}

static int is_nan(const unsigned char *p, size_t lane)
{
    if (lane == 4) {
        float f;
        memcpy(&f, p, 4);
        return f != f;
    }
    double d;
    memcpy(&d, p, 8);
    return d != d;
}

/* The first byte where a and b differ, NaN lanes meeting NaN lanes
 * excepted; bytes when none. */
static size_t differs(const unsigned char *a, const unsigned char *b, size_t bytes, size_t lane)
{
    if (!lane) {
        for (size_t i = 0; i < bytes; i++)
            if (a[i] != b[i])
                return i;
        return bytes;
    }
    for (size_t i = 0; i < bytes; i += lane)
        if (memcmp(a + i, b + i, lane) && !(is_nan(a + i, lane) && is_nan(b + i, lane)))
            return i;
    return bytes;
}

static void fill(unsigned char *p, size_t n, int is_bool)
{
    for (size_t i = 0; i < n; i++)
        p[i] = is_bool ? next_byte() & 1 : next_byte();
}

int main(void)
{
    static const char *const isa_names[DTYPE_ISA_N] = {"baseline", "AVX2", "AVX-512"};
    static _Alignas(64) unsigned char t0[MAXN * MAXE + 64], t1[MAXN * MAXE + 64], o[MAXN * MAXE + 64];
    const size_t counts[] = {0, 1, 2, 3, 5, 7, 8, 15, 17, 31, 33, 63, 64, 65, 127, 255, 257, 1000, MAXN};
    int compared = 0;
    CHECK(dtype_op_isa_ok(DTYPE_ISA_BASE));
    CHECK(dtype_op_isa_ok(dtype_op_isa()));
    for (int isa = DTYPE_ISA_BASE + 1; isa < DTYPE_ISA_N; isa++) {
        if (!dtype_op_isa_ok(isa)) {
            printf("%s: not on this CPU, not compared\n", isa_names[isa]);
            continue;
        }
        int pairs = 0;
        for (int id = 0; id < ORMA_TYPEID_COUNT; id++) {
            size_t ext = orma_predefined_types.types[id].extent;
            int is_bool = id == ORMA_TYPEID_C_BOOL;
            for (int op = 0; op < ORMA_OP_COUNT; op++) {
                dtype_op_fn base = dtype_op_kernel_isa(DTYPE_ISA_BASE, op, id);
                dtype_op_fn wide = dtype_op_kernel_isa(isa, op, id);
                CHECK(!base == !wide);
                if (!base)
                    continue;
                pairs++;
                for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                    size_t n = counts[c], bytes = n * ext;
                    /* element-aligned shifts of each buffer within a line */
                    for (size_t ts = 0; ts < 64; ts += ext < 16 ? ext : 16) {
                        size_t os = (ts * 3 + ext) % 64 / ext * ext;
                        fill(t0 + ts, bytes, is_bool);
                        memcpy(t1 + ts, t0 + ts, bytes);
                        fill(o + os, bytes, is_bool);
                        base(t0 + ts, o + os, n);
                        wide(t1 + ts, o + os, n);
                        size_t i = differs(t0 + ts, t1 + ts, bytes, lane_of(id));
                        if (i < bytes)
                            fprintf(stderr, "%s %s on %s, count %zu: element %zu differs from the baseline's\n",
                                    isa_names[isa], dtype_op_name(op), orma_predefined_types.types[id].name, n,
                                    i / ext);
                        CHECK(i == bytes);
                    }
                }
            }
        }
        CHECK(pairs > 100);
        printf("%s: %d kernels give the baseline's bytes\n", isa_names[isa], pairs);
        compared++;
    }
    printf("chosen for this CPU: %s; %d wider tables compared\n", isa_names[dtype_op_isa()], compared);
    return 0;
}
