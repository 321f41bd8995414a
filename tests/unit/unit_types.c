/* unit_types.c -- predefined type handles: sizes match the C types, names,
 * and invalid handles are refused without being followed.  The value-index
 * pair types of MINLOC/MAXLOC: size is the data of their two members (as
 * MPI_Type_size), extent the size of the C struct, names "ORMA_2INT" etc. */
#include "check.h"

#include <complex.h>
#include <stddef.h>

int main(void)
{
    size_t s;
#define T(name, ctype)                                                                              \
    CHECK_OK(orma_type_size(ORMA_##name, &s));                                                      \
    CHECK(s == sizeof(ctype));                                                                      \
    CHECK(!strcmp(orma_type_name(ORMA_##name), "ORMA_" #name));
    ORMA_PREDEFINED_TYPE_LIST(T)
#undef T
    /* Every other predefined type spans exactly its size. */
#define E(name, ctype)                                                                              \
    CHECK_OK(orma_type_extent(ORMA_##name, &s));                                                    \
    CHECK(s == sizeof(ctype));
    ORMA_PREDEFINED_TYPE_LIST(E)
#undef E
#define P(name, stype, vtype)                                                                       \
    CHECK_OK(orma_type_size(ORMA_##name, &s));                                                      \
    CHECK(s == sizeof(vtype) + sizeof(int));                                                        \
    CHECK_OK(orma_type_extent(ORMA_##name, &s));                                                    \
    CHECK(s == sizeof(stype));                                                                      \
    CHECK(!strcmp(orma_type_name(ORMA_##name), "ORMA_" #name));                                     \
    CHECK(offsetof(stype, value) == 0 && offsetof(stype, index) >= sizeof(vtype));
    ORMA_PAIR_TYPE_LIST(P)
#undef P
    /* The layout MPI documents for MPI_DOUBLE_INT where double is 8-aligned:
     * 12 bytes of data, padded to 16. */
    if (sizeof(double) == 8 && _Alignof(double) == 8 && sizeof(int) == 4) {
        CHECK_OK(orma_type_size(ORMA_DOUBLE_INT, &s));
        CHECK(s == 12);
        CHECK_OK(orma_type_extent(ORMA_DOUBLE_INT, &s));
        CHECK(s == 16);
        CHECK_OK(orma_type_size(ORMA_2INT, &s));
        CHECK(s == 8);
        CHECK_OK(orma_type_extent(ORMA_2INT, &s));
        CHECK(s == 8);
    }
    /* Every handle is distinct, and the table has exactly the listed types. */
    {
#define H(name, ...) ORMA_##name,
        const orma_type all[] = {ORMA_PREDEFINED_TYPE_LIST(H) ORMA_PAIR_TYPE_LIST(H)};
#undef H
        size_t n = sizeof all / sizeof all[0];
        CHECK(n == ORMA_TYPEID_COUNT);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                CHECK(all[i] != all[j] && strcmp(orma_type_name(all[i]), orma_type_name(all[j])));
    }
    /* Bad handles: an error, and the output left alone. */
    s = 777;
    CHECK(orma_type_extent(NULL, &s) == ORMA_ERR_TYPE);
    CHECK(orma_type_extent((orma_type)(void *)((char *)ORMA_DOUBLE_INT + 8), &s) == ORMA_ERR_TYPE);
    CHECK(orma_type_extent((orma_type)(void *)((char *)ORMA_LONG_DOUBLE_INT + ORMA_TYPE_STRIDE), &s) ==
          ORMA_ERR_TYPE);
    CHECK(orma_type_size((orma_type)(void *)((char *)ORMA_LONG_DOUBLE_INT + ORMA_TYPE_STRIDE), &s) ==
          ORMA_ERR_TYPE);
    CHECK(s == 777);
    CHECK(!strcmp(orma_type_name((orma_type)(void *)((char *)ORMA_LONG_DOUBLE_INT + ORMA_TYPE_STRIDE)),
                  "invalid type"));
    CHECK(orma_type_size(NULL, &s) == ORMA_ERR_TYPE);
    CHECK(orma_type_size((orma_type)(void *)((char *)ORMA_INT + 8), &s) == ORMA_ERR_TYPE);
    CHECK(orma_type_size((orma_type)(uintptr_t)0x10, &s) == ORMA_ERR_TYPE);
    CHECK(!strcmp(orma_type_name(NULL), "invalid type"));
    return 0;
}
