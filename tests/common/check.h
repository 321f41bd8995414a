/* check.h -- the assertions of orma's tests.  A failed check prints the rank,
 * file, line and what differed, then exits 1 (the launcher ends the job). */
#ifndef ORMA_TEST_CHECK_H
#define ORMA_TEST_CHECK_H

#include <orma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int check_rank(void)
{
    int r = orma_rank();
    return r < 0 ? -1 : r;
}

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "rank %d: %s:%d: CHECK(%s) failed\n",              \
                    check_rank(), __FILE__, __LINE__, #cond);                  \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* The call must return ORMA_SUCCESS. */
#define CHECK_OK(call)                                                         \
    do {                                                                       \
        int check_rc_ = (call);                                                \
        if (check_rc_ != ORMA_SUCCESS) {                                       \
            fprintf(stderr, "rank %d: %s:%d: %s returned %d (%s): %s\n",       \
                    check_rank(), __FILE__, __LINE__, #call, check_rc_,        \
                    orma_strerror(check_rc_), orma_error_message());           \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* The call must fail with exactly the status code expected, and leave a
 * message that names the calling rank. */
#define CHECK_ERR(call, expected)                                              \
    do {                                                                       \
        int check_rc_ = (call);                                                \
        if (check_rc_ != (expected)) {                                         \
            fprintf(stderr, "rank %d: %s:%d: %s returned %d (%s), expected "   \
                    "%d (%s)\n", check_rank(), __FILE__, __LINE__, #call,       \
                    check_rc_, orma_strerror(check_rc_), (int)(expected),      \
                    orma_strerror(expected));                                  \
            exit(1);                                                           \
        }                                                                      \
        char check_want_[32];                                                  \
        snprintf(check_want_, sizeof check_want_, "rank %d", check_rank());    \
        if (check_rank() >= 0 && !strstr(orma_error_message(), check_want_)) { \
            fprintf(stderr, "rank %d: %s:%d: message \"%s\" does not name "    \
                    "the rank\n", check_rank(), __FILE__, __LINE__,            \
                    orma_error_message());                                     \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

#endif
