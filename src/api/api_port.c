/* api_port.c -- ports, and teams of two jobs that connect
 * (orma_team_accept / orma_team_connect / orma_team_join, orma.h).
 *
 * The two roots meet over a stream socket (a port's connection, or the
 * program's own for join): the connecting side sends its size and its
 * ranks' pids, the accepting root creates the merged team's segment with
 * every pid (its own side first) and answers with its name and its side's
 * size.  Each root passes that on over its own team, every rank opens the
 * segment at its place, and all meet in its barrier. */
#include "api_check.h"
#include "api_team.h"
#include "boot_job.h"
#include "boot_peer.h"
#include "rma_team.h"
#include "rma_world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define API_PORT_MAGIC 0x6f72706fu /* "orpo" */
#define API_PORT_TIMEOUT_MS 60000  /* for the other root's next message */
#define API_PORT_MAX_RANKS (1 << 20)

struct api_port {
    char name[ORMA_PORT_NAME_MAX];
    int fd;
};

static struct api_port *api_ports;
static size_t api_nports;

int orma_port_open(char *port_name)
{
    int status = api_check_init("orma_port_open");
    if (status)
        return status;
    if (!port_name)
        return util_error(ORMA_ERR_ARG, "orma_port_open: port_name is NULL");
    struct api_port *grown = realloc(api_ports, (api_nports + 1) * sizeof *grown);
    if (!grown)
        return util_error(ORMA_ERR_NOMEM, "orma_port_open: out of memory");
    api_ports = grown;
    struct api_port *p = &api_ports[api_nports];
    status = boot_port_listen(p->name, sizeof p->name, &p->fd);
    if (status)
        return status;
    api_nports++;
    snprintf(port_name, ORMA_PORT_NAME_MAX, "%s", p->name);
    return ORMA_SUCCESS;
}

static struct api_port *api_port_find(const char *name)
{
    for (size_t i = 0; name && i < api_nports; i++)
        if (!strncmp(api_ports[i].name, name, sizeof api_ports[i].name))
            return &api_ports[i];
    return NULL;
}

int orma_port_close(const char *port_name)
{
    int status = api_check_init("orma_port_close");
    if (status)
        return status;
    struct api_port *p = api_port_find(port_name);
    if (!p)
        return util_error(ORMA_ERR_ARG, "orma_port_close: \"%s\" is not a port this rank opened",
                          port_name ? port_name : "(null)");
    close(p->fd);
    *p = api_ports[--api_nports];
    return ORMA_SUCCESS;
}

/* The first message either way. */
struct api_port_hello {
    uint32_t magic;
    int32_t status; /* the sender's verdict so far */
    int32_t n;      /* its side's ranks (connecting side: pids follow) */
    int32_t pid;    /* join: the sender's; its token decides who accepts */
    char token[BOOT_TOKEN_MAX];
    char bridge[SHM_NAME_MAX]; /* accepting side: the merged team's segment */
};

static int api_port_recv_hello(int fd, struct api_port_hello *h, const char *call)
{
    int status = boot_stream_recv(fd, h, sizeof *h, API_PORT_TIMEOUT_MS, call);
    if (!status && (h->magic != API_PORT_MAGIC || h->n < 1 || h->n > API_PORT_MAX_RANKS))
        status = util_error(ORMA_ERR_PEER, "%s: the other side does not speak orma's protocol", call);
    if (!status && h->status)
        status = util_error(ORMA_ERR_PEER, "%s failed on the other side (%s)", call, orma_strerror(h->status));
    h->token[sizeof h->token - 1] = h->bridge[sizeof h->bridge - 1] = '\0';
    return status;
}

/* The accepting root, connected on fd: mine are its side's pids; the
 * segment's name into out, the other side's size into *other_p. */
static int api_port_accept_root(int fd, int rank, int n, const int32_t *mine, const char *call,
                                struct api_port_hello *out, int *other_p, struct rma_split_team **t_p)
{
    struct api_port_hello in;
    int status = api_port_recv_hello(fd, &in, call);
    int32_t *pids = status ? NULL : malloc(((size_t)n + (size_t)in.n) * sizeof *pids);
    if (!status && !pids)
        status = util_error(ORMA_ERR_NOMEM, "%s: out of memory for %d ranks", call, n + in.n);
    if (!status)
        status = boot_stream_recv(fd, pids + n, (size_t)in.n * sizeof *pids, API_PORT_TIMEOUT_MS, call);
    *out = (struct api_port_hello){.magic = API_PORT_MAGIC, .n = n};
    if (!status) {
        memcpy(pids, mine, (size_t)n * sizeof *pids);
        api_bridge_name(out->bridge, sizeof out->bridge);
        status = rma_bridge_create(out->bridge, rank, n + in.n, pids, t_p);
    }
    free(pids);
    out->status = status;
    int sent = boot_stream_send(fd, out, sizeof *out, call);
    *other_p = status ? 0 : in.n;
    return status ? status : sent;
}

/* The connecting root: sends its side, learns the segment. */
static int api_port_connect_root(int fd, int n, const int32_t *mine, const char *call, struct api_port_hello *in)
{
    struct api_port_hello out = {.magic = API_PORT_MAGIC, .n = n, .pid = (int32_t)getpid()};
    snprintf(out.token, sizeof out.token, "%s", boot_job.token);
    int status = boot_stream_send(fd, &out, sizeof out, call);
    if (!status)
        status = boot_stream_send(fd, mine, (size_t)n * sizeof *mine, call);
    if (!status)
        status = api_port_recv_hello(fd, in, call);
    return status;
}

/* What a root tells its team. */
struct api_port_done {
    int32_t status, offset, total;
    char bridge[SHM_NAME_MAX];
};

/* accept (accepting 1) or connect, collective over team. */
static int api_port_team(const char *call, const char *port_name, orma_team team, int root, int accepting,
                         orma_team *merged_p)
{
    struct api_team_view v;
    int status = api_team_view(call, team, &v);
    if (status)
        return status;
    int arg = ORMA_SUCCESS;
    struct api_port *port = NULL;
    if (!merged_p)
        arg = util_error(ORMA_ERR_ARG, "%s: merged_p is NULL", call);
    else if (root < 0 || root >= v.size)
        arg = util_error(ORMA_ERR_ARG, "%s: root %d is not a rank of the team (0..%d)", call, root, v.size - 1);
    else if (v.rank == root && !port_name)
        arg = util_error(ORMA_ERR_ARG, "%s: port_name is NULL", call);
    else if (v.rank == root && accepting && !(port = api_port_find(port_name)))
        arg = util_error(ORMA_ERR_ARG, "%s: \"%s\" is not a port this rank opened (orma_port_open)", call,
                         port_name);
    if (merged_p)
        *merged_p = ORMA_TEAM_NULL;
    const struct rma_team *parent = v.parent;
    int32_t *pids = calloc((size_t)v.size, sizeof *pids);
    struct api_port_done done = {0}, *dones = calloc((size_t)v.size, sizeof *dones);
    if (!pids || !dones) {
        free(pids);
        free(dones);
        return util_error(ORMA_ERR_NOMEM, "%s: out of memory for a team of %d ranks", call, v.size);
    }
    status = api_bridge_hellos(call, &v, arg, pids);
    struct rma_split_team *t = NULL;
    int at_root = !arg && v.rank == root;
    if (!status && at_root) {
        int fd = -1;
        struct api_port_hello got;
        done.status = accepting ? boot_port_accept(port->fd, &fd) : boot_port_connect(port_name, &fd);
        if (!done.status && accepting) {
            int other = 0;
            done.status = api_port_accept_root(fd, v.rank, v.size, pids, call, &got, &other, &t);
            done.offset = 0;
            done.total = v.size + other;
            snprintf(done.bridge, sizeof done.bridge, "%s", got.bridge);
        } else if (!done.status) {
            done.status = api_port_connect_root(fd, v.size, pids, call, &got);
            done.offset = got.n;
            done.total = got.n + v.size;
            snprintf(done.bridge, sizeof done.bridge, "%s", got.bridge);
        }
        if (fd >= 0)
            close(fd);
    }
    int xrc = parent->allgather(parent->ctx, &done, sizeof done, dones);
    if (!status)
        status = xrc;
    status = api_root_verdict(call, status, at_root, root, status ? 0 : dones[root].status);
    if (!status && !t)
        status = rma_bridge_open(dones[root].bridge, dones[root].offset + v.rank, dones[root].total, &t);
    status = api_bridge_join(t, status, merged_p);
    free(pids);
    free(dones);
    return status;
}

int orma_team_accept(const char *port_name, orma_team team, int root, orma_team *merged_p)
{
    return api_port_team("orma_team_accept", port_name, team, root, 1, merged_p);
}

int orma_team_connect(const char *port_name, orma_team team, int root, orma_team *merged_p)
{
    return api_port_team("orma_team_connect", port_name, team, root, 0, merged_p);
}

int orma_team_join(int fd, orma_team *merged_p)
{
    const char *call = "orma_team_join";
    int status = api_check_init(call);
    if (status)
        return status;
    if (!merged_p)
        return util_error(ORMA_ERR_ARG, "%s: merged_p is NULL", call);
    *merged_p = ORMA_TEAM_NULL;
    if (fd < 0)
        return util_error(ORMA_ERR_ARG, "%s: %d is not a descriptor", call, fd);
    /* Both send who they are; the job with the smaller token accepts. */
    struct api_port_hello me = {.magic = API_PORT_MAGIC, .n = 1, .pid = (int32_t)getpid()}, peer;
    snprintf(me.token, sizeof me.token, "%s", boot_job.token);
    status = boot_stream_send(fd, &me, sizeof me, call);
    if (!status)
        status = api_port_recv_hello(fd, &peer, call);
    int cmp = status ? 0 : strcmp(me.token, peer.token);
    if (!status && !cmp)
        status = util_error(ORMA_ERR_ARG, "%s: both ends of the socket are in this job; join joins two jobs", call);
    struct rma_split_team *t = NULL;
    struct api_port_hello got;
    int32_t pid = me.pid;
    if (!status && cmp < 0) {
        /* The other side sends its size and pid again as a connecting root does. */
        int other = 0;
        status = api_port_accept_root(fd, 0, 1, &pid, call, &got, &other, &t);
    } else if (!status) {
        status = api_port_connect_root(fd, 1, &pid, call, &got);
        if (!status)
            status = rma_bridge_open(got.bridge, 1, 2, &t);
    }
    return api_bridge_join(t, status, merged_p);
}
