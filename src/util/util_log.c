/* util_log.c -- one line per message, written with a single write(2) so the
 * lines of several ranks do not interleave. */
#include "util_log.h"
#include "util_status.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

int util_log_level = UTIL_LOG_WARN;

static const char *const util_level_names[] = {"none", "error", "warning", "info", "debug"};

void util_log_raw(int level, const char *fmt, ...)
{
    if (level > util_log_level)
        return;
    char line[1024];
    int n;
    int rank = util_get_rank();
    if (rank >= 0)
        n = snprintf(line, sizeof line, "orma[%d] %s: ", rank, util_level_names[level]);
    else
        n = snprintf(line, sizeof line, "orma %s: ", util_level_names[level]);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (size_t)(m < 0 ? 0 : m);
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    ssize_t rc = write(STDERR_FILENO, line, len);
    (void)rc;
}
