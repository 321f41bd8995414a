/* util_log.h -- logging with a rank prefix, filtered by ORMA_LOG_LEVEL. */
#ifndef ORMA_UTIL_LOG_H
#define ORMA_UTIL_LOG_H

enum util_log_level {
    UTIL_LOG_NONE = 0,
    UTIL_LOG_ERROR = 1,
    UTIL_LOG_WARN = 2,
    UTIL_LOG_INFO = 3,
    UTIL_LOG_DEBUG = 4
};

extern int util_log_level;

/* Prints "orma[rank R] level: message" to stderr; the caller has already
 * formatted the rank into the message when it needs it twice. */
void util_log_raw(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define util_log(level, ...)                                                   \
    do {                                                                       \
        if ((level) <= util_log_level)                                         \
            util_log_raw((level), __VA_ARGS__);                                \
    } while (0)
#define util_warn(...) util_log(UTIL_LOG_WARN, __VA_ARGS__)
#define util_info(...) util_log(UTIL_LOG_INFO, __VA_ARGS__)
#define util_debug(...) util_log(UTIL_LOG_DEBUG, __VA_ARGS__)

#endif
