/* dtype_ctor.h -- the derived datatype constructors (dtype_ctor.c): each
 * builds a new uncommitted type from valid arguments or returns an error
 * with a message naming the public call (orma_type_*), which is the same
 * but for the check that orma runs. */
#ifndef ORMA_DTYPE_CTOR_H
#define ORMA_DTYPE_CTOR_H

#include <orma.h>
#include <stddef.h>

int dtype_ctor_contiguous(size_t count, orma_type oldtype, orma_type *newtype_p);
int dtype_ctor_hvector(size_t count, size_t blocklength, orma_aint stride_bytes, orma_type oldtype,
                       orma_type *newtype_p);
int dtype_ctor_vector(size_t count, size_t blocklength, orma_aint stride, orma_type oldtype, orma_type *newtype_p);
int dtype_ctor_indexed(size_t count, const size_t *blocklengths, const orma_aint *displacements, orma_type oldtype,
                       orma_type *newtype_p);
int dtype_ctor_hindexed(size_t count, const size_t *blocklengths, const orma_aint *displacements_bytes,
                        orma_type oldtype, orma_type *newtype_p);
int dtype_ctor_indexed_block(size_t count, size_t blocklength, const orma_aint *displacements, orma_type oldtype,
                             orma_type *newtype_p);
int dtype_ctor_hindexed_block(size_t count, size_t blocklength, const orma_aint *displacements_bytes, orma_type oldtype,
                              orma_type *newtype_p);
int dtype_ctor_struct(size_t count, const size_t *blocklengths, const orma_aint *displacements_bytes,
                      const orma_type *types, orma_type *newtype_p);
int dtype_ctor_subarray(int ndims, const size_t *sizes, const size_t *subsizes, const size_t *starts, int order,
                        orma_type oldtype, orma_type *newtype_p);
int dtype_ctor_resized(orma_type oldtype, orma_aint lb, orma_aint extent, orma_type *newtype_p);
int dtype_ctor_dup(orma_type oldtype, orma_type *newtype_p);

#endif
