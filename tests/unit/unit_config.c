/* unit_config.c -- the ORMA_* table: defaults, valid and invalid values,
 * unknown names, and the rows orma-info prints. */
#include "check.h"
#include "util_config.h"
#include "util_log.h"

#include <stdlib.h>

static const struct util_config_row *row_of(const char *name, struct util_config_row *row)
{
    for (int i = 0; i < util_config_count(); i++) {
        util_config_row(i, row);
        if (!strcmp(row->name, name))
            return row;
    }
    return NULL;
}

int main(void)
{
    struct util_config_row row;
    unsetenv("ORMA_SPIN");
    setenv("ORMA_LOG_LEVEL", "none", 1); /* the warnings below are expected */
    util_config_load();
    CHECK(util_config.spin == 100 && util_config.eager == 1 && util_config.adopt == 2);
    CHECK(row_of("ORMA_SPIN", &row) && !strcmp(row.source, "default") && !strcmp(row.value, "100"));
    CHECK(util_log_level == UTIL_LOG_NONE);

    setenv("ORMA_SPIN", "17", 1);
    setenv("ORMA_EAGER", "off", 1);
    setenv("ORMA_YIELD_US", "-3", 1);    /* invalid: default kept */
    setenv("ORMA_SLEEP_US", "12abc", 1); /* invalid */
    setenv("ORMA_NO_SUCH_SETTING", "1", 1);
    util_config_load();
    CHECK(util_config.spin == 17);
    CHECK(util_config.eager == 0);
    CHECK(util_config.yield_us == 1000);
    CHECK(util_config.sleep_us == 1000);
    CHECK(row_of("ORMA_SPIN", &row) && !strcmp(row.source, "environment") && !strcmp(row.value, "17"));
    CHECK(row_of("ORMA_YIELD_US", &row) && !strcmp(row.source, "default"));
    CHECK(!row_of("ORMA_NO_SUCH_SETTING", &row));
    for (int i = 0; i < util_config_count(); i++) {
        util_config_row(i, &row);
        CHECK(!strncmp(row.name, "ORMA_", 5) && row.help && *row.help && row.def);
    }
    /* ORMA_TRANSPORT is decided once, into an enum: auto, net (any case), or
     * auto after a warning. */
    unsetenv("ORMA_TRANSPORT");
    util_config_load();
    CHECK(util_config.transport == UTIL_TRANSPORT_AUTO);
    setenv("ORMA_TRANSPORT", "NET", 1);
    util_config_load();
    CHECK(util_config.transport == UTIL_TRANSPORT_NET);
    CHECK(row_of("ORMA_TRANSPORT", &row) && !strcmp(row.source, "environment") && !strcmp(row.value, "net"));
    setenv("ORMA_TRANSPORT", "ucx", 1);
    util_config_load();
    CHECK(util_config.transport == UTIL_TRANSPORT_AUTO);
    CHECK(row_of("ORMA_TRANSPORT", &row) && !strcmp(row.source, "default") && !strcmp(row.value, "auto"));
    unsetenv("ORMA_TRANSPORT");

    setenv("ORMA_LOG_LEVEL", "debug", 1);
    util_config_load();
    CHECK(util_log_level == UTIL_LOG_DEBUG);
    return 0;
}
