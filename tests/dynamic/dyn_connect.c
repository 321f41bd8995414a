/* dyn_connect.c -- two jobs that connect: through a port (accept and
 * connect), and over a socket (join).  This program under orma-run is the
 * first job; its rank 0 starts the second with orma-run itself, so that
 * each job has its own launcher, as two applications would.
 *
 *   dyn_connect <orma-run> accept <N>     accept N ranks of "connect"
 *   dyn_connect <orma-run> join           join one rank of "joined"
 *   dyn_connect <orma-run> die <N>        accept N ranks that die after
 *                                         the first window: every later
 *                                         call on it fails within 5 s, and
 *                                         this job goes on and ends well
 * and, started by those:
 *   dyn_connect <orma-run> connect <port> [die <tokenfile>]
 *   dyn_connect <orma-run> joined <fd> */
#include "dyn_windows.h"
#include "shm_left.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* rank 0 of the first job: the second job, by its own orma-run. */
static pid_t start_job(char *const argv[], int keep_fd)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (keep_fd >= 0)
            fcntl(keep_fd, F_SETFD, 0);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int wait_job(pid_t pid)
{
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The connected job's side of "die": one window, then gone. */
static void die_after_window(orma_team merged, const char *tokenfile)
{
    struct dyn_win d;
    int me, np;
    CHECK_OK(orma_team_rank(merged, &me));
    CHECK_OK(orma_team_size(merged, &np));
    dyn_make(merged, 1, np, &d);
    if (orma_rank() == 0) {
        FILE *f = fopen(tokenfile, "w");
        CHECK(f);
        fprintf(f, "%s\n", getenv("ORMA_BOOT_JOB"));
        fclose(f);
    }
    CHECK_OK(orma_team_barrier(merged));
    _exit(3); /* every rank of this job, unfinalized: its launcher ends it */
}

/* The surviving job's side: the window's calls fail, not hang. */
static void survive(orma_team merged)
{
    struct dyn_win d;
    int me, np;
    CHECK_OK(orma_team_rank(merged, &me));
    CHECK_OK(orma_team_size(merged, &np));
    dyn_make(merged, 1, np, &d);
    CHECK_OK(orma_team_barrier(merged));
    double t0 = now_s();
    CHECK_ERR(orma_team_barrier(merged), ORMA_ERR_PEER);
    CHECK(now_s() - t0 < 5.0);
    t0 = now_s();
    int rc = orma_win_fence(0, d.win); /* opens an epoch: may pass, or find them gone */
    if (rc == ORMA_SUCCESS)
        rc = orma_win_fence(0, d.win);
    CHECK(rc == ORMA_ERR_PEER);
    CHECK(now_s() - t0 < 5.0);
    CHECK_ERR(orma_win_lock_all(0, d.win), ORMA_ERR_PEER); /* and every later call */
    CHECK_ERR(orma_win_free(&d.win), ORMA_ERR_PEER);       /* released here all the same */
    CHECK(d.win == ORMA_WIN_NULL);
    CHECK_OK(orma_team_free(&merged));
    CHECK_OK(orma_barrier()); /* this job goes on */
    if (me == 0)
        printf("  the other job's death: errors within %.2f s\n", now_s() - t0);
}

static orma_team accept_side(const char *orma_run, const char *self, int n, int die, pid_t *pid_p,
                             char *tokenfile)
{
    char port[ORMA_PORT_NAME_MAX] = "";
    orma_team merged;
    if (orma_rank() == 0) {
        CHECK_OK(orma_port_open(port));
        char count[16];
        snprintf(count, sizeof count, "%d", n);
        snprintf(tokenfile, 64, "/tmp/dyn_connect.%ld", (long)getpid());
        char *argv[] = {(char *)orma_run, "-n", count, (char *)self, (char *)orma_run, "connect", port,
                        die ? "die" : NULL, tokenfile, NULL};
        *pid_p = start_job(argv, -1);
    }
    CHECK_OK(orma_team_accept(port, ORMA_TEAM_WORLD, 0, &merged));
    if (orma_rank() == 0)
        CHECK_OK(orma_port_close(port));
    int np, me;
    CHECK_OK(orma_team_size(merged, &np));
    CHECK_OK(orma_team_rank(merged, &me));
    CHECK(np == orma_size() + n && me == orma_rank());
    return merged;
}

int main(int argc, char **argv)
{
    CHECK(argc >= 3);
    const char *orma_run = argv[1], *mode = argv[2];
    CHECK_OK(orma_init(&argc, &argv));
    orma_team merged;
    pid_t other = -1;
    char tokenfile[64] = "";
    if (!strcmp(mode, "accept") || !strcmp(mode, "die")) {
        int die = !strcmp(mode, "die");
        merged = accept_side(orma_run, argv[0], atoi(argv[3]), die, &other, tokenfile);
        if (die) {
            survive(merged);
        } else {
            dyn_check_windows(merged);
            CHECK_OK(orma_team_free(&merged));
        }
    } else if (!strcmp(mode, "connect")) {
        CHECK(argc >= 4);
        CHECK_OK(orma_team_connect(orma_rank() == 0 ? argv[3] : NULL, ORMA_TEAM_WORLD, 0, &merged));
        int np, me;
        CHECK_OK(orma_team_size(merged, &np));
        CHECK_OK(orma_team_rank(merged, &me));
        CHECK(me == np - orma_size() + orma_rank());
        if (argc > 5 && !strcmp(argv[4], "die"))
            die_after_window(merged, argv[5]);
        dyn_check_windows(merged);
        CHECK_OK(orma_team_free(&merged));
    } else if (!strcmp(mode, "join")) {
        CHECK(orma_size() == 1);
        int sv[2];
        CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
        char fd[16];
        snprintf(fd, sizeof fd, "%d", sv[1]);
        char *args[] = {(char *)orma_run, "-n", "1", argv[0], (char *)orma_run, "joined", fd, NULL};
        other = start_job(args, sv[1]);
        close(sv[1]);
        CHECK_OK(orma_team_join(sv[0], &merged));
        dyn_check_windows(merged);
        CHECK_OK(orma_team_free(&merged));
        close(sv[0]);
    } else if (!strcmp(mode, "joined")) {
        CHECK_OK(orma_team_join(atoi(argv[3]), &merged));
        int np;
        CHECK_OK(orma_team_size(merged, &np));
        CHECK(np == 2);
        dyn_check_windows(merged);
        CHECK_OK(orma_team_free(&merged));
    } else {
        CHECK(!"unknown mode");
    }
    if (other > 0) {
        int st = wait_job(other);
        if (!strcmp(mode, "die")) {
            CHECK(st == 3);
            char token[64] = "";
            FILE *f = fopen(tokenfile, "r");
            CHECK(f && fgets(token, sizeof token, f));
            fclose(f);
            unlink(tokenfile);
            token[strcspn(token, "\n")] = '\0';
            CHECK(shm_objects_of(token) == 0);
        } else {
            CHECK(st == 0);
        }
    }
    if (orma_rank() == 0)
        printf("%s: ok\n", mode);
    CHECK_OK(orma_finalize());
    return 0;
}
