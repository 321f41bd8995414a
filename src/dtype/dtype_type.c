/* dtype_type.c -- the predefined type objects behind ORMA_INT32 and friends. */
#include "dtype_type.h"

#define DTYPE_PREDEFINED(name_, ctype)                                                             \
    [ORMA_TYPEID_##name_] = {DTYPE_MAGIC, ORMA_TYPEID_##name_, sizeof(ctype), sizeof(ctype), 1, 1, \
                             "ORMA_" #name_, {0}},

/* A pair's data is its two members; the struct may hold padding after them
 * (double-int: 12 bytes of data in 16), so it is not contiguous. */
#define DTYPE_PAIR(name_, pair, vtype)                                                             \
    [ORMA_TYPEID_##name_] = {DTYPE_MAGIC, ORMA_TYPEID_##name_, sizeof(vtype) + sizeof(int), sizeof(pair), \
                             sizeof(vtype) + sizeof(int) == sizeof(pair), 1, "ORMA_" #name_, {0}},

struct orma_type_table_s orma_predefined_types = {
    {ORMA_PREDEFINED_TYPE_LIST(DTYPE_PREDEFINED) ORMA_PAIR_TYPE_LIST(DTYPE_PAIR)}};
