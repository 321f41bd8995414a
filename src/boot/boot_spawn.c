/* boot_spawn.c -- the client side of orma-run's spawn service (boot_spawn.h). */
#include "boot_spawn.h"
#include "boot_peer.h"
#include "util_config.h"
#include "util_status.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define BOOT_SPAWN_TIMEOUT_MS 60000

int boot_spawn_available(void) { return util_config.boot_service && util_config.boot_service[0]; }

static int boot_spawn_connect(int *fd_p)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t len = strlen(util_config.boot_service);
    if (len + 1 > sizeof addr.sun_path)
        return util_error(ORMA_ERR_PEER, "orma_spawn: the launcher's socket name is too long");
    memcpy(addr.sun_path + 1, util_config.boot_service, len); /* abstract: a leading NUL */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return util_error(ORMA_ERR_SYS, "orma_spawn: socket: %s", strerror(errno));
    if (connect(fd, (struct sockaddr *)&addr, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len))) {
        int e = errno;
        close(fd);
        return util_error(ORMA_ERR_PEER, "orma_spawn: cannot reach orma-run: %s", strerror(e));
    }
    *fd_p = fd;
    return ORMA_SUCCESS;
}

/* The request's strings: cwd, program, arguments. */
static char *boot_spawn_strings(const char *program, char *const argv[], int *argc_p, size_t *len_p)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, "/");
    size_t len = strlen(cwd) + 1 + strlen(program) + 1;
    int argc = 0;
    for (; argv && argv[argc]; argc++)
        len += strlen(argv[argc]) + 1;
    char *buf = len <= BOOT_SPAWN_MAX_BYTES ? malloc(len) : NULL;
    if (!buf)
        return NULL;
    char *p = buf;
    p = stpcpy(p, cwd) + 1;
    p = stpcpy(p, program) + 1;
    for (int i = 0; i < argc; i++)
        p = stpcpy(p, argv[i]) + 1;
    *argc_p = argc;
    *len_p = len;
    return buf;
}

int boot_spawn_request(const char *program, char *const argv[], int n, int parents, const char *bridge,
                       int32_t *pids)
{
    if (!boot_spawn_available())
        return util_error(ORMA_ERR_UNSUPPORTED, "orma_spawn: this job was not started by orma-run, which starts "
                          "spawned ranks");
    struct boot_spawn_req req = {.magic = BOOT_SPAWN_MAGIC, .n = n, .parents = parents};
    snprintf(req.bridge, sizeof req.bridge, "%s", bridge);
    size_t len;
    char *strings = boot_spawn_strings(program, argv, &req.argc, &len);
    if (!strings)
        return util_error(ORMA_ERR_ARG, "orma_spawn: the program's arguments exceed %d bytes, or no memory for "
                          "them", BOOT_SPAWN_MAX_BYTES);
    req.len = (uint32_t)len;
    int fd = -1, status = boot_spawn_connect(&fd);
    if (!status)
        status = boot_stream_send(fd, &req, sizeof req, "orma_spawn");
    if (!status)
        status = boot_stream_send(fd, strings, len, "orma_spawn");
    free(strings);
    struct boot_spawn_reply reply;
    if (!status)
        status = boot_stream_recv(fd, &reply, sizeof reply, BOOT_SPAWN_TIMEOUT_MS, "orma_spawn: orma-run");
    if (!status && reply.magic != BOOT_SPAWN_MAGIC)
        status = util_error(ORMA_ERR_PEER, "orma_spawn: orma-run answered with nonsense");
    if (!status && reply.status) {
        reply.why[sizeof reply.why - 1] = '\0';
        /* The launcher's own trouble, or the program's (not there, cannot run, too many ranks). */
        int code = reply.status == EAGAIN || reply.status == ENOMEM || reply.status == EINVAL ? ORMA_ERR_SYS
                                                                                              : ORMA_ERR_ARG;
        status = util_error(code, "orma_spawn: %s", reply.why);
    }
    if (!status)
        status = boot_stream_recv(fd, pids, (size_t)n * sizeof *pids, BOOT_SPAWN_TIMEOUT_MS, "orma_spawn: orma-run");
    if (fd >= 0)
        close(fd);
    return status;
}
