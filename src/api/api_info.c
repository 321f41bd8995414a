/* api_info.c -- key/value hints. */
#include "api_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define API_INFO_MAGIC 0x696e666fu

struct api_info_entry {
    char key[ORMA_INFO_KEY_MAX + 1];
    char value[ORMA_INFO_VAL_MAX + 1];
    struct api_info_entry *next;
};

struct orma_info_s {
    uint32_t magic;
    struct api_info_entry *entries;
};

static int api_info_check(const char *call, orma_info info)
{
    if (!info || info->magic != API_INFO_MAGIC)
        return util_error(ORMA_ERR_INFO, "%s: not a valid info object", call);
    return ORMA_SUCCESS;
}

int orma_info_create(orma_info *info_p)
{
    if (!info_p)
        return util_error(ORMA_ERR_ARG, "orma_info_create: info_p is NULL");
    orma_info info = calloc(1, sizeof *info);
    if (!info)
        return util_error(ORMA_ERR_NOMEM, "orma_info_create: out of memory");
    info->magic = API_INFO_MAGIC;
    *info_p = info;
    return ORMA_SUCCESS;
}

int orma_info_set(orma_info info, const char *key, const char *value)
{
    int status = api_info_check("orma_info_set", info);
    if (status)
        return status;
    if (!key || !value || !*key || strlen(key) > ORMA_INFO_KEY_MAX || strlen(value) > ORMA_INFO_VAL_MAX)
        return util_error(ORMA_ERR_INFO, "orma_info_set: key must be 1..%d and value 0..%d characters",
                          ORMA_INFO_KEY_MAX, ORMA_INFO_VAL_MAX);
    struct api_info_entry *e;
    for (e = info->entries; e && strcmp(e->key, key); e = e->next)
        ;
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e)
            return util_error(ORMA_ERR_NOMEM, "orma_info_set: out of memory");
        snprintf(e->key, sizeof e->key, "%s", key);
        e->next = info->entries;
        info->entries = e;
    }
    snprintf(e->value, sizeof e->value, "%s", value);
    return ORMA_SUCCESS;
}

int orma_info_get(orma_info info, const char *key, size_t len, char *value, int *flag_p)
{
    int status = api_info_check("orma_info_get", info);
    if (status)
        return status;
    if (!key || !flag_p || (len && !value))
        return util_error(ORMA_ERR_ARG, "orma_info_get: NULL key, value or flag_p");
    for (struct api_info_entry *e = info->entries; e; e = e->next) {
        if (!strcmp(e->key, key)) {
            if (len)
                snprintf(value, len, "%s", e->value);
            *flag_p = 1;
            return ORMA_SUCCESS;
        }
    }
    *flag_p = 0;
    return ORMA_SUCCESS;
}

int orma_info_free(orma_info *info_p)
{
    if (!info_p)
        return util_error(ORMA_ERR_ARG, "orma_info_free: info_p is NULL");
    int status = api_info_check("orma_info_free", *info_p);
    if (status)
        return status;
    orma_info info = *info_p;
    while (info->entries) {
        struct api_info_entry *e = info->entries;
        info->entries = e->next;
        free(e);
    }
    info->magic = 0;
    free(info);
    *info_p = ORMA_INFO_NULL;
    return ORMA_SUCCESS;
}

int api_info_valid(const char *call, orma_info info)
{
    return info == ORMA_INFO_NULL ? ORMA_SUCCESS : api_info_check(call, info);
}
