/* unit_types.c -- predefined type handles: sizes match the C types, names,
 * and invalid handles are refused without being followed. */
#include "check.h"

#include <complex.h>

int main(void)
{
    size_t s;
#define T(name, ctype)                                                                              \
    CHECK_OK(orma_type_size(ORMA_##name, &s));                                                      \
    CHECK(s == sizeof(ctype));                                                                      \
    CHECK(!strcmp(orma_type_name(ORMA_##name), "ORMA_" #name));
    ORMA_PREDEFINED_TYPE_LIST(T)
#undef T
    CHECK(orma_type_size(NULL, &s) == ORMA_ERR_TYPE);
    CHECK(orma_type_size((orma_type)(void *)((char *)ORMA_INT + 8), &s) == ORMA_ERR_TYPE);
    CHECK(orma_type_size((orma_type)(uintptr_t)0x10, &s) == ORMA_ERR_TYPE);
    CHECK(!strcmp(orma_type_name(NULL), "invalid type"));
    return 0;
}
