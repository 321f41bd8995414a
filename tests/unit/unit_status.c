/* unit_status.c -- status codes and their strings come from one list. */
#include "check.h"
#include "util_log.h"
#include "util_status.h"

#define CODE(name, value, text) {ORMA_##name, text},
static const struct {
    int code;
    const char *text;
} codes[] = {ORMA_STATUS_LIST(CODE)};

int main(void)
{
    size_t n = sizeof codes / sizeof codes[0];
    CHECK(codes[0].code == ORMA_SUCCESS && ORMA_SUCCESS == 0);
    for (size_t i = 0; i < n; i++) {
        CHECK(codes[i].code <= 0 && codes[i].code > ORMA_ERR_LAST);
        CHECK(!strcmp(orma_strerror(codes[i].code), codes[i].text));
        for (size_t j = 0; j < i; j++) {
            CHECK(codes[i].code != codes[j].code);
            CHECK(strcmp(codes[i].text, codes[j].text));
        }
    }
    CHECK(!strcmp(orma_strerror(12345), "unknown status"));
    CHECK(!strcmp(orma_strerror(ORMA_ERR_LAST), "unknown status"));

    /* the message names the rank and survives until the next error */
    util_log_level = UTIL_LOG_NONE;
    CHECK(!strcmp(orma_error_message(), ""));
    util_set_rank(7);
    CHECK(util_error(ORMA_ERR_RANGE, "put of %d bytes", 64) == ORMA_ERR_RANGE);
    CHECK(!strcmp(orma_error_message(), "rank 7: put of 64 bytes"));
    return 0;
}
