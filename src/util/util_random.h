/* util_random.h -- unguessable tokens for the names of shared objects. */
#ifndef ORMA_UTIL_RANDOM_H
#define ORMA_UTIL_RANDOM_H

#include <stddef.h>

/* Writes 2*nbytes lowercase hex digits and a NUL into out (size >= 2*nbytes+1).
 * Returns ORMA_SUCCESS or ORMA_ERR_SYS. */
int util_random_hex(size_t nbytes, char *out);

#endif
