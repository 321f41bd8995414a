/* api_sig.h -- check mode (ORMA_CHECK=1): the origin's and the target's
 * type signatures must match, as MPI requires, not only their data sizes.
 * Off by default; then a call pays one predictable branch at most. */
#ifndef ORMA_API_SIG_H
#define ORMA_API_SIG_H

#include "util_config.h"

#include <orma.h>
#include <stddef.h>

/* ORMA_ERR_TYPE naming the first element where the sequences of basic
 * types of (ocount, otype) and (tcount, ttype) differ.  Sides of equal
 * data sizes only; a type without a known signature is not compared
 * (dtype_sig.h). */
int api_sig_check(const char *call, int target, size_t ocount, orma_type otype, size_t tcount, orma_type ttype);

/* api_sig_check in check mode, else nothing. */
static inline int api_sig_match(const char *call, int target, size_t ocount, orma_type otype, size_t tcount,
                                orma_type ttype)
{
    if (__builtin_expect(!util_config.check, 1))
        return ORMA_SUCCESS;
    return api_sig_check(call, target, ocount, otype, tcount, ttype);
}

#endif
