/* opts.c -- parsing of the shared options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

/* 8 B, then powers of 4 from 16 B to 4 MB: the 1M and 4M points are where
 * the project's bandwidth bar is measured, and 11 sizes keep a default
 * pingpong run well under a minute on 2 oversubscribed cores. */
static const size_t default_sizes[] = {
    8, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304};
static const size_t quick_sizes[] = {8, 1024, 65536, 1048576, 4194304};

static int parse_size(const char *s, size_t len, size_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (buf[0] < '0' || buf[0] > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 10);
    if (errno != 0)
        return -1;
    unsigned long long mult = 1;
    switch (*end) {
    case 'k': case 'K': mult = 1ull << 10; end++; break;
    case 'm': case 'M': mult = 1ull << 20; end++; break;
    case 'g': case 'G': mult = 1ull << 30; end++; break;
    default: break;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end != '\0' || v == 0 || v > BENCH_SIZE_LIMIT / mult)
        return -1;
    *out = (size_t)(v * mult);
    return 0;
}

static int parse_sizes(const char *list, bench_opts *o, char *err, size_t errlen)
{
    o->nsizes = 0;
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        size_t v;
        if (parse_size(p, len, &v) != 0) {
            snprintf(err, errlen, "bad size '%.*s' in --sizes (want e.g. 8,64,1K,1M; "
                     "1 B to 1G)", (int)len, p);
            return -1;
        }
        if (o->nsizes == BENCH_MAX_SIZES) {
            snprintf(err, errlen, "more than %d sizes in --sizes", BENCH_MAX_SIZES);
            return -1;
        }
        o->sizes[o->nsizes++] = v;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

static int parse_reps(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < 1 || v > 100000000)
        return -1;
    *out = v;
    return 0;
}

/* An option's value: "--opt=value" or the next argument. */
static const char *opt_value(int argc, char **argv, int *i, const char *eq)
{
    if (eq != NULL)
        return eq + 1;
    /* "--json --quick" is a forgotten value, not a file named --quick. */
    if (*i + 1 >= argc || strncmp(argv[*i + 1], "--", 2) == 0)
        return NULL;
    return argv[++*i];
}

int bench_opts_parse(int argc, char **argv, int first, bench_opts *o,
                     char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    const char *sizes = NULL;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
#define IS(name) (nlen == strlen(name) && strncmp(a, name, nlen) == 0)
        if (IS("--help") || IS("-h"))
            return 1;
        /* The flags take no value: --quick=1 is unknown. */
        int *flag = eq != NULL ? NULL
                  : IS("--quick") ? &o->quick
                  : IS("--quiet") ? &o->quiet
                  : IS("--unpaired") ? &o->unpaired
                  : IS("--net") ? &o->net
                  : IS("--contend") ? &o->contend : NULL;
        if (flag != NULL) {
            *flag = 1;
            continue;
        }
        const char **dst = IS("--sizes") ? &sizes
                         : IS("--json") ? &o->json_path
                         : IS("--csv") ? &o->csv_path
                         : IS("--window") ? &o->windows
                         : IS("--op") ? &o->ops
                         : IS("--sync") ? &o->syncs
                         : IS("--backends") ? &o->backends
                         : IS("--threads") ? &o->threads : NULL;
        int is_reps = IS("--reps");
#undef IS
        if (dst == NULL && !is_reps) {
            snprintf(err, errlen, "unknown option '%s'", a);
            return -1;
        }
        const char *v = opt_value(argc, argv, &i, eq);
        if (v == NULL || *v == '\0') {
            snprintf(err, errlen, "option '%.*s' needs a value", (int)nlen, a);
            return -1;
        }
        if (is_reps) {
            if (parse_reps(v, &o->reps) != 0) {
                snprintf(err, errlen, "bad --reps '%s' (want a count >= 1)", v);
                return -1;
            }
        } else {
            *dst = v;
        }
    }
    o->sizes_given = sizes != NULL;
    if (sizes != NULL)
        return parse_sizes(sizes, o, err, errlen);
    const size_t *d = o->quick ? quick_sizes : default_sizes;
    size_t n = o->quick ? sizeof quick_sizes / sizeof quick_sizes[0]
                        : sizeof default_sizes / sizeof default_sizes[0];
    for (size_t k = 0; k < n; k++)
        o->sizes[k] = d[k];
    o->nsizes = (int)n;
    return 0;
}

size_t bench_opts_max_size(const bench_opts *o)
{
    size_t m = 0;
    for (int i = 0; i < o->nsizes; i++)
        if (o->sizes[i] > m)
            m = o->sizes[i];
    return m;
}

int bench_list_has(const char *list, const char *name)
{
    if (list == NULL)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

int bench_list_check(const char *list, const char *const *known, char *bad,
                     size_t badlen)
{
    if (list == NULL)
        return 0;
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (int k = 0; known[k] != NULL; k++)
            if (strlen(known[k]) == len && strncmp(p, known[k], len) == 0)
                found = 1;
        if (!found) {
            snprintf(bad, badlen, "%.*s", (int)len, p);
            return -1;
        }
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

int bench_filters_check(const char *suite, int rank, const char *windows, const char *const *known_windows,
                        const char *ops, const char *const *known_ops, const char *syncs,
                        const char *const *known_syncs)
{
    const char *lists[3] = {windows, ops, syncs}, *what[3] = {"window", "op", "sync"};
    const char *const *known[3] = {known_windows, known_ops, known_syncs};
    char bad[64];
    for (int i = 0; i < 3; i++) {
        if (bench_list_check(lists[i], known[i], bad, sizeof bad) == 0)
            continue;
        if (rank == 0) {
            fprintf(stderr, "orma-bench: %s: unknown %s '%s' (", suite, what[i], bad);
            for (int k = 0; known[i][k] != NULL; k++)
                fprintf(stderr, "%s%s", k ? ", " : "", known[i][k]);
            fprintf(stderr, ")\n");
        }
        return -1;
    }
    return 0;
}

void bench_format_size(size_t bytes, char *buf, size_t len)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(buf, len, "%zuM", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%zuK", bytes >> 10);
    else
        snprintf(buf, len, "%zu", bytes);
}
