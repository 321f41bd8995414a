/* nt_def.c -- see nt_def.h. */
#include "nt_def.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ghost_def.h"
#include "mix64.h"
#include "opts.h"
#include "pattern.h"

const char *const nt_part_names[] = {"pingpong", "pipeline", "ghost", NULL};
const char *const nt_kind_names[] = {"floor", "notify", "flag", "p2p", "fence", "pscw", "lock", NULL};
const char *const nt_sync_names[] = {"notify", "flag", "p2p", "fence", "pscw", "lock", NULL};

int nt_part_has(int part, int kind)
{
    switch (part) {
    case NT_PINGPONG: return kind <= NT_P2P;
    case NT_PIPELINE: return kind >= NT_NOTIFY && kind <= NT_P2P;
    default: return kind == NT_NOTIFY || kind >= NT_P2P;
    }
}

/* "a,b,c" of the names of v[i] set, "-" for none. */
static void format_set(const int *v, int n, const char *const *names, char *out, size_t len)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < n; i++)
        if (v[i] && at < len)
            at += (size_t)snprintf(out + at, len - at, "%s%s", at ? "," : "", names[i]);
    if (!at)
        snprintf(out, len, "-");
}

static void format_sizes(const size_t *s, int n, char *out, size_t len)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(out + at, len - at, "%s%zu", i ? "," : "", s[i]);
    if (!n)
        snprintf(out, len, "-");
}

void nt_plan_format(const nt_plan *p, char out[NT_PLAN_ARGS][256])
{
    format_set(p->parts, NT_NPARTS, nt_part_names, out[0], sizeof out[0]);
    format_set(p->kinds, NT_NKINDS, nt_kind_names, out[1], sizeof out[1]);
    format_sizes(p->sizes[NT_PIPELINE], p->nsizes[NT_PIPELINE], out[2], sizeof out[2]);
    format_sizes(p->sizes[NT_GHOST], p->nsizes[NT_GHOST], out[3], sizeof out[3]);
    snprintf(out[4], sizeof out[4], "%d%s", p->rounds, p->quick ? "q" : "");
}

static int parse_set(const char *s, int *v, int n, const char *const *names)
{
    memset(v, 0, (size_t)n * sizeof *v);
    if (!strcmp(s, "-"))
        return 0;
    for (int i = 0; i < n; i++)
        v[i] = bench_list_has(s, names[i]);
    char bad[64];
    return bench_list_check(s, names, bad, sizeof bad);
}

static int parse_sizes(const char *s, size_t *out, int *n)
{
    *n = 0;
    if (!strcmp(s, "-"))
        return 0;
    while (*s) {
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || v == 0 || v > BENCH_SIZE_LIMIT || *n == NT_MAX_SIZES || (*end && *end != ','))
            return -1;
        out[(*n)++] = (size_t)v;
        s = *end ? end + 1 : end;
    }
    return 0;
}

int nt_plan_parse(nt_plan *p, char *const args[NT_PLAN_ARGS])
{
    memset(p, 0, sizeof *p);
    char *end;
    if (parse_set(args[0], p->parts, NT_NPARTS, nt_part_names) || parse_set(args[1], p->kinds, NT_NKINDS, nt_kind_names) ||
        parse_sizes(args[2], p->sizes[NT_PIPELINE], &p->nsizes[NT_PIPELINE]) ||
        parse_sizes(args[3], p->sizes[NT_GHOST], &p->nsizes[NT_GHOST]))
        return -1;
    p->rounds = (int)strtol(args[4], &end, 10);
    p->quick = *end == 'q';
    if (p->rounds < 1 || p->rounds > NT_MAX_ROUNDS || (*end && strcmp(end, "q")))
        return -1;
    p->sizes[NT_PINGPONG][0] = NT_PINGPONG_BYTES;
    p->nsizes[NT_PINGPONG] = 1;
    return 0;
}

int nt_npoints(const nt_plan *p)
{
    int n = 0;
    for (int part = 0; part < NT_NPARTS; part++)
        n += p->parts[part] ? p->nsizes[part] : 0;
    return n;
}

void nt_point(const nt_plan *p, int i, int *part_p, size_t *bytes_p)
{
    for (int part = 0; part < NT_NPARTS; part++) {
        int n = p->parts[part] ? p->nsizes[part] : 0;
        if (i < n) {
            *part_p = part;
            *bytes_p = p->sizes[part][i];
            return;
        }
        i -= n;
    }
    *part_p = -1;
    *bytes_p = 0;
}

size_t nt_max_bytes(const nt_plan *p, int part)
{
    size_t m = 0;
    for (int i = 0; p->parts[part] && i < p->nsizes[part]; i++)
        m = p->sizes[part][i] > m ? p->sizes[part][i] : m;
    return m;
}

void nt_print_samples(const nt_plan *p, const double *samples)
{
    for (int i = 0; i < nt_npoints(p); i++)
        for (int k = 0; k < NT_NKINDS; k++)
            for (int r = 0; r < p->rounds; r++)
                if (samples[nt_at(p, i, k, r)] > 0)
                    printf("sample %d %s %d %.6f\n", i, nt_kind_names[k], r, samples[nt_at(p, i, k, r)]);
    fflush(stdout);
}

int nt_read_sample(const nt_plan *p, const char *line, double *samples)
{
    int point, round;
    char kind[16];
    double us;
    if (sscanf(line, "sample %d %15s %d %lf", &point, kind, &round, &us) != 4 || point < 0 ||
        point >= nt_npoints(p) || round < 0 || round >= p->rounds)
        return 0;
    for (int k = 0; k < NT_NKINDS; k++)
        if (!strcmp(kind, nt_kind_names[k])) {
            samples[nt_at(p, point, k, round)] = us;
            return 1;
        }
    return 0;
}

double nt_batch_seconds(const nt_plan *p, int part)
{
    /* Short, so that on a busy machine most batches run unpreempted and
     * a round's batches stay close in time; a pipeline's long enough that
     * its filling and draining (NT_SLOTS items) is a small part.  Ghost's
     * are the ghost suite's (ghost_batch_seconds). */
    if (part == NT_PIPELINE)
        return p->quick ? 500e-6 : 1e-3;
    return p->quick ? 100e-6 : 200e-6;
}

long nt_warm_iters(int part)
{
    return part == NT_PIPELINE ? 2 * NT_SLOTS : part == NT_GHOST ? GHOST_WARMUP_STEPS : 64;
}

long nt_first_iters(int part)
{
    return part == NT_PIPELINE ? 4 * NT_SLOTS : part == NT_GHOST ? GHOST_MIN_STEPS : 16;
}

uint64_t nt_item_word(uint64_t batch, uint64_t item, int from)
{
    /* distinct for distinct (batch < 2^31, item < 2^32, from < 2), and
     * every byte depends on all three: an item shorter than 8 bytes still
     * tells another batch's apart (but for a chance of 1 in 256 a byte) */
    return bench_mix64(batch << 33 | item << 1 | (uint64_t)(from & 1));
}

static uint64_t source_seed(uint64_t batch, int k, int from)
{
    return bench_pattern_seed(batch * NT_SLOTS + (uint64_t)k, (unsigned)from & 0xffu);
}

void nt_fill_sources(unsigned char *src, size_t stride, size_t n, uint64_t batch, int from)
{
    for (int k = 0; k < NT_SLOTS; k++)
        bench_pattern_fill(src + (size_t)k * stride, n, source_seed(batch, k, from));
}

void nt_stamp(unsigned char *buf, size_t n, uint64_t word)
{
    size_t k = n < 8 ? n : 8;
    memcpy(buf, &word, k);
    memcpy(buf + n - k, &word, k);
}

int nt_stamped(const unsigned char *buf, size_t n, uint64_t word)
{
    size_t k = n < 8 ? n : 8;
    return memcmp(buf, &word, k) == 0 && memcmp(buf + n - k, &word, k) == 0;
}

int nt_slots_check(const unsigned char *slots, size_t stride, size_t n, uint64_t batch, long items, int from,
                   unsigned char *scratch, char *msg, size_t len)
{
    long first = items > NT_SLOTS ? items - NT_SLOTS : 0;
    for (long i = first; i < items; i++) {
        int k = (int)(i % NT_SLOTS);
        const unsigned char *slot = slots + (size_t)k * stride;
        bench_pattern_fill(scratch, n, source_seed(batch, k, from));
        nt_stamp(scratch, n, nt_item_word(batch, (uint64_t)i, from));
        size_t at = 0;
        while (at < n && slot[at] == scratch[at])
            at++;
        if (at < n) {
            snprintf(msg, len, "slot %d, item %ld of batch %llu, %zu bytes: byte %zu is 0x%02x, expected 0x%02x", k,
                     i, (unsigned long long)batch, n, at, slot[at], scratch[at]);
            return 0;
        }
    }
    return 1;
}
