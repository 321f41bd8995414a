/* util_config.c -- parsing the ORMA_* table of util_config.h. */
#include "util_config.h"
#include "util_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char **environ;

struct util_config util_config;

struct util_config_entry {
    const char *name;
    int kind;
    const char *def;
    const char *help;
    void *field;
    const char *source;
    char text[128];
};

#define UTIL_CONFIG_ENTRY(name_, field_, kind_, def_, help_)                    \
    {"ORMA_" #name_, UTIL_CFG_##kind_, def_, help_, &util_config.field_, "default", ""},

static struct util_config_entry util_config_table[] = {UTIL_CONFIG_LIST(UTIL_CONFIG_ENTRY)};

#define UTIL_CONFIG_N ((int)(sizeof util_config_table / sizeof util_config_table[0]))

static const char *const util_level_words[] = {"none", "error", "warn", "info", "debug"};
static const char *const util_check_words[] = {"0", "1", "race", "all"};
static const char *const util_transport_words[] = {[UTIL_TRANSPORT_AUTO] = "auto", [UTIL_TRANSPORT_NET] = "net"};

static int util_config_parse(struct util_config_entry *e, const char *text)
{
    char *end;
    switch (e->kind) {
    case UTIL_CFG_LEVEL:
        for (int i = 0; i < 5; i++) {
            if (!strcasecmp(text, util_level_words[i])) {
                *(int *)e->field = i;
                return 0;
            }
        }
        if (!strcasecmp(text, "warning")) {
            *(int *)e->field = UTIL_LOG_WARN;
            return 0;
        }
        return -1;
    case UTIL_CFG_UINT: {
        errno = 0;
        unsigned long v = strtoul(text, &end, 10);
        if (errno || end == text || *end || v > UINT32_MAX || text[0] == '-')
            return -1;
        *(uint32_t *)e->field = (uint32_t)v;
        return 0;
    }
    case UTIL_CFG_INT: {
        errno = 0;
        long v = strtol(text, &end, 10);
        if (errno || end == text || *end || v > INT32_MAX || v < INT32_MIN)
            return -1;
        *(int *)e->field = (int)v;
        return 0;
    }
    case UTIL_CFG_BOOL:
        if (!strcmp(text, "1") || !strcasecmp(text, "true") || !strcasecmp(text, "yes") ||
            !strcasecmp(text, "on")) {
            *(int *)e->field = 1;
            return 0;
        }
        if (!strcmp(text, "0") || !strcasecmp(text, "false") || !strcasecmp(text, "no") ||
            !strcasecmp(text, "off")) {
            *(int *)e->field = 0;
            return 0;
        }
        return -1;
    case UTIL_CFG_STRING:
        *(const char **)e->field = text;
        return 0;
    case UTIL_CFG_CHECK: /* bit 0: signatures, bit 1: races; or a boolean, as before race */
        if (!strcasecmp(text, "true") || !strcasecmp(text, "yes") || !strcasecmp(text, "on"))
            text = "1";
        else if (!strcasecmp(text, "false") || !strcasecmp(text, "no") || !strcasecmp(text, "off"))
            text = "0";
        for (int i = 0; i < 4; i++) {
            if (!strcasecmp(text, util_check_words[i])) {
                *(int *)e->field = i;
                return 0;
            }
        }
        return -1;
    case UTIL_CFG_TRANSPORT:
        for (int i = 0; i < 2; i++) {
            if (!strcasecmp(text, util_transport_words[i])) {
                *(enum util_transport *)e->field = (enum util_transport)i;
                return 0;
            }
        }
        return -1;
    }
    return -1;
}

static void util_config_format(struct util_config_entry *e)
{
    switch (e->kind) {
    case UTIL_CFG_LEVEL:
        snprintf(e->text, sizeof e->text, "%s", util_level_words[*(int *)e->field]);
        break;
    case UTIL_CFG_UINT:
        snprintf(e->text, sizeof e->text, "%u", (unsigned)*(uint32_t *)e->field);
        break;
    case UTIL_CFG_INT:
    case UTIL_CFG_BOOL:
        snprintf(e->text, sizeof e->text, "%d", *(int *)e->field);
        break;
    case UTIL_CFG_STRING:
        snprintf(e->text, sizeof e->text, "%s", *(const char **)e->field);
        break;
    case UTIL_CFG_TRANSPORT:
        snprintf(e->text, sizeof e->text, "%s", util_transport_words[*(enum util_transport *)e->field]);
        break;
    case UTIL_CFG_CHECK:
        snprintf(e->text, sizeof e->text, "%s", util_check_words[*(int *)e->field & 3]);
        break;
    }
}

int util_config_is_default(const char *name)
{
    for (int i = 0; i < UTIL_CONFIG_N; i++)
        if (strcmp(util_config_table[i].name, name) == 0)
            return strcmp(util_config_table[i].source, "default") == 0;
    return 0;
}

void util_config_load(void)
{
    for (int i = 0; i < UTIL_CONFIG_N; i++) {
        struct util_config_entry *e = &util_config_table[i];
        util_config_parse(e, e->def);
        e->source = "default";
    }
    /* The log level first, so the warnings below obey it. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < UTIL_CONFIG_N; i++) {
            struct util_config_entry *e = &util_config_table[i];
            if ((pass == 0) != (e->kind == UTIL_CFG_LEVEL))
                continue;
            const char *text = getenv(e->name);
            if (!text)
                continue;
            if (util_config_parse(e, text)) {
                util_warn("%s=\"%s\" is not valid; using the default \"%s\"", e->name, text, e->def);
                util_config_parse(e, e->def);
            } else {
                e->source = "environment";
            }
        }
        if (pass == 0)
            util_log_level = util_config.log_level;
    }
    for (int i = 0; i < UTIL_CONFIG_N; i++)
        util_config_format(&util_config_table[i]);
    util_config.race = (util_config.check >> 1) & 1;
    util_config.check &= 1;

    for (char **env = environ; env && *env; env++) {
        if (strncmp(*env, "ORMA_", 5))
            continue;
        size_t len = strcspn(*env, "=");
        int known = 0;
        for (int i = 0; i < UTIL_CONFIG_N && !known; i++)
            known = strlen(util_config_table[i].name) == len &&
                    !strncmp(util_config_table[i].name, *env, len);
        if (!known)
            util_warn("unknown variable %.*s ignored (orma-info lists the known ones)", (int)len, *env);
    }
}

int util_config_count(void) { return UTIL_CONFIG_N; }

void util_config_row(int i, struct util_config_row *row_p)
{
    struct util_config_entry *e = &util_config_table[i];
    row_p->name = e->name;
    row_p->value = e->text;
    row_p->def = e->def;
    row_p->source = e->source;
    row_p->help = e->help;
}
