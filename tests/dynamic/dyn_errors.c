/* dyn_errors.c -- what goes wrong with spawned and connected jobs ends in
 * an error code with a message naming the rank, or in a clean end of the
 * job within seconds, with nothing left in /dev/shm.
 *
 *   dyn_errors errors               (under orma-run) bad arguments, programs
 *                                   that are not there, too many ranks,
 *                                   ports nobody opened
 *   dyn_errors nolauncher           (alone) orma_spawn needs orma-run
 *   dyn_errors driver <orma-run>    runs "die-parent" under orma-run: its
 *                                   spawned ranks die, the whole run ends
 *                                   promptly and leaves nothing behind */
#include "check.h"
#include "shm_left.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROMPT_S 5.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void errors(const char *self)
{
    orma_team merged = (orma_team)0x1234;
    int me = orma_rank(), np = orma_size();
    char *none[] = {NULL};
    /* Bad arguments: every rank fails alike, none has a team. */
    CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, np, self, none, 1, ORMA_INFO_NULL, &merged), ORMA_ERR_ARG);
    CHECK(merged == ORMA_TEAM_NULL);
    CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, 0, self, none, me == 0 ? 0 : 1, ORMA_INFO_NULL, &merged),
              me == 0 ? ORMA_ERR_ARG : ORMA_ERR_PEER);
    CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, 0, me == 0 ? NULL : self, none, 1, ORMA_INFO_NULL, &merged),
              me == 0 ? ORMA_ERR_ARG : ORMA_ERR_PEER);
    CHECK_ERR(orma_spawn(ORMA_TEAM_NULL, 0, self, none, 1, ORMA_INFO_NULL, &merged), ORMA_ERR_ARG);
    /* A program that is not there, or cannot run: said by the root's
     * launcher, the same error at every rank. */
    int want = me == 0 ? ORMA_ERR_ARG : ORMA_ERR_PEER;
    CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, 0, "orma-no-such-program", none, 2, ORMA_INFO_NULL, &merged), want);
    CHECK(merged == ORMA_TEAM_NULL);
    CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, 0, "/etc/hostname", none, 1, ORMA_INFO_NULL, &merged), want);
    CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, 0, "./dyn_errors_not_here", none, 1, ORMA_INFO_NULL, &merged), want);
    /* More ranks than the universe (orma-run's default: 4096 alive). */
    CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, 0, self, none, 5000, ORMA_INFO_NULL, &merged), want);
    /* A working directory that is not there. */
    orma_info info;
    CHECK_OK(orma_info_create(&info));
    CHECK_OK(orma_info_set(info, "wdir", "/nonexistent/dir"));
    CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, 0, self, none, 1, info, &merged), want);
    CHECK_OK(orma_info_free(&info));
    /* Ports. */
    char port[ORMA_PORT_NAME_MAX];
    CHECK_ERR(orma_team_connect("orma-port-0-nobody", ORMA_TEAM_WORLD, 0, &merged), want);
    CHECK_ERR(orma_team_accept(me == 0 ? "orma-port-0-nobody" : NULL, ORMA_TEAM_WORLD, 0, &merged), want);
    CHECK_ERR(orma_port_close("orma-port-0-nobody"), ORMA_ERR_ARG);
    CHECK_ERR(orma_port_open(NULL), ORMA_ERR_ARG);
    CHECK_OK(orma_port_open(port));
    CHECK_OK(orma_port_close(port));
    CHECK_ERR(orma_port_close(port), ORMA_ERR_ARG);
    CHECK_ERR(orma_team_join(-1, &merged), ORMA_ERR_ARG);
    CHECK_ERR(orma_team_join(0, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_team_parent(NULL), ORMA_ERR_ARG);
    CHECK_OK(orma_team_parent(&merged));
    CHECK(merged == ORMA_TEAM_NULL);
    /* After all that, spawning still works. */
    char *args[] = {"child", NULL};
    CHECK_OK(orma_spawn(ORMA_TEAM_WORLD, 0, self, args, 1, ORMA_INFO_NULL, &merged));
    CHECK_OK(orma_team_barrier(merged));
    CHECK_OK(orma_team_free(&merged));
}

static void record_token(const char *file)
{
    FILE *f = fopen(file, "a");
    CHECK(f);
    fprintf(f, "%s\n", getenv("ORMA_BOOT_JOB"));
    fclose(f);
}

static void driver(const char *orma_run, const char *self)
{
    char file[64];
    snprintf(file, sizeof file, "/tmp/dyn_errors.%ld", (long)getpid());
    unlink(file);
    double t0 = now_s();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        execl(orma_run, orma_run, "-n", "2", self, "die-parent", file, (char *)NULL);
        _exit(127);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    double took = now_s() - t0;
    printf("orma-run ended with status %d after %.2f s\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1, took);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 5); /* the first to fail: a child's code */
    CHECK(took < PROMPT_S);
    FILE *f = fopen(file, "r");
    CHECK(f);
    char token[64];
    int jobs = 0;
    while (fgets(token, sizeof token, f)) {
        token[strcspn(token, "\n")] = '\0';
        CHECK(shm_objects_of(token) == 0);
        jobs++;
    }
    fclose(f);
    unlink(file);
    CHECK(jobs >= 2); /* the parents' job and the children's */
}

int main(int argc, char **argv)
{
    CHECK(argc >= 2);
    const char *mode = argv[1];
    if (!strcmp(mode, "driver")) {
        CHECK(argc == 3);
        driver(argv[2], argv[0]);
        return 0;
    }
    CHECK_OK(orma_init(&argc, &argv));
    orma_team merged;
    if (!strcmp(mode, "errors")) {
        errors(argv[0]);
    } else if (!strcmp(mode, "child")) {
        CHECK_OK(orma_team_parent(&merged));
        CHECK(merged != ORMA_TEAM_NULL);
        CHECK_OK(orma_team_barrier(merged));
    } else if (!strcmp(mode, "nolauncher")) {
        char *none[] = {NULL};
        CHECK_ERR(orma_spawn(ORMA_TEAM_WORLD, 0, argv[0], none, 1, ORMA_INFO_NULL, &merged), ORMA_ERR_UNSUPPORTED);
    } else if (!strcmp(mode, "die-parent")) {
        if (orma_rank() == 0)
            record_token(argv[2]);
        char *args[] = {"die-child", argv[2], NULL};
        CHECK_OK(orma_spawn(ORMA_TEAM_WORLD, 0, argv[0], args, 2, ORMA_INFO_NULL, &merged));
        orma_team_barrier(merged); /* never passed: the children die first */
        fprintf(stderr, "a parent passed a barrier its dead children never reached\n");
        return 1;
    } else if (!strcmp(mode, "die-child")) {
        if (orma_rank() == 0)
            record_token(argv[2]);
        orma_barrier();
        _exit(5);
    }
    CHECK_OK(orma_finalize());
    return 0;
}
