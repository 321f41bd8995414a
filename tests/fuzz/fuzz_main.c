/* fuzz_main.c -- drives a libFuzzer target in builds without libFuzzer
 * (gcc, and the sanitizer builds): every file of the corpus directories
 * first, then random inputs and mutations of the corpus until the time
 * budget is spent.  No coverage feedback: this is the regression and
 * smoke run every build does; tests/fuzz/run-libfuzzer.sh is the search.
 *
 * usage: fuzz_main [-t seconds] [-s seed] [corpus dir or file...]
 *
 * When an input fails (abort, a signal, or a sanitizer's report), it is
 * printed in hex and written to ./fuzz-crash-<pid>, replayable as
 * `fuzz_main fuzz-crash-<pid>`. */
#include "fuzz.h"

#include <dirent.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#define FUZZ_MAX_LEN 4096

struct input {
    uint8_t *p;
    size_t n;
};

static struct input *corpus;
static size_t ncorpus, corpus_cap;

/* The input being run, for the crash report. */
static const uint8_t *current;
static size_t current_len;

static void put_str(const char *s) { (void)!write(2, s, strlen(s)); }

/* Async-signal-safe: write() only. */
static void report_current(void)
{
    static const char hex[] = "0123456789abcdef";
    char name[64] = "fuzz-crash-", digits[24];
    size_t k = strlen(name), d = 0;
    for (unsigned long pid = (unsigned long)getpid(); pid || !d; pid /= 10)
        digits[d++] = (char)('0' + pid % 10);
    while (d)
        name[k++] = digits[--d];
    name[k] = 0;
    put_str("fuzz_main: failing input (");
    put_str(name);
    put_str("):\n");
    for (size_t i = 0; i < current_len; i++) {
        char b[3] = {hex[current[i] >> 4], hex[current[i] & 15], (i % 32 == 31 || i + 1 == current_len) ? '\n' : ' '};
        (void)!write(2, b, 3);
    }
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        (void)!write(fd, current, current_len);
        close(fd);
    }
}

static void on_signal(int sig)
{
    report_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Sanitizers end the process without a signal; they call this hook first
 * when the runtime provides it. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void run(const uint8_t *p, size_t n)
{
    current = p;
    current_len = n;
    LLVMFuzzerTestOneInput(p, n);
}

static void corpus_add(uint8_t *p, size_t n)
{
    if (ncorpus == corpus_cap) {
        corpus_cap = corpus_cap ? 2 * corpus_cap : 64;
        corpus = realloc(corpus, corpus_cap * sizeof *corpus);
        if (!corpus) {
            perror("fuzz_main");
            exit(1);
        }
    }
    corpus[ncorpus++] = (struct input){p, n};
}

static void load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *p = malloc(FUZZ_MAX_LEN);
    if (!f || !p) {
        fprintf(stderr, "fuzz_main: cannot read %s\n", path);
        exit(1);
    }
    size_t n = fread(p, 1, FUZZ_MAX_LEN, f);
    fclose(f);
    run(p, n);
    corpus_add(p, n);
}

static void load(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz_main: %s does not exist\n", path);
        exit(1);
    }
    if (!S_ISDIR(st.st_mode)) {
        load_file(path);
        return;
    }
    DIR *dir = opendir(path);
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
        char full[4096];
        if (e->d_name[0] == '.')
            continue;
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
            load_file(full);
    }
    if (dir)
        closedir(dir);
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static size_t below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

/* A few edits of a corpus input: flipped bits, interesting bytes and
 * words, bytes inserted and removed, a piece of another input. */
static size_t mutate(uint8_t *buf)
{
    const struct input *a = &corpus[below(ncorpus)];
    size_t n = a->n;
    memcpy(buf, a->p, n);
    for (size_t edits = 1 + below(4); edits--;) {
        static const uint8_t bytes[] = {0, 1, 0x7f, 0x80, 0xfe, 0xff};
        size_t i = below(n);
        switch (below(6)) {
        case 0:
            if (n)
                buf[i] ^= (uint8_t)(1u << below(8));
            break;
        case 1:
            if (n)
                buf[i] = bytes[below(sizeof bytes)];
            break;
        case 2:
            if (n < FUZZ_MAX_LEN) {
                memmove(buf + i + 1, buf + i, n - i);
                buf[i] = (uint8_t)rnd();
                n++;
            }
            break;
        case 3:
            if (n) {
                memmove(buf + i, buf + i + 1, n - i - 1);
                n--;
            }
            break;
        case 4:
            if (n >= 8) {
                uint64_t w = below(2) ? UINT64_MAX >> below(64) : (uint64_t)1 << below(64);
                memcpy(buf + below(n - 7), &w, 8);
            }
            break;
        default: {
            const struct input *b = &corpus[below(ncorpus)];
            size_t from = below(b->n), len = below(b->n - from + 1);
            if (i + len <= FUZZ_MAX_LEN) {
                memcpy(buf + i, b->p + from, len);
                n = i + len > n ? i + len : n;
            }
            break;
        }
        }
    }
    return n;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double budget = 10;
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    int opt;
    while ((opt = getopt(argc, argv, "t:s:")) != -1) {
        if (opt == 't')
            budget = strtod(optarg, NULL);
        else if (opt == 's')
            seed = strtoull(optarg, NULL, 0);
        else {
            fprintf(stderr, "usage: %s [-t seconds] [-s seed] [corpus dir or file...]\n", argv[0]);
            return 2;
        }
    }
    static const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_signal);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(report_current);
    LLVMFuzzerInitialize(&argc, &argv);
    printf("fuzz_main: seed %" PRIu64 ", %.1f s\n", seed, budget);
    fflush(stdout);

    double start = now();
    for (int i = optind; i < argc; i++)
        load(argv[i]);
    size_t replayed = ncorpus;
    static uint8_t empty[1];
    if (!ncorpus)
        corpus_add(empty, 0);

    rng_state = seed;
    static uint8_t buf[FUZZ_MAX_LEN];
    unsigned long runs = 0;
    while (now() - start < budget) {
        for (int k = 0; k < 64; k++, runs++) {
            size_t n;
            if (below(4) == 0) {
                n = below(256);
                for (size_t i = 0; i < n; i++)
                    buf[i] = (uint8_t)rnd();
            } else {
                n = mutate(buf);
            }
            run(buf, n);
        }
    }
    printf("fuzz_main: %zu corpus inputs replayed, %lu generated inputs in %.1f s (seed %" PRIu64 ")\n", replayed,
           runs, now() - start, seed);
    return 0;
}
