/* dtype_serial.h -- a committed datatype as bytes and back, so that a type
 * can be shipped to another node and rebuilt there.
 *
 * The format is self-describing, versioned and the same on every machine
 * (little-endian, fixed-width fields):
 *
 *   header   "ORDT", u16 version (1), u16 form (0 predefined, 1 derived)
 *   form 0   u32 type id                                  (12 bytes in all)
 *   form 1   i32 basic (-1: mixed), u32 align, u64 size, i64 lb, i64 ub,
 *            i64 true lb, i64 true ub, u32 nodes, u32 zero   (64 bytes)
 *            then the nodes of the layout, each distinct node once,
 *            children before parents, the root last:
 *              u8 0 (leaf)  u64 len
 *              u8 1 (loop)  u64 count, i64 stride, u32 child
 *              u8 2 (seq)   u64 n, then n x (i64 disp, u32 child)
 *            where a child is the index of an earlier node.
 *
 * Layouts are DAGs (children are shared), so the output is proportional to
 * the distinct nodes, never to the unfolded tree.  The deserializer takes
 * bytes from anywhere: it rebuilds the layout through the dtype_node
 * constructors (normalisation and true bounds are recomputed, not
 * trusted), checks everything the constructors would have guaranteed, and
 * allocates in proportion to its input only. */
#ifndef ORMA_DTYPE_SERIAL_H
#define ORMA_DTYPE_SERIAL_H

#include <orma.h>
#include <stddef.h>

#define DTYPE_SERIAL_VERSION 1

/* Write committed type t into buf (cap bytes); *len_p = bytes written.
 * When cap is too small: ORMA_ERR_COUNT, nothing written, and *len_p = the
 * length needed (call with cap 0 to size a buffer: then nothing is
 * reported).  Errors: ORMA_ERR_TYPE
 * (invalid or uncommitted type), ORMA_ERR_ARG (NULL len_p, or NULL buf with
 * cap > 0), ORMA_ERR_NOMEM. */
int dtype_serialize(orma_type t, void *buf, size_t cap, size_t *len_p);
/* The same for a layout an operation holds (dtype_hold), whose handle the
 * program may have freed meanwhile: not checked against the live handles. */
int dtype_serialize_held(orma_type t, void *buf, size_t cap, size_t *len_p);

/* A new committed derived type (freed with orma_type_free), or the
 * predefined type, from len bytes at buf.  Errors: ORMA_ERR_TYPE for bytes
 * that are not a valid serialized type (the message says what is wrong;
 * nothing is created), ORMA_ERR_ARG (NULL type_p, or NULL buf with len >
 * 0), ORMA_ERR_NOMEM. */
int dtype_deserialize(const void *buf, size_t len, orma_type *type_p);

#endif
