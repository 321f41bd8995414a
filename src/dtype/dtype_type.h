/* dtype_type.h -- datatype objects.  Today: the predefined element types,
 * each contiguous; derived types extend struct orma_type_s later. */
#ifndef ORMA_DTYPE_TYPE_H
#define ORMA_DTYPE_TYPE_H

#include <orma.h>
#include <stddef.h>
#include <stdint.h>

#define DTYPE_MAGIC 0x74797065u /* "type" */

struct orma_type_s {
    uint32_t magic;
    uint32_t id;   /* enum orma_typeid for predefined types */
    size_t size;   /* bytes of data in one element */
    size_t extent; /* bytes one element spans */
    int contiguous;
    int predefined;
    const char *name;
    char pad[ORMA_TYPE_STRIDE - 2 * sizeof(uint32_t) - 2 * sizeof(size_t) - 2 * sizeof(int) - sizeof(char *)];
};

_Static_assert(sizeof(struct orma_type_s) == ORMA_TYPE_STRIDE, "predefined table stride");

struct orma_type_table_s {
    struct orma_type_s types[ORMA_TYPEID_COUNT];
};

/* True for a handle that points at a live type object.  A pointer that is
 * not a type at all cannot always be told apart; predefined handles and NULL
 * can. */
static inline int dtype_is_valid(orma_type t)
{
    if (!t)
        return 0;
    uintptr_t lo = (uintptr_t)&orma_predefined_types.types[0];
    uintptr_t p = (uintptr_t)t;
    return p >= lo && p < lo + sizeof orma_predefined_types && (p - lo) % ORMA_TYPE_STRIDE == 0;
}

#endif
