/* check.h -- failing loudly on a failed orma call or allocation.
 *
 * A benchmark cannot go on after the library refused a call: the ranks would
 * no longer make the same collective calls.  So the rank prints what failed
 * (with orma_error_message) and exits 1; the launcher ends the job. */
#ifndef BENCH_CHECK_H
#define BENCH_CHECK_H

#include <stddef.h>

_Noreturn void bench_check_fail(int rc, const char *call, const char *file,
                                int line);

#define BENCH_CHECK(call)                                                     \
    do {                                                                      \
        int bench_rc_ = (call);                                               \
        if (bench_rc_ != 0)                                                   \
            bench_check_fail(bench_rc_, #call, __FILE__, __LINE__);           \
    } while (0)

/* malloc that exits on failure; n == 0 allocates 1 byte. */
void *bench_xmalloc(size_t n);

#endif
