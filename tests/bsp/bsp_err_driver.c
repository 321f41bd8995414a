/* bsp_err_driver.c -- runs one case of bsp_err under orma-run the way a
 * user would, and checks how the job ends: a non-zero exit status (an exit,
 * not a crash), within PROMPT_S seconds, with a line on stderr that names
 * the call and the process that made it (bsp_abort: its message), every
 * process gone and nothing of the job left in /dev/shm.
 *
 *   bsp_err_driver <case> <orma-run> <bsp_err> */
#include "check.h"
#include "shm_left.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROCS 8
#define PROMPT_S 10.0 /* start-up included, on a loaded machine */
#define HANG_S 40.0

enum who { LAST, ANY, NOBODY };

struct err_case {
    const char *name;
    int nprocs;
    const char *calls; /* the calls the message may name, '|'-separated */
    enum who who;      /* the process the message must name */
    const char *text;  /* and text it must contain, if any */
};

static const struct err_case cases[] = {
    {"put_unreg", 3, "bsp_put", LAST, NULL},
    {"hpput_unreg", 2, "bsp_hpput", LAST, NULL},
    {"put_outside", 3, "bsp_put", LAST, NULL},
    {"get_outside", 2, "bsp_get", LAST, NULL},
    {"reg_same_step", 3, "bsp_put", LAST, NULL},
    {"reg_mismatch", 2, "bsp_sync|bsp_push_reg", ANY, NULL},
    {"tag_mismatch", 3, "bsp_sync|bsp_set_tagsize", ANY, NULL},
    {"pid_range", 3, "bsp_put", LAST, NULL},
    {"send_pid", 2, "bsp_send", LAST, NULL},
    {"neg_nbytes", 3, "bsp_put", LAST, NULL},
    {"neg_offset", 2, "bsp_get", LAST, NULL},
    {"move_empty", 2, "bsp_move", LAST, NULL},
    {"pop_unreg", 3, "bsp_pop_reg", ANY, NULL},
    {"popped_latest", 2, "bsp_put", LAST, NULL},
    {"repushed_smaller", 3, "bsp_put", LAST, NULL},
    {"too_many_pushes", 2, "bsp_push_reg|bsp_sync", ANY, NULL},
    {"end_vs_sync", 3, "bsp_end|bsp_sync", ANY, NULL},
    {"abort", 3, NULL, NOBODY, "custom 42"},
    {"noend", 3, "bsp_end", LAST, NULL},
    {"keep_orma_fewer", 3, "bsp_begin", ANY, NULL},
};

/* the temporary files, removed however the driver ends */
static char report[64], out[64];

static void remove_temps(void)
{
    if (report[0])
        unlink(report);
    if (out[0])
        unlink(out);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void temp_path(char *path, size_t len, const char *what)
{
    snprintf(path, len, "/tmp/bsp-err-%s-XXXXXX", what);
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK(f);
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    CHECK(text);
    size_t k;
    while ((k = fread(text + n, 1, cap - 1 - n, f)) > 0) {
        n += k;
        if (n == cap - 1) {
            cap *= 2;
            text = realloc(text, cap);
            CHECK(text);
        }
    }
    text[n] = '\0';
    fclose(f);
    return text;
}

/* Does a line of text name one of calls and (unless who is NOBODY) the
 * process: "process N", "pid N" or the like, N alone as a number. */
static int line_names(const char *text, const char *calls, enum who who, int nprocs)
{
    char pattern[256];
    if (who == LAST)
        snprintf(pattern, sizeof pattern, "(process|proc|pid|rank)[^0-9a-zA-Z]{0,3}%d([^0-9]|$)", nprocs - 1);
    else
        snprintf(pattern, sizeof pattern, "(process|proc|pid|rank)[^0-9a-zA-Z]{0,3}[0-%d]([^0-9]|$)", nprocs - 1);
    regex_t re;
    CHECK(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB | REG_ICASE) == 0);
    int found = 0;
    const char *line = text;
    while (*line && !found) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *one = strndup(line, len);
        CHECK(one);
        char names[128];
        snprintf(names, sizeof names, "%s", calls);
        for (char *save = NULL, *call = strtok_r(names, "|", &save); call && !found;
             call = strtok_r(NULL, "|", &save)) {
            /* the call's name as a word: not a prefix of a longer one */
            const char *at = one;
            while ((at = strstr(at, call))) {
                char after = at[strlen(call)];
                if (!(after == '_' || (after >= 'a' && after <= 'z'))) {
                    found = regexec(&re, one, 0, NULL, 0) == 0;
                    break;
                }
                at++;
            }
        }
        free(one);
        line += len + (end ? 1 : 0);
    }
    regfree(&re);
    return found;
}

int main(int argc, char **argv)
{
    CHECK(argc == 4);
    const struct err_case *c = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(cases[i].name, argv[1]))
            c = &cases[i];
    CHECK(c != NULL);

    char count[16];
    atexit(remove_temps);
    temp_path(report, sizeof report, "report");
    temp_path(out, sizeof out, "out");
    snprintf(count, sizeof count, "%d", c->nprocs);
    char *args[] = {argv[2], "-n", count, "--", argv[3], (char *)c->name, report, NULL};

    double t0 = now_s();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        int fd = open(out, O_WRONLY | O_TRUNC);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        execv(args[0], args);
        _exit(127);
    }
    int st;
    pid_t got;
    while ((got = waitpid(pid, &st, WNOHANG)) == 0 && now_s() - t0 < HANG_S)
        sleep_ms(5);
    double took = now_s() - t0;
    char *text = slurp(out);
    fprintf(stderr, "---- output of orma-run -n %d bsp_err %s ----\n%s---- end ----\n", c->nprocs, c->name, text);
    if (got == 0) {
        kill(pid, SIGKILL); /* the processes die with it */
        waitpid(pid, &st, 0);
        fprintf(stderr, "case %s: the job did not end within %.0f s\n", c->name, HANG_S);
        exit(1);
    }
    CHECK(got == pid);
    int status = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
    fprintf(stderr, "case %s, %d processes: status %d in %.2f s\n", c->name, c->nprocs, status, took);

    int failed = 0;
    if (status == 0 || status >= 126) {
        fprintf(stderr, "FAIL: exit status %d, expected an exit with a status of 1..125\n", status);
        failed = 1;
    }
    if (took >= PROMPT_S) {
        fprintf(stderr, "FAIL: the job took %.2f s to end (limit %.0f s)\n", took, PROMPT_S);
        failed = 1;
    }
    if (c->calls && !line_names(text, c->calls, c->who, c->nprocs)) {
        fprintf(stderr, "FAIL: no line on stderr names %s and %s\n", c->calls,
                c->who == LAST ? "the process that made the call" : "a process");
        failed = 1;
    }
    if (c->text && !strstr(text, c->text)) {
        fprintf(stderr, "FAIL: the output lacks \"%s\"\n", c->text);
        failed = 1;
    }
    if (strstr(text, "was not caught")) {
        fprintf(stderr, "FAIL: the error was not caught\n");
        failed = 1;
    }

    /* who came up, and whether anything of theirs survived */
    FILE *f = fopen(report, "r");
    CHECK(f);
    char line[256], token[64] = "";
    long pids[MAX_PROCS];
    int up = 0;
    while (fgets(line, sizeof line, f)) {
        char tok[64];
        long p;
        CHECK(sscanf(line, "up %ld %63s", &p, tok) == 2);
        CHECK(up < MAX_PROCS);
        pids[up++] = p;
        CHECK(!token[0] || !strcmp(token, tok));
        snprintf(token, sizeof token, "%s", tok);
    }
    fclose(f);
    if (up != c->nprocs) {
        fprintf(stderr, "FAIL: %d of %d processes started\n", up, c->nprocs);
        failed = 1;
    }
    for (int i = 0; i < up; i++)
        if (!(kill((pid_t)pids[i], 0) < 0 && errno == ESRCH)) {
            fprintf(stderr, "FAIL: process with pid %ld survived the job\n", pids[i]);
            kill((pid_t)pids[i], SIGKILL);
            failed = 1;
        }
    if (token[0] && strcmp(token, "-") && shm_objects_of(token)) {
        fprintf(stderr, "FAIL: the job left shared-memory objects\n");
        failed = 1;
    }
    if (!token[0] || !strcmp(token, "-")) {
        fprintf(stderr, "FAIL: no job token reported\n");
        failed = 1;
    }
    free(text);
    return failed;
}
