/* mpi_types.c -- MPI's predefined datatypes and ops as orma's.  The
 * handles are link-time constants in MPICH and addresses in Open MPI, so
 * the tables are filled at MPI_Init (or at first use, before it). */
#include "mpi_orma.h"

#include <stddef.h>

struct mpi_type_pair mpi_types[MPI_TYPES_MAX];
size_t mpi_ntypes;
unsigned char mpi_type_index[MPI_TYPE_SLOTS];
struct mpi_op_pair mpi_ops[MPI_OPS];
int mpi_ops_filled;

/* The types whose layout is the host's to say, by the size it gives them:
 * Fortran's (it knows its Fortran compiler's) -- integers (LOGICAL too: a
 * Fortran logical op on gfortran's 1 and 0 is C's), reals, complexes,
 * characters and the MINLOC/MAXLOC pair of integers -- and C's with no
 * orma type of their own: MPI_WCHAR, MPI_COUNT and MPI_OFFSET as integers,
 * MPI_PACKED as bytes, the C++ bool and complexes.  None where the host
 * lacks the type (MPI_DATATYPE_NULL, size 0) or the size has no orma type;
 * none for REAL*16 and COMPLEX*32, which gfortran keeps in IEEE quad
 * precision, not in long double. */
static void mpi_types_fill_sized(void)
{
    const struct {
        MPI_Datatype mpi;
        char kind; /* integer, real, complex, character, pair, bytes, logical */
    } f[] = {
        {MPI_INTEGER, 'i'},  {MPI_LOGICAL, 'i'},  {MPI_REAL, 'r'},     {MPI_DOUBLE_PRECISION, 'r'},
        {MPI_COMPLEX, 'c'},  {MPI_DOUBLE_COMPLEX, 'c'}, {MPI_CHARACTER, 'b'}, {MPI_INTEGER1, 'i'},
        {MPI_INTEGER2, 'i'}, {MPI_INTEGER4, 'i'}, {MPI_INTEGER8, 'i'}, {MPI_REAL4, 'r'},
        {MPI_REAL8, 'r'},    {MPI_COMPLEX8, 'c'}, {MPI_COMPLEX16, 'c'}, {MPI_2INTEGER, 'p'},
        {MPI_WCHAR, 'i'},    {MPI_PACKED, 'B'},   {MPI_COUNT, 'i'},    {MPI_OFFSET, 'i'},
        {MPI_CXX_BOOL, 'l'}, {MPI_CXX_FLOAT_COMPLEX, 'c'}, {MPI_CXX_DOUBLE_COMPLEX, 'c'},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0] && mpi_ntypes < sizeof mpi_types / sizeof mpi_types[0]; i++) {
        int size = 0;
        if (f[i].mpi == MPI_DATATYPE_NULL || PMPI_Type_size(f[i].mpi, &size) != MPI_SUCCESS)
            continue;
        orma_type o = NULL;
        switch (f[i].kind) {
        case 'i':
            o = size == 1 ? ORMA_INT8 : size == 2 ? ORMA_INT16 : size == 4 ? ORMA_INT32 : size == 8 ? ORMA_INT64 : NULL;
            break;
        case 'r': o = size == 4 ? ORMA_FLOAT : size == 8 ? ORMA_DOUBLE : NULL; break;
        case 'c': o = size == 8 ? ORMA_C_FLOAT_COMPLEX : size == 16 ? ORMA_C_DOUBLE_COMPLEX : NULL; break;
        case 'b': o = size == 1 ? ORMA_CHAR : NULL; break;
        case 'B': o = size == 1 ? ORMA_BYTE : NULL; break;
        case 'l': o = size == (int)sizeof(_Bool) ? ORMA_C_BOOL : NULL; break;
        default: o = size == 2 * (int)sizeof(int) ? ORMA_2INT : NULL; break;
        }
        if (o)
            mpi_types[mpi_ntypes++] = (struct mpi_type_pair){f[i].mpi, o};
    }
}

static void mpi_types_fill(void)
{
    /* the usual ones first: the lookup is a scan */
    const struct mpi_type_pair t[] = {
        {MPI_DOUBLE, ORMA_DOUBLE}, {MPI_INT, ORMA_INT}, {MPI_BYTE, ORMA_BYTE}, {MPI_CHAR, ORMA_CHAR},
        {MPI_FLOAT, ORMA_FLOAT}, {MPI_LONG, ORMA_LONG}, {MPI_UNSIGNED_LONG, ORMA_UNSIGNED_LONG},
        {MPI_LONG_LONG, ORMA_LONG_LONG}, {MPI_LONG_LONG_INT, ORMA_LONG_LONG},
        {MPI_UNSIGNED_LONG_LONG, ORMA_UNSIGNED_LONG_LONG}, {MPI_INT64_T, ORMA_INT64}, {MPI_UINT64_T, ORMA_UINT64},
        {MPI_INT32_T, ORMA_INT32}, {MPI_UINT32_T, ORMA_UINT32}, {MPI_INT16_T, ORMA_INT16},
        {MPI_UINT16_T, ORMA_UINT16}, {MPI_INT8_T, ORMA_INT8}, {MPI_UINT8_T, ORMA_UINT8},
        {MPI_SIGNED_CHAR, ORMA_SIGNED_CHAR}, {MPI_UNSIGNED_CHAR, ORMA_UNSIGNED_CHAR}, {MPI_SHORT, ORMA_SHORT},
        {MPI_UNSIGNED_SHORT, ORMA_UNSIGNED_SHORT}, {MPI_UNSIGNED, ORMA_UNSIGNED},
        {MPI_LONG_DOUBLE, ORMA_LONG_DOUBLE}, {MPI_C_BOOL, ORMA_C_BOOL}, {MPI_C_FLOAT_COMPLEX, ORMA_C_FLOAT_COMPLEX},
        {MPI_C_COMPLEX, ORMA_C_FLOAT_COMPLEX}, {MPI_C_DOUBLE_COMPLEX, ORMA_C_DOUBLE_COMPLEX},
        {MPI_C_LONG_DOUBLE_COMPLEX, ORMA_C_LONG_DOUBLE_COMPLEX}, {MPI_AINT, ORMA_AINT},
        {MPI_FLOAT_INT, ORMA_FLOAT_INT}, {MPI_DOUBLE_INT, ORMA_DOUBLE_INT}, {MPI_LONG_INT, ORMA_LONG_INT},
        {MPI_2INT, ORMA_2INT}, {MPI_SHORT_INT, ORMA_SHORT_INT}, {MPI_LONG_DOUBLE_INT, ORMA_LONG_DOUBLE_INT},
    };
    _Static_assert(sizeof t / sizeof t[0] <= sizeof mpi_types / sizeof mpi_types[0], "table too small");
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        mpi_types[i] = t[i];
    mpi_ntypes = sizeof t / sizeof t[0];
    mpi_types_fill_sized();
}

static void mpi_types_index(void)
{
    _Static_assert(sizeof mpi_types / sizeof mpi_types[0] < MPI_TYPE_SLOTS, "the index needs free slots");
    for (size_t i = 0; i < mpi_ntypes; i++) {
        size_t h = mpi_type_hash(mpi_types[i].mpi);
        while (mpi_type_index[h] && mpi_types[mpi_type_index[h] - 1].mpi != mpi_types[i].mpi)
            h = (h + 1) % MPI_TYPE_SLOTS;
        if (!mpi_type_index[h]) /* a handle listed twice (MPI_LONG_LONG_INT) keeps its first entry */
            mpi_type_index[h] = (unsigned char)(i + 1);
    }
}

void mpi_types_init(void)
{
    mpi_types_fill();
    mpi_types_index();
}

/* Filled once (a table built on the stack cost every accumulate 1.5 ns). */
void mpi_ops_fill(void)
{
    const MPI_Op m[] = {MPI_SUM,  MPI_PROD, MPI_MIN,    MPI_MAX,    MPI_LAND,    MPI_LOR,     MPI_LXOR,
                        MPI_BAND, MPI_BOR,  MPI_BXOR,   MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
    const int o[] = {ORMA_SUM,  ORMA_PROD, ORMA_MIN,    ORMA_MAX,    ORMA_LAND,    ORMA_LOR,     ORMA_LXOR,
                     ORMA_BAND, ORMA_BOR,  ORMA_BXOR,   ORMA_MINLOC, ORMA_MAXLOC, ORMA_REPLACE, ORMA_NO_OP};
    _Static_assert(sizeof m / sizeof m[0] == MPI_OPS, "one entry per op");
    for (size_t i = 0; i < MPI_OPS; i++)
        mpi_ops[i] = (struct mpi_op_pair){m[i], o[i]};
    mpi_ops_filled = 1;
}
