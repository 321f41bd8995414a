/* util_status.c -- status strings and the per-thread last error message. */
#include "util_status.h"
#include "util_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define UTIL_STATUS_CASE(name, value, text) case ORMA_##name: return text;

const char *orma_strerror(int status)
{
    switch (status) {
    ORMA_STATUS_LIST(UTIL_STATUS_CASE)
    default: return "unknown status";
    }
}

static _Thread_local char util_last_message[512];
static int util_rank = -1;

void util_set_rank(int rank) { util_rank = rank; }
int util_get_rank(void) { return util_rank; }

const char *orma_error_message(void) { return util_last_message; }
const char *util_last_error(void) { return util_last_message; }

int util_error(int status, const char *fmt, ...)
{
    /* Formatted aside first: the arguments may quote the last message
     * (orma_error_message()), which this one replaces. */
    char msg[sizeof util_last_message];
    int n;
    if (util_rank >= 0)
        n = snprintf(msg, sizeof msg, "rank %d: ", util_rank);
    else
        n = snprintf(msg, sizeof msg, "rank ?: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    memcpy(util_last_message, msg, sizeof msg);
    util_log_raw(UTIL_LOG_ERROR, "%s (%s)", util_last_message, orma_strerror(status));
    return status;
}
