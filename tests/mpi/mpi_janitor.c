/* mpi_janitor.c -- a job that dies leaves nothing in /dev/shm.  Run by
 * janitor.sh with liborma-mpi, in one of three modes:
 *   kill   rank 1 kills itself with SIGKILL while the job holds memory from
 *          MPI_Alloc_mem and a window (the host MPI then ends rank 0);
 *   abort  rank 1 calls MPI_Abort in the same state;
 *   clean  start and finish (the next job: it must sweep the killed one's
 *          objects away).
 * Rank 0 prints "token <t>", and writes it to the file argv[2] when given:
 * the job's name in /dev/shm, read from the liveness file that liborma-mpi
 * holds open (/proc/self/fd). */
#include <mpi.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Also into the file named by out, when given: a launcher may drop what
 * rank 0 printed when another rank aborts the job right after. */
static void print_token(const char *out)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    char path[300], target[300];
    while (d && (e = readdir(d))) {
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = 0;
        /* /dev/shm/orma-<uid>-<token>-live */
        const char *base = strrchr(target, '/');
        size_t len = strlen(base ? base + 1 : target);
        if (base && !strncmp(base + 1, "orma-", 5) && len > 5 && !strcmp(target + strlen(target) - 5, "-live")) {
            const char *tok = strchr(base + 6, '-');
            if (tok) {
                printf("token %.*s\n", (int)(strlen(tok + 1) - 5), tok + 1);
                fflush(stdout);
                FILE *f = out ? fopen(out, "w") : NULL;
                if (f) {
                    fprintf(f, "token %.*s\n", (int)(strlen(tok + 1) - 5), tok + 1);
                    fclose(f);
                }
            }
        }
    }
    if (d)
        closedir(d);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "clean";
    if (rank == 0)
        print_token(argc > 2 ? argv[2] : NULL);
    if (!strcmp(mode, "clean")) {
        MPI_Finalize();
        return 0;
    }
    void *mem;
    int *wmem;
    MPI_Win win;
    MPI_Alloc_mem(4096, MPI_INFO_NULL, &mem);
    MPI_Win_allocate(4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wmem, &win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        if (!strcmp(mode, "kill"))
            raise(SIGKILL);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* never passes: rank 1 is gone */
    fprintf(stderr, "rank 0 passed a barrier without rank 1\n");
    return 1;
}
