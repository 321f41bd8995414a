/* launcher_driver.c -- runs orma-run the way a user would and checks how the
 * job ends: the exit status, how long it took, that no rank survives and that
 * nothing of the job is left in /dev/shm.
 *
 *   launcher_driver <case> <orma-run> <launcher_rank>
 *
 * The ranks (launcher_rank.c) report their pids and the job's token to a file,
 * so the leftover check looks at this job only: other jobs may run at the same
 * time under ctest -j. */
#include "check.h"
#include "shm_left.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RANKS 8
#define PROMPT_S 3.0 /* a failed job must be gone by then (grace is 0.25 s) */
#define HANG_S 30.0  /* give up on a launcher that does not end */

static const char *orma_run, *rank_prog;

struct job_report {
    int up, fin;
    long pids[MAX_RANKS];
    char token[64];
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* stdout and stderr of the launcher go to out (when given). */
static pid_t start(char *const argv[], const char *out)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        /* ctest started in the background would hand down an ignored SIGINT. */
        signal(SIGINT, SIG_DFL);
        if (out) {
            int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
                _exit(126);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/* The exit status as a shell shows it (128+signal), failing the test when
 * the launcher is still running after HANG_S. */
static int finish(pid_t pid)
{
    double deadline = now_s() + HANG_S;
    int st;
    pid_t got;
    while ((got = waitpid(pid, &st, WNOHANG)) == 0 && now_s() < deadline)
        sleep_ms(2);
    if (got == 0) {
        kill(pid, SIGKILL); /* the ranks die with it (PR_SET_PDEATHSIG) */
        waitpid(pid, &st, 0);
        fprintf(stderr, "orma-run did not end within %.0f s\n", HANG_S);
        exit(1);
    }
    CHECK(got == pid);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

static void read_report(const char *path, struct job_report *rep)
{
    memset(rep, 0, sizeof *rep);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[256], token[64];
    int rank, size;
    long pid;
    while (fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n'))
            break; /* still being written */
        if (sscanf(line, "up %d %d %ld %63s", &rank, &size, &pid, token) == 4) {
            CHECK(rank >= 0 && rank < MAX_RANKS && !rep->pids[rank]);
            CHECK(!rep->token[0] || !strcmp(rep->token, token));
            rep->pids[rank] = pid;
            snprintf(rep->token, sizeof rep->token, "%s", token);
            rep->up++;
        } else if (sscanf(line, "fin %d", &rank) == 1) {
            rep->fin++;
        }
    }
    fclose(f);
}

static void check_ranks_gone(const struct job_report *rep)
{
    for (int r = 0; r < MAX_RANKS; r++)
        if (rep->pids[r] && !(kill((pid_t)rep->pids[r], 0) < 0 && errno == ESRCH)) {
            fprintf(stderr, "rank %d (pid %ld) survived the launcher\n", r, rep->pids[r]);
            exit(1);
        }
}

static void temp_path(char *path, size_t len, const char *what)
{
    snprintf(path, len, "/tmp/launcher-test-%s-XXXXXX", what);
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
}

/* Runs launcher_rank <mode> under orma-run -n n and checks the status and
 * the cleanup.  signal_at_up: send SIGINT to the launcher once every rank is
 * up.  Returns the seconds from start (or from the signal) to the end. */
static double run_job(const char *mode, int n, int want, int signal_at_up, struct job_report *rep)
{
    char report[64], count[16];
    temp_path(report, sizeof report, "report");
    unlink(report); /* the ranks create it, so "absent" means nobody came up */
    snprintf(count, sizeof count, "%d", n);
    char *argv[] = {(char *)orma_run, "-n", count, "--", (char *)rank_prog, (char *)mode, report, NULL};

    double t0 = now_s();
    pid_t pid = start(argv, NULL);
    if (signal_at_up) {
        for (read_report(report, rep); rep->up < n; read_report(report, rep)) {
            CHECK(now_s() - t0 < HANG_S);
            sleep_ms(5);
        }
        t0 = now_s();
        CHECK(kill(pid, SIGINT) == 0);
    }
    int status = finish(pid);
    double took = now_s() - t0;
    read_report(report, rep);
    unlink(report);
    fprintf(stderr, "mode %s, %d ranks: status %d in %.3f s\n", mode, n, status, took);
    CHECK(status == want);
    CHECK(rep->up == n);
    CHECK(shm_objects_of(rep->token) == 0);
    check_ranks_gone(rep);
    return took;
}

static void case_ok(void)
{
    struct job_report rep;
    for (int n = 1; n <= 4; n++) {
        run_job("ok", n, 0, 0, &rep);
        CHECK(rep.fin == n);
    }
}

static void case_fail(const char *mode, int want)
{
    struct job_report rep;
    CHECK(run_job(mode, 3, want, 0, &rep) < PROMPT_S);
    CHECK(rep.fin == 0);
}

static void case_sigint(void)
{
    struct job_report rep;
    /* Rank 0 ignores SIGINT and SIGTERM: only SIGKILL ends it. */
    CHECK(run_job("hang", 3, 128 + SIGINT, 1, &rep) < 2.0);
}

static void case_late(void)
{
    struct job_report rep;
    run_job("late", 3, 4, 0, &rep);
    CHECK(rep.fin == 3); /* nobody was killed */
}

/* The launcher and its ranks killed at once (SIGKILL to the process group,
 * as when a batch system or a container stops): nobody of the job cleans up,
 * so the next job to start on the node must sweep what it left. */
static void case_wholekill(void)
{
    char report[64];
    temp_path(report, sizeof report, "report");
    unlink(report);
    CHECK(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    char *argv[] = {(char *)orma_run, "-n", "3", "--", (char *)rank_prog, "hang", report, NULL};
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid); /* whichever of the two runs first */
    struct job_report rep;
    double t0 = now_s();
    for (read_report(report, &rep); rep.up < 3; read_report(report, &rep)) {
        CHECK(now_s() - t0 < HANG_S);
        sleep_ms(5);
    }
    unlink(report);
    CHECK(kill(-pid, SIGKILL) == 0);
    CHECK(finish(pid) == 128 + SIGKILL);
    /* The orphaned ranks (killed with the launcher: PR_SET_PDEATHSIG) are
     * this process's to reap, as its subreaper. */
    int reaped = 0;
    for (t0 = now_s(); reaped < 3 && now_s() - t0 < HANG_S;)
        if (waitpid(-1, NULL, WNOHANG) > 0)
            reaped++;
        else
            sleep_ms(2);
    check_ranks_gone(&rep);
    int left = shm_objects_of(rep.token);
    fprintf(stderr, "the killed job left %d objects\n", left);
    CHECK(left > 0); /* or nothing was tested */
    sleep_ms(2100); /* a liveness file younger than 2 s is left alone */
    struct job_report next;
    run_job("ok", 1, 0, 0, &next);
    CHECK(strcmp(next.token, rep.token));
    CHECK(shm_objects_of(rep.token) == 0);
}

/* Runs orma-run with argv (orma-run itself first) and returns its status;
 * *text receives the start of what it printed. */
static int run_plain(char *const argv[], char *text, size_t len)
{
    char out[64];
    temp_path(out, sizeof out, "out");
    int status = finish(start(argv, out));
    FILE *f = fopen(out, "r");
    CHECK(f);
    size_t k = fread(text, 1, len - 1, f);
    text[k] = '\0';
    fclose(f);
    unlink(out);
    return status;
}

static void case_badargs(void)
{
    char *run = (char *)orma_run;
    char *const cases[][6] = {
        {run, "-n", "0", "/bin/true", NULL},     {run, "-n", "abc", "/bin/true", NULL},
        {run, "-n", "-1", "/bin/true", NULL},    {run, "-n", "4097", "/bin/true", NULL},
        {run, "-n", NULL},                       {run, "-n", "2", NULL},
        {run, "-n", "2", "--", NULL},            {run, "/bin/true", NULL},
        {run, "-n", "2", "/nonexistent/prog", NULL},
        {run, "-n", "2", "no-such-program-in-path", NULL},
        {run, "-n", "2", "/dev/null", NULL},     {run, "--bogus", "-n", "2", "/bin/true", NULL},
    };
    char text[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int status = run_plain(cases[i], text, sizeof text);
        fprintf(stderr, "case %zu: status %d: %s", i, status, text);
        CHECK(status == 2);
        CHECK(strstr(text, "usage:"));
    }
    char *const help[] = {run, "--help", NULL};
    CHECK(run_plain(help, text, sizeof text) == 0);
    CHECK(strstr(text, "usage:"));
}

/* Programs that never call orma_init: the launcher only sees exit codes. */
static void case_noorma(void)
{
    char *run = (char *)orma_run;
    char text[1024];
    char *const truth[] = {run, "-n", "3", "/bin/true", NULL};
    CHECK(run_plain(truth, text, sizeof text) == 0);
    char *const path[] = {run, "-n2", "false", NULL};
    CHECK(run_plain(path, text, sizeof text) == 1);
    char *const code[] = {run, "-np", "2", "--", "sh", "-c", "exit 5", NULL};
    CHECK(run_plain(code, text, sizeof text) == 5);
    /* The six ORMA_BOOT_* variables of a first rank (a spawned one has
     * ORMA_BOOT_PARENT too), an open pipe, and the slot equal to the rank:
     * nothing else. */
    char *const env[] = {
        run, "-n", "3", "sh", "-c",
        "[ \"$ORMA_BOOT_SIZE\" = 3 ] && [ \"$ORMA_BOOT_RANK\" -ge 0 ] && [ \"$ORMA_BOOT_RANK\" -lt 3 ] && "
        "[ ${#ORMA_BOOT_JOB} = 32 ] && [ -e /proc/$$/fd/$ORMA_BOOT_FD ] && "
        "[ \"$ORMA_BOOT_SLOT\" = \"$ORMA_BOOT_RANK\" ] && [ \"$ORMA_BOOT_SERVICE\" = "
        "\"orma-run-$(id -u)-$ORMA_BOOT_JOB\" ] && [ $(env | grep -c '^ORMA_BOOT_') = 6 ]",
        NULL};
    int status = run_plain(env, text, sizeof text);
    fprintf(stderr, "%s", text);
    CHECK(status == 0);
}

int main(int argc, char **argv)
{
    CHECK(argc == 4);
    orma_run = argv[2];
    rank_prog = argv[3];
    const char *c = argv[1];
    if (!strcmp(c, "ok"))
        case_ok();
    else if (!strcmp(c, "segv"))
        case_fail("segv", 128 + SIGSEGV);
    else if (!strcmp(c, "kill"))
        case_fail("kill", 128 + SIGKILL);
    else if (!strcmp(c, "exit3"))
        case_fail("exit3", 3);
    else if (!strcmp(c, "sigint"))
        case_sigint();
    else if (!strcmp(c, "late"))
        case_late();
    else if (!strcmp(c, "badargs"))
        case_badargs();
    else if (!strcmp(c, "wholekill"))
        case_wholekill();
    else if (!strcmp(c, "noorma"))
        case_noorma();
    else
        CHECK(!"unknown case");
    return 0;
}
