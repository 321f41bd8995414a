/* mpi_connect.c -- windows over communicators of two jobs that connect
 * (MPI_Open_port, MPI_Comm_accept / MPI_Comm_connect) or join over a
 * socket (MPI_Comm_join), each job started by an mpirun of its own
 * (mpi_connect.sh starts both, and the name server Open MPI needs):
 * every flavour and sync mode across the merged communicator
 * (mpi_xworld.h).
 *
 *   mpi_connect host|orma accept FILE    open a port, write its name to FILE
 *   mpi_connect host|orma connect FILE   connect to the port named in FILE
 *   mpi_connect host|orma join-listen FILE    rank 0 listens on a TCP port of
 *   mpi_connect host|orma join-connect FILE   localhost (its number in FILE),
 *                                        the other job's rank 0 connects
 * A host that cannot open ports here (MPICH 4.0.2 from Debian) makes the
 * accepting side write "skip" and both exit 77. */
#include "mpi_xworld.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void nap(void)
{
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
}

/* The other side's word from FILE, once it is there. */
static void read_word(const char *file, char *buf, int len)
{
    for (int tries = 0; tries < 12000; tries++) {
        FILE *f = fopen(file, "r");
        if (f) {
            int ok = fgets(buf, len, f) && strchr(buf, '\n');
            fclose(f);
            if (ok) {
                buf[strcspn(buf, "\n")] = '\0';
                return;
            }
        }
        nap();
    }
    fail("nothing in %s within a minute", file);
}

static void write_word(const char *file, const char *word)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s.tmp", file);
    FILE *f = fopen(tmp, "w");
    if (!f || fprintf(f, "%s\n", word) < 0 || fclose(f) || rename(tmp, file))
        fail("cannot write %s", file);
}

/* rank 0 of the joining side: a connected TCP socket to the other job. */
static int join_socket(int listen_side, const char *file)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (fd < 0)
        fail("socket");
    if (listen_side) {
        if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 1) || getsockname(fd, (struct sockaddr *)&a, &len))
            fail("cannot listen on localhost");
        char port[16];
        snprintf(port, sizeof port, "%d", ntohs(a.sin_port));
        write_word(file, port);
        int c = accept(fd, NULL, NULL);
        close(fd);
        return c;
    }
    char port[16];
    read_word(file, port, sizeof port);
    a.sin_port = htons((uint16_t)atoi(port));
    if (connect(fd, (struct sockaddr *)&a, sizeof a))
        fail("cannot connect to localhost:%s", port);
    return fd;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (argc != 4)
        fail("usage: mpi_connect host|orma accept|connect|join-listen|join-connect FILE");
    const char *mode = argv[2], *file = argv[3];
    int accepting = !strcmp(mode, "accept") || !strcmp(mode, "join-listen");
    MPI_Comm inter = MPI_COMM_NULL, merged;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (!strcmp(mode, "accept") || !strcmp(mode, "connect")) {
        char port[MPI_MAX_PORT_NAME] = "";
        int skip = 0;
        if (accepting && rank == 0) {
            int rc = MPI_Open_port(MPI_INFO_NULL, port);
            skip = rc != MPI_SUCCESS;
            write_word(file, skip ? "skip" : port);
        } else if (rank == 0) {
            read_word(file, port, sizeof port);
            skip = !strcmp(port, "skip");
        }
        MPI_Bcast(&skip, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (skip) {
            if (rank == 0)
                printf("skipped: this host MPI cannot open ports here\n");
            MPI_Finalize();
            return SKIP;
        }
        int rc = accepting ? MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter)
                           : MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
        if (rc != MPI_SUCCESS)
            fail("%s failed", accepting ? "MPI_Comm_accept" : "MPI_Comm_connect");
        if (accepting && rank == 0)
            MPI_Close_port(port);
    } else if (!strcmp(mode, "join-listen") || !strcmp(mode, "join-connect")) {
        if (size != 1)
            fail("MPI_Comm_join joins one process of each job");
        int fd = join_socket(accepting, file);
        if (MPI_Comm_join(fd, &inter) != MPI_SUCCESS) {
            printf("skipped: this host MPI cannot join here\n");
            MPI_Finalize();
            return SKIP;
        }
        close(fd);
    } else {
        fail("unknown mode %s", mode);
    }
    MPI_Intercomm_merge(inter, accepting ? 0 : 1, &merged);
    int me, np, remote;
    MPI_Comm_rank(merged, &me);
    MPI_Comm_size(merged, &np);
    MPI_Comm_remote_size(inter, &remote);
    if (np != size + remote || me != (accepting ? 0 : remote) + rank)
        fail("rank %d of %d in the merged communicator", me, np);
    windows(merged, mode);
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    if (rank == 0)
        printf("%s: ok\n", mode);
    MPI_Finalize();
    return 0;
}
