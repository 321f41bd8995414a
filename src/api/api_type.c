/* api_type.c -- datatype queries. */
#include "api_check.h"
#include "dtype_derived.h"

int orma_type_size(orma_type type, size_t *size_p)
{
    if (!dtype_is_type(type))
        return util_error(ORMA_ERR_TYPE, "orma_type_size: not a valid datatype");
    if (!size_p)
        return util_error(ORMA_ERR_ARG, "orma_type_size: size_p is NULL");
    *size_p = type->size;
    return ORMA_SUCCESS;
}

int orma_type_extent(orma_type type, size_t *extent_p)
{
    if (!dtype_is_type(type))
        return util_error(ORMA_ERR_TYPE, "orma_type_extent: not a valid datatype");
    if (!extent_p)
        return util_error(ORMA_ERR_ARG, "orma_type_extent: extent_p is NULL");
    if (dtype_extent(type) < 0)
        return util_error(ORMA_ERR_TYPE, "orma_type_extent: the extent is negative (%td); see "
                          "orma_type_get_extent", dtype_extent(type));
    *extent_p = (size_t)dtype_extent(type);
    return ORMA_SUCCESS;
}

const char *orma_type_name(orma_type type) { return dtype_is_type(type) ? type->name : "invalid type"; }
