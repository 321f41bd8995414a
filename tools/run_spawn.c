/* run_spawn.c -- orma-run's spawn service (boot_spawn.h): one request per
 * connection, answered at once.  The request is read with a short timeout:
 * a rank sends it whole right after connecting, and the launcher must not
 * stop watching its ranks for a client that does not. */
#include "run.h"
#include "boot_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define RUN_SERVE_TIMEOUT_MS 2000

int run_serve_open(struct run_job *job)
{
    snprintf(job->service, sizeof job->service, "orma-run-%u-%s", (unsigned)getuid(), job->token);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t len = strlen(job->service);
    memcpy(addr.sun_path + 1, job->service, len);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len)) ||
        listen(fd, 64)) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        job->service[0] = '\0';
        errno = e;
        return -1;
    }
    job->lfd = fd;
    return 0;
}

static int run_read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, RUN_SERVE_TIMEOUT_MS);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        ssize_t k = read(fd, p, len);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (k <= 0)
            return -1;
        p += k;
        len -= (size_t)k;
    }
    return 0;
}

static void run_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t k = send(fd, p, len, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return; /* the rank went away: it will not start anybody */
        p += k;
        len -= (size_t)k;
    }
}

/* The strings of a request, split: cwd, program, argc arguments; argv is
 * filled from index 1 and NULL-terminated.  -1 when they do not add up. */
static int run_split(char *buf, size_t len, int argc, const char **cwd, const char **program, char **argv)
{
    char *p = buf, *end = buf + len;
    const char **first[2] = {cwd, program};
    for (int i = 0; i < 2 + argc; i++) {
        char *z = memchr(p, '\0', (size_t)(end - p));
        if (!z)
            return -1;
        if (i < 2)
            *first[i] = p;
        else
            argv[i - 1] = p;
        p = z + 1;
    }
    argv[argc + 1] = NULL;
    return p == end ? 0 : -1;
}

static void run_answer(struct run_job *job, int fd, const struct boot_spawn_req *req, char *strings)
{
    struct boot_spawn_reply reply = {.magic = BOOT_SPAWN_MAGIC};
    const char *cwd = NULL, *program = NULL;
    char **argv = calloc((size_t)req->argc + 2, sizeof *argv);
    char path[PATH_MAX], parent[sizeof req->bridge + 16];
    pid_t *pids = calloc((size_t)req->n, sizeof *pids);
    int err, here = open(".", O_PATH | O_CLOEXEC); /* programs are found from the rank's directory */
    if (!argv || !pids) {
        reply.status = ENOMEM;
        snprintf(reply.why, sizeof reply.why, "orma-run is out of memory");
    } else if (run_split(strings, req->len, req->argc, &cwd, &program, argv)) {
        reply.status = EINVAL;
        snprintf(reply.why, sizeof reply.why, "a malformed request");
    } else if (job->live + req->n > job->universe) {
        reply.status = E2BIG;
        snprintf(reply.why, sizeof reply.why, "%d more ranks do not fit: %d of the universe's %d are alive "
                 "(orma-run -u)", req->n, job->live, job->universe);
    } else if ((err = chdir(cwd) ? errno : 0) || (err = run_resolve_program(program, path, sizeof path))) {
        reply.status = err;
        snprintf(reply.why, sizeof reply.why, "cannot execute %s: %s", program,
                 err == ENOENT && !strchr(program, '/') ? "command not found" : strerror(err));
    } else {
        argv[0] = (char *)program;
        char token[33];
        snprintf(parent, sizeof parent, "%s:%d", req->bridge, req->parents);
        int rc = run_make_token(token) ? -1 : run_start(job, path, argv, cwd, req->n, token, parent, pids);
        if (rc == -2) {
            reply.status = errno;
            snprintf(reply.why, sizeof reply.why, "cannot execute %.100s: %s", path, strerror(errno));
        } else if (rc) {
            reply.status = EAGAIN;
            snprintf(reply.why, sizeof reply.why, "orma-run could not start the ranks");
        } else {
            memcpy(reply.token, token, sizeof token);
        }
    }
    if (here >= 0) {
        if (fchdir(here))
            fprintf(stderr, "orma-run: cannot return to its directory: %s\n", strerror(errno));
        close(here);
    }
    run_write_all(fd, &reply, sizeof reply);
    if (!reply.status) {
        int32_t *out = (int32_t *)pids; /* pid_t is int32_t on Linux */
        run_write_all(fd, out, (size_t)req->n * sizeof *out);
    }
    free(argv);
    free(pids);
}

void run_serve(struct run_job *job)
{
    int fd = accept4(job->lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    struct boot_spawn_req req;
    char *strings = NULL;
    if (run_read_all(fd, &req, sizeof req) || req.magic != BOOT_SPAWN_MAGIC || req.n < 1 ||
        req.n > (1 << 20) || req.parents < 1 || req.argc < 0 || req.len > BOOT_SPAWN_MAX_BYTES ||
        !memchr(req.bridge, '\0', sizeof req.bridge) || !(strings = malloc(req.len ? req.len : 1)) ||
        run_read_all(fd, strings, req.len)) {
        fprintf(stderr, "orma-run: ignoring a malformed spawn request\n");
    } else {
        run_answer(job, fd, &req, strings);
    }
    free(strings);
    close(fd);
}
