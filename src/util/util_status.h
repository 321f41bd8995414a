/* util_status.h -- reporting an error once, where it is detected.
 *
 * util_error() formats "rank R: <message>", keeps it for orma_error_message()
 * (per thread), logs it at error level and returns the status, so a detection
 * site reads: return util_error(ORMA_ERR_RANGE, "put of %zu bytes ...", n); */
#ifndef ORMA_UTIL_STATUS_H
#define ORMA_UTIL_STATUS_H

#include <orma.h>

int util_error(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), cold));

/* The last message util_error formatted on this thread (orma_error_message). */
const char *util_last_error(void);

/* The rank printed in messages; -1 before the job is known. */
void util_set_rank(int rank);
int util_get_rank(void);

#endif
