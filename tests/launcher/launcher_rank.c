/* launcher_rank.c -- the rank program of the launcher tests: an orma job
 * that ends the way argv[1] says.
 *
 *   launcher_rank <mode> [report-file]
 *
 * Every rank joins, allocates a window, creates a shared-memory object named
 * like the library's and never removes it (what a killed rank leaves behind,
 * for the launcher to sweep), appends "up <rank> <size> <pid> <token>" to the
 * report file and enters a barrier.  Then, by mode:
 *   ok     every rank finalizes and exits 0
 *   segv   the last rank raises SIGSEGV; the others wait in a barrier forever
 *   kill   the same with SIGKILL
 *   exit3  the same with exit(3)
 *   hang   every rank sleeps forever; rank 0 ignores SIGINT and SIGTERM
 *   late   every rank finalizes, then the last one exits 4
 * A rank appends "fin <rank>" once orma_finalize has returned. */
#include "check.h"

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static const char *report_path;

/* One write per line: O_APPEND keeps the ranks' lines whole. */
__attribute__((format(printf, 1, 2))) static void report(const char *fmt, ...)
{
    if (!report_path)
        return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    int fd = open(report_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    CHECK(fd >= 0);
    CHECK(write(fd, line, (size_t)len) == len);
    close(fd);
}

static void leave_shm_object(const char *token, int rank)
{
    char name[128];
    snprintf(name, sizeof name, "/orma-%u-%s-launcher-test-%d", (unsigned)getuid(), token, rank);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    CHECK(fd >= 0);
    close(fd);
}

static _Noreturn void fail(const char *mode)
{
    if (!strcmp(mode, "exit3"))
        exit(3);
    /* A core dump would only slow the test down. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    int sig = !strcmp(mode, "segv") ? SIGSEGV : SIGKILL;
    signal(sig, SIG_DFL);
    raise(sig);
    abort();
}

int main(int argc, char **argv)
{
    CHECK(argc >= 2);
    const char *mode = argv[1];
    report_path = argc >= 3 ? argv[2] : NULL;

    CHECK_OK(orma_init(NULL, NULL));
    int rank = orma_rank(), size = orma_size();
    const char *token = getenv("ORMA_BOOT_JOB");
    CHECK(token && strlen(token) == 32 && strspn(token, "0123456789abcdef") == 32);
    CHECK(atoi(getenv("ORMA_BOOT_SIZE")) == size);

    void *base;
    orma_win win;
    CHECK_OK(orma_win_allocate(4096, 1, ORMA_INFO_NULL, &base, &win));
    leave_shm_object(token, rank);
    if (!strcmp(mode, "hang") && rank == 0) {
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
    }
    report("up %d %d %ld %s\n", rank, size, (long)getpid(), token);
    /* Past this barrier every rank has reported. */
    CHECK_OK(orma_barrier());

    if (!strcmp(mode, "hang"))
        for (;;)
            pause();
    if (!strcmp(mode, "segv") || !strcmp(mode, "kill") || !strcmp(mode, "exit3")) {
        if (rank == size - 1)
            fail(mode);
        orma_barrier();
        fprintf(stderr, "rank %d: barrier passed without rank %d\n", rank, size - 1);
        return 99;
    }
    CHECK(!strcmp(mode, "ok") || !strcmp(mode, "late"));
    CHECK_OK(orma_win_free(&win));
    CHECK_OK(orma_finalize());
    report("fin %d\n", rank);
    return !strcmp(mode, "late") && rank == size - 1 ? 4 : 0;
}
