/* dtype_check.h -- invariants every datatype must satisfy, whatever built
 * it: shared by the serialization test and the fuzz harness, which have no
 * reference typemap for what they build.  A violation prints what differs
 * and aborts (so that a fuzzer records the input). */
#ifndef ORMA_TEST_DTYPE_CHECK_H
#define ORMA_TEST_DTYPE_CHECK_H

#include <orma.h>
#include <stddef.h>

/* Types whose data or true extent exceed this are checked by their
 * queries and layout only, not packed. */
#define DTYPE_CHECK_MAX_SPAN 65536

/* The queries agree with each other and with the layout (size, bounds,
 * contiguity); for a committed type small enough, its runs stay within
 * its true bounds and reach both of them, and pack/unpack of one element
 * through a buffer of exactly its true extent round-trips. */
void dtype_check_type(orma_type t, const char *what);

/* Serialize committed t (sizing the buffer with a first call of cap 0),
 * deserialize it and check the result: the same bytes when serialized
 * again, the same queries, and the same packed bytes of one buffer. */
void dtype_check_roundtrip(orma_type t, const char *what);

void dtype_check_fail(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#define DCHECK(what, cond)                                                                                          \
    do {                                                                                                            \
        if (!(cond))                                                                                                \
            dtype_check_fail(what, "%s:%d: %s (last error: %s)", __FILE__, __LINE__, #cond, orma_error_message());  \
    } while (0)

#endif
