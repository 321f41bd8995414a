/* api_init.c -- joining and leaving the job. */
#include "api_check.h"
#include "api_team.h"
#include "rma_runtime.h"
#include "rma_world.h"
#include "boot_job.h"
#include "util_time.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

int api_state;

int orma_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (api_state != 0)
        return util_error(ORMA_ERR_ARG, "orma_init: orma is %s",
                          api_state == 1 ? "already initialized" : "finalized and cannot restart");
    int status = rma_runtime_start();
    if (status)
        return status;
    api_state = 1;
    /* A spawned rank that cannot reach its parents stays initialized: it
     * can only abort or exit, and exiting unfinalized ends the whole run. */
    return api_parent_join();
}

int orma_init_thread(int required, int *provided_p)
{
    if (required < ORMA_THREAD_SINGLE || required > ORMA_THREAD_MULTIPLE)
        return util_error(ORMA_ERR_ARG, "orma_init_thread: thread level %d is none of ORMA_THREAD_SINGLE (0), "
                          "_FUNNELED, _SERIALIZED and _MULTIPLE (3)", required);
    if (!provided_p)
        return util_error(ORMA_ERR_ARG, "orma_init_thread: provided_p is NULL");
    if (api_state == 0) { /* before the runtime starts: its transports ask */
        rma_thread_level = required;
        rma_threads = required == ORMA_THREAD_MULTIPLE; /* windows keep threads apart (rma_mt.h) */
    }
    int status = orma_init(NULL, NULL);
    if (status) {
        if (api_state == 0)
            rma_thread_level = rma_threads = 0;
        return status;
    }
    *provided_p = rma_thread_level;
    return ORMA_SUCCESS;
}

int orma_query_thread(int *provided_p)
{
    int status = api_check_init("orma_query_thread");
    if (!status && !provided_p)
        status = util_error(ORMA_ERR_ARG, "orma_query_thread: provided_p is NULL");
    if (!status)
        *provided_p = rma_thread_level;
    return status;
}

int orma_finalize(void)
{
    int status = api_check_init("orma_finalize");
    if (status)
        return status;
    api_team_release_all();
    status = rma_runtime_stop();
    api_state = 2;
    return status;
}

void orma_abort(int code)
{
    fflush(NULL);
    if (api_state == 1) {
        boot_sweep_token(boot_job.token);
        rma_world_abort(code ? code : 1); /* under mpirun: MPI_Abort ends every rank */
    }
    _exit(code ? code : 1);
}

int orma_initialized(int *flag_p)
{
    if (!flag_p)
        return util_error(ORMA_ERR_ARG, "orma_initialized: flag_p is NULL");
    *flag_p = api_state == 1;
    return ORMA_SUCCESS;
}

/* No message: tests and programs ask for the rank to print it. */
int orma_rank(void) { return api_state == 1 ? rma_world_rank() : ORMA_ERR_NOT_INIT; }

int orma_size(void) { return api_state == 1 ? rma_world_size() : ORMA_ERR_NOT_INIT; }

int orma_barrier(void)
{
    int status = api_check_init("orma_barrier");
    if (status)
        return status;
    rma_world_barrier();
    return ORMA_SUCCESS;
}

double orma_wtime(void) { return (double)util_time_ns() * 1e-9; }

double orma_wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
