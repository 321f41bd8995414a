/* boot_peer.c -- see boot_peer.h. */
#include "boot_peer.h"
#include "boot_job.h"
#include "util_status.h"
#include "util_time.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <unistd.h>

struct boot_token_node {
    struct boot_token_node *next;
    char token[BOOT_TOKEN_MAX];
};

static struct boot_token_node *boot_tokens;

const char *boot_token_intern(const char *token)
{
    for (struct boot_token_node *n = boot_tokens; n; n = n->next)
        if (!strncmp(n->token, token, sizeof n->token))
            return n->token;
    struct boot_token_node *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    snprintf(n->token, sizeof n->token, "%s", token);
    n->next = boot_tokens;
    boot_tokens = n;
    return n->token;
}

void boot_name_of(char *buf, size_t len, const char *token, const char *fmt, ...)
{
    int n = snprintf(buf, len, "/orma-%u-%s-", (unsigned)getuid(), token);
    if (n < 0 || (size_t)n >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - (size_t)n, fmt, ap);
    va_end(ap);
}

static uint64_t boot_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001b3);
    return h;
}

static int boot_node_by_job;

void boot_node_split(void) { boot_node_by_job = 1; }

uint64_t boot_node_id(void)
{
    static uint64_t id;
    if (id)
        return id;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    if (boot_node_by_job)
        h = boot_fnv(h, boot_job.token, strlen(boot_job.token));
    char text[256] = "";
    gethostname(text, sizeof text - 1);
    h = boot_fnv(h, text, strlen(text));
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (fgets(text, sizeof text, f))
            h = boot_fnv(h, text, strlen(text));
        fclose(f);
    }
    struct stat st;
    if (!stat("/dev/shm", &st)) {
        h = boot_fnv(h, &st.st_dev, sizeof st.st_dev);
        h = boot_fnv(h, &st.st_ino, sizeof st.st_ino);
    }
    id = h ? h : 1;
    return id;
}

int boot_pid_alive(pid_t pid)
{
    if (pid <= 0)
        return 0;
    if (kill(pid, 0) && errno == ESRCH)
        return 0;
    /* A zombie is gone for our purposes: its launcher has not reaped it yet. */
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1; /* no /proc: kill's answer */
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the name may hold anything */
    return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

int boot_stream_send(int fd, const void *buf, size_t len, const char *what)
{
    const char *p = buf;
    while (len) {
        ssize_t k = send(fd, p, len, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno == ENOTSOCK)
            k = write(fd, p, len);
        if (k <= 0)
            return util_error(ORMA_ERR_PEER, "%s: cannot send: %s", what, k < 0 ? strerror(errno) : "closed");
        p += k;
        len -= (size_t)k;
    }
    return ORMA_SUCCESS;
}

int boot_stream_recv(int fd, void *buf, size_t len, int timeout_ms, const char *what)
{
    char *p = buf;
    uint64_t end = timeout_ms < 0 ? 0 : util_time_ns() + (uint64_t)timeout_ms * 1000000;
    while (len) {
        int wait = -1;
        if (timeout_ms >= 0) {
            uint64_t now = util_time_ns();
            if (now >= end)
                return util_error(ORMA_ERR_PEER, "%s: no answer within %d ms", what, timeout_ms);
            wait = (int)((end - now) / 1000000) + 1;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, wait);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return util_error(ORMA_ERR_PEER, "%s: %s", what, strerror(errno));
        if (r == 0)
            continue;
        ssize_t k = read(fd, p, len);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (k <= 0)
            return util_error(ORMA_ERR_PEER, "%s: the other side %s", what,
                              k < 0 ? strerror(errno) : "closed the connection");
        p += k;
        len -= (size_t)k;
    }
    return ORMA_SUCCESS;
}

static socklen_t boot_port_addr(const char *name, struct sockaddr_un *addr)
{
    size_t len = strlen(name);
    if (len + 1 > sizeof addr->sun_path)
        return 0;
    memset(addr, 0, sizeof *addr);
    addr->sun_family = AF_UNIX;
    memcpy(addr->sun_path + 1, name, len); /* abstract: a leading NUL, no file */
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
}

int boot_port_listen(char *name, size_t len, int *fd_p)
{
    static unsigned seq;
    snprintf(name, len, "orma-port-%u-%s-%d-%u", (unsigned)getuid(), boot_job.token, boot_job.rank, seq++);
    struct sockaddr_un addr;
    socklen_t alen = boot_port_addr(name, &addr);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return util_error(ORMA_ERR_SYS, "opening a port: socket: %s", strerror(errno));
    if (!alen || bind(fd, (struct sockaddr *)&addr, alen) || listen(fd, 16)) {
        int e = errno;
        close(fd);
        return util_error(ORMA_ERR_SYS, "opening port %s: %s", name, strerror(e));
    }
    *fd_p = fd;
    return ORMA_SUCCESS;
}

int boot_port_accept(int lfd, int *fd_p)
{
    for (;;) {
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd >= 0) {
            *fd_p = fd;
            return ORMA_SUCCESS;
        }
        if (errno != EINTR && errno != ECONNABORTED)
            return util_error(ORMA_ERR_SYS, "accepting on a port: %s", strerror(errno));
    }
}

int boot_port_connect(const char *name, int *fd_p)
{
    struct sockaddr_un addr;
    socklen_t alen = boot_port_addr(name, &addr);
    if (!alen)
        return util_error(ORMA_ERR_ARG, "port name \"%.40s...\" is too long", name);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return util_error(ORMA_ERR_SYS, "connecting to a port: socket: %s", strerror(errno));
    if (connect(fd, (struct sockaddr *)&addr, alen)) {
        int e = errno;
        close(fd);
        return util_error(e == ECONNREFUSED ? ORMA_ERR_ARG : ORMA_ERR_SYS, "cannot connect to port %s: %s", name,
                          e == ECONNREFUSED ? "no job has it open" : strerror(e));
    }
    *fd_p = fd;
    return ORMA_SUCCESS;
}
