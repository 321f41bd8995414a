/* report_load.c -- reading results back from a JSON file written as
 * --json is (one object per line, report.h's keys), as the MPI backends'
 * program writes them (mpi/mpib_report.c).  Not a JSON parser: the lines
 * are the flat objects of report.h, whose strings are names from the code
 * (no escapes); a line that is not one is an error, reported with its
 * number. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define LINE_MAX_LEN 1024
#define NAME_MAX_LEN 64

/* The value of "key": after it in line, or NULL. */
static const char *value_of(const char *line, const char *key)
{
    char pat[NAME_MAX_LEN + 4];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    return p != NULL ? p + strlen(pat) : NULL;
}

static int get_string(const char *line, const char *key, char *buf)
{
    const char *v = value_of(line, key);
    if (v == NULL || *v != '"')
        return -1;
    size_t len = strcspn(v + 1, "\"\\");
    if (v[1 + len] != '"' || len == 0 || len >= NAME_MAX_LEN)
        return -1;
    memcpy(buf, v + 1, len);
    buf[len] = '\0';
    return 0;
}

static int get_number(const char *line, const char *key, double *out)
{
    const char *v = value_of(line, key);
    if (v == NULL)
        return -1;
    char *end;
    errno = 0;
    *out = strtod(v, &end);
    if (errno != 0 || end == v || (*end != ',' && *end != '}'))
        return -1;
    return 0;
}

static int parse(const char *line, bench_result *r, char names[5][NAME_MAX_LEN])
{
    static const char *const keys[] = {"backend", "op", "sync", "window",
                                       "pattern"};
    for (int i = 0; i < 4; i++)
        if (get_string(line, keys[i], names[i]) != 0)
            return -1;
    r->backend = names[0];
    r->op = names[1];
    r->sync = names[2];
    r->window = names[3];
    r->pattern = get_string(line, keys[4], names[4]) == 0 ? names[4] : NULL;
    double p, bytes, reps;
    if (get_number(line, "p", &p) != 0 ||
        get_number(line, "bytes", &bytes) != 0 ||
        get_number(line, "reps", &reps) != 0 ||
        get_number(line, "min_us", &r->min_us) != 0 ||
        get_number(line, "median_us", &r->median_us) != 0 ||
        get_number(line, "max_us", &r->max_us) != 0 ||
        get_number(line, "mbps", &r->mbps) != 0)
        return -1;
    if (!(bytes >= 0 && bytes <= (double)BENCH_SIZE_LIMIT) || !(p >= 1) ||
        !(reps >= 0))
        return -1;
    r->p = (int)p;
    r->bytes = (size_t)bytes;
    r->reps = (long)reps;
    return 0;
}

long bench_report_load(const bench_ctx *ctx, const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "orma-bench: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[LINE_MAX_LEN];
    long n = 0, lineno = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        bench_result r = {0};
        char names[5][NAME_MAX_LEN];
        if (strchr(line, '\n') == NULL || parse(line, &r, names) != 0) {
            fprintf(stderr, "orma-bench: %s:%ld: not a result line\n", path,
                    lineno);
            fclose(f);
            return -1;
        }
        bench_report_add(ctx, &r);
        n++;
    }
    fclose(f);
    return n;
}
