/* mpi_progress.c -- the host MPI's blocking calls in which a program most
 * often waits while other ranks use its windows (a barrier, a receive, a
 * wait, a common collective), and those it polls with (a test, a probe):
 * liborma-mpi makes them wait by testing, doing orma's part meanwhile, so
 * that a passive target sitting in them still grants locks and carries
 * out operations -- as the host MPI's own one-sided calls progress inside
 * every call of its own ([004] section 4.3).  orma's part: the net
 * transport's messages, and the boxes that origins of passive epochs offer
 * this rank (rma_box.h), which it empties.
 *
 * When.  A blocking collective does not match a nonblocking one, so
 * whether a collective waits this way must be the same on every rank,
 * whatever windows each has; it is decided once, for the whole job:
 *   - every collective here, when the job makes net windows (a job over
 *     several nodes, or ORMA_TRANSPORT=net);
 *   - MPI_Barrier also when passive epochs offer boxes (ORMA_BOX and
 *     ORMA_PASSIVE_BOX, the default): the barrier is where a target most
 *     often sits while origins flush, and it carries no data, so its
 *     nonblocking form costs little (2 ranks here: Open MPI 0.38 -> 0.54
 *     us, MPICH 1.16 -> 0.69 us);
 * and a receive, wait or probe (whose blocking and nonblocking forms are
 * the same to its peer) waits so whenever this rank has windows with
 * boxes, or net windows.  Otherwise these are the host's calls, untouched.
 * Only the MPI_ names are defined: a profiling tool above liborma-mpi that
 * calls PMPI_ reaches the host directly, and then only
 * ORMA_PROGRESS_THREAD=1 helps (net windows; an origin whose box is not
 * emptied empties it itself). */
#include "mpi_orma.h"
#include "api_face.h"

#include <string.h>

static int mpi_progressing(void)
{
    return mpi_orma_ready && (mpi_job_spans_nodes || util_config.transport == UTIL_TRANSPORT_NET);
}

/* Whether a barrier waits by testing (the same on every rank). */
static int mpi_barrier_progressing(void)
{
    return mpi_progressing() || (mpi_orma_ready && util_config.box && util_config.passive_box);
}

/* Whether a receive, wait or probe does (this rank alone). */
static int mpi_p2p_progressing(void)
{
    return mpi_progressing() || (mpi_orma_ready && atomic_load_explicit(&rma_box_windows, memory_order_relaxed));
}

/* One round of orma's part.  With MPI_THREAD_MULTIPLE, the boxes of the
 * windows no other thread holds (rma_box_serve_all). */
static void mpi_poll(void)
{
    if (mpi_orma_ready && atomic_load_explicit(&rma_box_windows, memory_order_relaxed))
        rma_box_serve_all();
    if (mpi_progressing())
        xport_net_poll();
}

static int mpi_progress_wait(MPI_Request *req, MPI_Status *status)
{
    int done = 0, rc;
    while ((rc = PMPI_Test(req, &done, status)) == MPI_SUCCESS && !done)
        mpi_poll();
    return rc;
}

/* MPI_name(params): the host's blocking call (args), or when when() says
 * so its nonblocking form iname (iargs, ending in &req), waited for by
 * testing. */
#define MPI_PROGRESSING(when, name, iname, params, args, iargs)                                              \
    int MPI_##name params                                                                                    \
    {                                                                                                        \
        if (!when())                                                                                         \
            return PMPI_##name args;                                                                         \
        MPI_Request req;                                                                                     \
        int rc = PMPI_##iname iargs;                                                                         \
        return rc != MPI_SUCCESS ? rc : mpi_progress_wait(&req, MPI_STATUS_IGNORE);                          \
    }

MPI_PROGRESSING(mpi_barrier_progressing, Barrier, Ibarrier, (MPI_Comm comm), (comm), (comm, &req))
MPI_PROGRESSING(mpi_progressing, Bcast, Ibcast, (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
                (buf, count, type, root, comm), (buf, count, type, root, comm, &req))
MPI_PROGRESSING(mpi_progressing, Reduce, Ireduce,
                (const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm),
                (in, out, count, type, op, root, comm), (in, out, count, type, op, root, comm, &req))
MPI_PROGRESSING(mpi_progressing, Allreduce, Iallreduce, (const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
                (in, out, count, type, op, comm), (in, out, count, type, op, comm, &req))
MPI_PROGRESSING(mpi_progressing, Allgather, Iallgather,
                (const void *in, int icount, MPI_Datatype itype, void *out, int ocount, MPI_Datatype otype,
                 MPI_Comm comm),
                (in, icount, itype, out, ocount, otype, comm), (in, icount, itype, out, ocount, otype, comm, &req))

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    if (!mpi_p2p_progressing())
        return PMPI_Recv(buf, count, type, source, tag, comm, status);
    MPI_Request req;
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, &req);
    return rc != MPI_SUCCESS ? rc : mpi_progress_wait(&req, status);
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    if (!mpi_p2p_progressing())
        return PMPI_Wait(req, status);
    return mpi_progress_wait(req, status);
}

/* MPI_name(params): the host's blocking call (args), or while net windows
 * exist its test tname (targs, which set int done) repeated until done,
 * with a round of orma's progress between tries. */
#define MPI_TESTING(name, tname, params, args, targs)                                                        \
    int MPI_##name params                                                                                    \
    {                                                                                                        \
        if (!mpi_p2p_progressing())                                                                          \
            return PMPI_##name args;                                                                         \
        int done = 0, rc;                                                                                    \
        while ((rc = PMPI_##tname targs) == MPI_SUCCESS && !done)                                            \
            mpi_poll();                                                                                      \
        return rc;                                                                                           \
    }

MPI_TESTING(Waitall, Testall, (int count, MPI_Request reqs[], MPI_Status statuses[]), (count, reqs, statuses),
            (count, reqs, &done, statuses))
MPI_TESTING(Waitany, Testany, (int count, MPI_Request reqs[], int *index, MPI_Status *status),
            (count, reqs, index, status), (count, reqs, index, &done, status))

int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    if (!mpi_p2p_progressing())
        return PMPI_Waitsome(incount, reqs, outcount, indices, statuses);
    int rc;
    while ((rc = PMPI_Testsome(incount, reqs, outcount, indices, statuses)) == MPI_SUCCESS && *outcount == 0)
        mpi_poll();
    return rc;
}

MPI_TESTING(Probe, Iprobe, (int source, int tag, MPI_Comm comm, MPI_Status *status), (source, tag, comm, status),
            (source, tag, comm, &done, status))

/* The calls a program polls with: one round of orma's part each, as the
 * host MPI's own one-sided calls progress in them. */
#define MPI_POLLING(name, params, args)                                                                      \
    int MPI_##name params                                                                                    \
    {                                                                                                        \
        mpi_poll();                                                                                          \
        return PMPI_##name args;                                                                             \
    }

MPI_POLLING(Test, (MPI_Request *req, int *flag, MPI_Status *status), (req, flag, status))
MPI_POLLING(Testall, (int count, MPI_Request reqs[], int *flag, MPI_Status statuses[]),
            (count, reqs, flag, statuses))
MPI_POLLING(Testany, (int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status),
            (count, reqs, index, flag, status))
MPI_POLLING(Testsome, (int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]),
            (incount, reqs, outcount, indices, statuses))
MPI_POLLING(Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status),
            (source, tag, comm, flag, status))
