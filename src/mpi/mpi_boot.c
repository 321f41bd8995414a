/* mpi_boot.c -- orma starts with MPI and ends with it.  MPI_Init (or
 * MPI_Init_thread) initializes the host MPI, then orma over the node's
 * ranks: the node-local communicator from MPI_Comm_split_type, a job token
 * drawn by its rank 0 and broadcast, and orma's own shared job segment from
 * there (boot_job.h).  A job spread over several nodes has one orma job per
 * node: windows reach the ranks of their own node through shared memory,
 * those of other nodes over the net transport (mpi_win.c, xport_net.h). */
#include "mpi_orma.h"
#include "api_face.h"
#include "net_am.h"

#include <stdio.h>
#include <string.h>

int mpi_thread_multiple;

int mpi_orma_ready;
int mpi_job_spans_nodes;
char mpi_orma_why[160];
MPI_Comm mpi_quiet_comm = MPI_COMM_NULL;

/* Errors reach MPI programs through MPI's error handlers (which print
 * orma's message when they abort): orma's own log keeps quiet about them
 * unless ORMA_LOG_LEVEL asks otherwise. */
static void mpi_quiet_errors(void)
{
    for (int i = 0; i < util_config_count(); i++) {
        struct util_config_row row;
        util_config_row(i, &row);
        if (!strcmp(row.name, "ORMA_LOG_LEVEL") && strcmp(row.source, "environment"))
            util_log_level = UTIL_LOG_NONE;
    }
}

static void mpi_orma_start(void)
{
    int nrank, nsize, flag = 0;
    MPI_Comm node;
    PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    PMPI_Comm_rank(node, &nrank);
    PMPI_Comm_size(node, &nsize);
    int world = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &world);
    mpi_job_spans_nodes = nsize < world; /* the same verdict everywhere */
    PMPI_Comm_dup(MPI_COMM_SELF, &mpi_quiet_comm);
    PMPI_Comm_set_errhandler(mpi_quiet_comm, MPI_ERRORS_RETURN);
    char token[40] = {0};
    if (nrank == 0 && util_random_hex(16, token) != ORMA_SUCCESS)
        token[0] = 0; /* every rank fails below */
    PMPI_Bcast(token, sizeof token, MPI_CHAR, 0, node);
    PMPI_Comm_free(&node);
    mpi_types_init(); /* here, before any thread may look a type up */
    mpi_ops_fill();
    int status = boot_job_external(nrank, nsize, token);
    if (mpi_job_spans_nodes)
        boot_node_split(); /* the world's nodes are as its MPI says */
    int provided = 0;
    if (!status) /* the program's threads at MPI's level (rma_mt.h) */
        status = mpi_thread_multiple ? orma_init_thread(ORMA_THREAD_MULTIPLE, &provided) : orma_init(NULL, NULL);
    int wrank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    util_set_rank(wrank); /* messages name the rank the program knows, not the node's */
    /* all or none: a window needs every rank */
    int ok = status == ORMA_SUCCESS, all_ok = 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all_ok) {
        mpi_orma_ready = 1;
        mpi_quiet_errors();
        return;
    }
    snprintf(mpi_orma_why, sizeof mpi_orma_why, "orma could not start on every rank (this rank: %s)",
             ok ? "started" : orma_error_message());
    orma_initialized(&flag);
    if (flag)
        orma_finalize();
}

/* The host MPI at the thread level asked for -- MPI_THREAD_MULTIPLE when
 * ORMA_PROGRESS_THREAD=1 wants a thread of orma's calling it too. */
static int mpi_init_at(int *argc, char ***argv, int required, int *provided)
{
    util_config_load(); /* orma_init loads it again: the same values */
    net_am_prepare_host(util_config.transport == UTIL_TRANSPORT_NET);
    int want = util_config.progress_thread ? MPI_THREAD_MULTIPLE : required;
    int got = MPI_THREAD_SINGLE;
    int rc = required < 0 && !util_config.progress_thread ? PMPI_Init(argc, argv)
                                                          : PMPI_Init_thread(argc, argv, want, &got);
    if (rc != MPI_SUCCESS)
        return rc;
    if (provided)
        *provided = got;
    /* the user's threads: as asked (orma's own thread is no caller of theirs) */
    mpi_thread_multiple =
        required >= 0 && got == MPI_THREAD_MULTIPLE && (required == MPI_THREAD_MULTIPLE || !util_config.progress_thread);
    xport_net_thread_ok = got == MPI_THREAD_MULTIPLE;
    mpi_notify_init();
    mpi_orma_start();
    return rc;
}

int MPI_Init(int *argc, char ***argv) { return mpi_init_at(argc, argv, -1, NULL); }

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return mpi_init_at(argc, argv, required, provided);
}

void mpi_abort(MPI_Comm comm, int code)
{
    if (mpi_orma_ready)
        boot_sweep_token(boot_job.token);
    PMPI_Abort(comm, code);
}

/* An aborting job leaves no shared objects behind: none of its ranks will
 * need them again (those killed by a signal are the janitor's, boot_janitor.c). */
int MPI_Abort(MPI_Comm comm, int code)
{
    mpi_abort(comm, code);
    return MPI_SUCCESS; /* not reached */
}

int MPI_Finalize(void)
{
    if (mpi_orma_ready) {
        orma_finalize();
        mpi_orma_ready = 0;
    }
    if (mpi_quiet_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&mpi_quiet_comm);
    return PMPI_Finalize();
}
