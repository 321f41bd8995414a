/* dtype_op.c -- which reduction kernel serves an op on a type: the type's
 * class, and the table of the instruction set chosen once per process
 * (dtype_op_kernels.h). */
#include "dtype_op.h"
#include "util_config.h"

#include <stdatomic.h>
#include <stdint.h>

#define INT_CLASS(T) ((T)-1 < (T)1 ? (sizeof(T) == 1 ? DC_I8 : sizeof(T) == 2 ? DC_I16 : sizeof(T) == 4 ? DC_I32 : DC_I64) \
                                : (sizeof(T) == 1 ? DC_U8 : sizeof(T) == 2 ? DC_U16 : sizeof(T) == 4 ? DC_U32 : DC_U64))

static const unsigned char dtype_class_of[ORMA_TYPEID_COUNT] = {
    [ORMA_TYPEID_BYTE] = DC_BYTE,
    [ORMA_TYPEID_CHAR] = DC_CHAR, /* MPI: text, not a number -- REPLACE and NO_OP only */
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
    [ORMA_TYPEID_INT8] = DC_I8, [ORMA_TYPEID_INT16] = DC_I16, [ORMA_TYPEID_INT32] = DC_I32, [ORMA_TYPEID_INT64] = DC_I64,
    [ORMA_TYPEID_UINT8] = DC_U8, [ORMA_TYPEID_UINT16] = DC_U16, [ORMA_TYPEID_UINT32] = DC_U32,
    [ORMA_TYPEID_UINT64] = DC_U64,
    [ORMA_TYPEID_FLOAT] = DC_F, [ORMA_TYPEID_DOUBLE] = DC_D, [ORMA_TYPEID_LONG_DOUBLE] = DC_LD,
    [ORMA_TYPEID_C_BOOL] = DC_BOOL,
    [ORMA_TYPEID_C_FLOAT_COMPLEX] = DC_CF, [ORMA_TYPEID_C_DOUBLE_COMPLEX] = DC_CD,
    [ORMA_TYPEID_C_LONG_DOUBLE_COMPLEX] = DC_CLD,
    [ORMA_TYPEID_AINT] = INT_CLASS(intptr_t),
    [ORMA_TYPEID_FLOAT_INT] = DC_FI, [ORMA_TYPEID_DOUBLE_INT] = DC_DI, [ORMA_TYPEID_LONG_INT] = DC_LI,
    [ORMA_TYPEID_2INT] = DC_II, [ORMA_TYPEID_SHORT_INT] = DC_SI, [ORMA_TYPEID_LONG_DOUBLE_INT] = DC_LDI,
};

/* The class whose kernels serve type id.  MPI defines only REPLACE and
 * NO_OP on ORMA_CHAR (text, not numbers), and only the bitwise ops besides
 * on ORMA_BYTE, but both host MPIs take the arithmetic and logical ops on
 * them too, as on the C integer types char and unsigned char, and programs
 * use them (MPICH's own tests sum MPI_BYTEs): so does orma, unless
 * ORMA_CHECK asks for the standard's letter. */
static int dtype_class(int typeid_)
{
    int c = dtype_class_of[typeid_];
    if (util_config.check)
        return c;
    return c == DC_CHAR ? INT_CLASS(char) : c == DC_BYTE ? DC_U8 : c;
}

/* Chosen at the first lookup; a race chooses the same table twice. */
static _Atomic int dtype_isa_chosen = -1;

int dtype_op_isa_ok(int isa)
{
    __builtin_cpu_init();
    switch (isa) {
    case DTYPE_ISA_BASE: return 1;
    case DTYPE_ISA_AVX2: return __builtin_cpu_supports("avx2");
    case DTYPE_ISA_AVX512:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512dq");
    default: return 0;
    }
}

int dtype_op_isa(void)
{
    int isa = atomic_load_explicit(&dtype_isa_chosen, memory_order_relaxed);
    if (isa < 0) {
        isa = DTYPE_ISA_N - 1;
        while (!dtype_op_isa_ok(isa))
            isa--;
        atomic_store_explicit(&dtype_isa_chosen, isa, memory_order_relaxed);
    }
    return isa;
}

dtype_op_fn dtype_op_kernel_isa(int isa, int op, int typeid_)
{
    if (op < 0 || op >= ORMA_OP_COUNT || typeid_ < 0 || typeid_ >= ORMA_TYPEID_COUNT)
        return NULL;
    int c = dtype_class(typeid_);
    /* Complex types keep the baseline's kernels: a wider table's product
     * gave (-inf, inf) where the baseline's gives (-inf, nan), Annex G's
     * infinities taken another way (unit_op_isa). */
    if (c == DC_CF || c == DC_CD || c == DC_CLD)
        isa = DTYPE_ISA_BASE;
    return isa == DTYPE_ISA_AVX512 ? dtype_kernels_avx512[c][op]
           : isa == DTYPE_ISA_AVX2 ? dtype_kernels_avx2[c][op]
                                   : dtype_kernels_base[c][op];
}

dtype_op_fn dtype_op_kernel(int op, int typeid_)
{
    return dtype_op_kernel_isa(dtype_op_isa(), op, typeid_);
}

int dtype_is_integer(int typeid_)
{
    if (typeid_ < 0 || typeid_ >= ORMA_TYPEID_COUNT)
        return 0;
    int c = dtype_class(typeid_);
    return c >= DC_I8 && c <= DC_U64;
}

int dtype_cas_allowed(int typeid_)
{
    if (typeid_ < 0 || typeid_ >= ORMA_TYPEID_COUNT)
        return 0;
    int c = dtype_class_of[typeid_];
    return (c >= DC_I8 && c <= DC_U64) || c == DC_BOOL || c == DC_BYTE;
}

#define OP_NAME(name) "ORMA_" #name,
static const char *const dtype_op_names[ORMA_OP_COUNT] = {ORMA_OP_LIST(OP_NAME)};

const char *dtype_op_name(int op)
{
    return op >= 0 && op < ORMA_OP_COUNT ? dtype_op_names[op] : "invalid op";
}
