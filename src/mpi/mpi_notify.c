/* mpi_notify.c -- Intel MPI's notified one-sided extension
 * (orma/mpix_notify.h) on orma's notification counters: MPIX_Put_notify and
 * MPIX_Get_notify are MPI_Put and MPI_Get through orma_put_notify and
 * orma_get_notify, each raising the target's counter by one; the counters
 * are read and set with orma_notify_read and orma_notify_set; a bad
 * counter is MPI_ERR_INVALID_NOTIFICATION, an error class the host MPI
 * learns at MPI_Init.
 *
 * Creation is collective.  orma's counters are local to their rank, and an
 * origin looks for a target's at its first notified operation to it; Intel
 * MPI's programs make them on every rank and notify right after
 * MPI_Win_lock_all, with nothing between to order the two.  So every
 * rank's MPIX_Win_create_notify ends in one allreduce over the window's
 * communicator -- none returns before all have their counters, and one
 * rank's error is every rank's (as a window's creation) -- and
 * MPIX_Win_free_notify begins with one, so that no rank gives its counters
 * back while the operations of another before its call may still raise
 * them.  Both wait in liborma-mpi's MPI_Allreduce, which serves the net
 * transport meanwhile. */
#include "mpi_orma.h"

#include <stdint.h>

_Static_assert(sizeof(MPI_Count) == sizeof(uint64_t), "a counter's 64 bits are an MPI_Count's");

int orma_mpix_err_invalid_notification = MPI_ERR_OTHER;
int mpi_err_notify_code = MPI_ERR_OTHER;

/* The class, and a code of it for the calls to return: Open MPI's
 * MPI_Error_class takes codes only, and a class added is no code of its
 * own there (MPI_ERR_UNKNOWN), as it is in MPICH. */
void mpi_notify_init(void)
{
    static const char why[] = "MPI_ERR_INVALID_NOTIFICATION: no such notification counter at that rank";
    int cls = MPI_ERR_OTHER, code = MPI_ERR_OTHER;
    if (PMPI_Add_error_class(&cls) != MPI_SUCCESS || PMPI_Add_error_code(cls, &code) != MPI_SUCCESS)
        return;
    PMPI_Add_error_string(cls, why);
    PMPI_Add_error_string(code, why);
    orma_mpix_err_invalid_notification = cls;
    mpi_err_notify_code = code;
}

/* Every rank's outcome of a collective call on w, given this rank's: its
 * own error, ORMA_ERR_PEER when only another rank failed, or success. */
static int mpi_notify_agree(struct mpi_win *w, const char *call, int status)
{
    int failed = status != ORMA_SUCCESS, any = 0;
    if (MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, w->comm) != MPI_SUCCESS)
        return status ? status : util_error(ORMA_ERR_PEER, "%s: the window's ranks could not agree", call);
    if (any && !status)
        status = util_error(ORMA_ERR_PEER, "%s: another rank of the window failed", call);
    return status;
}

int PMPIX_Win_create_notify(MPI_Win win, int notification_num)
{
    static const char call[] = "MPIX_Win_create_notify";
    MPI_WIN_OR_ERR(w, win, call);
    int status = notification_num < 0
                     ? util_error(ORMA_ERR_ARG, "%s: notification_num %d is negative", call, notification_num)
                     : orma_win_notify_alloc(w->win, (size_t)notification_num);
    int made = status == ORMA_SUCCESS;
    status = mpi_notify_agree(w, call, status);
    if (status && made) /* another rank failed: none has counters */
        orma_win_notify_free(w->win);
    return mpi_win_status(w, call, status);
}

int PMPIX_Win_free_notify(MPI_Win win)
{
    static const char call[] = "MPIX_Win_free_notify";
    MPI_WIN_OR_ERR(w, win, call);
    int status = mpi_notify_agree(w, call, ORMA_SUCCESS);
    if (!status)
        status = orma_win_notify_free(w->win);
    return mpi_win_status(w, call, status);
}

int PMPIX_Put_notify(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                     int notification_idx)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPIX_Put_notify");
    return mpi_put_get("MPIX_Put_notify", 1, 0, &notification_idx, (void *)origin_addr, origin_count,
                       origin_datatype, target_rank, target_disp, target_count, target_datatype, w, NULL);
}

int PMPIX_Get_notify(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                     int notification_idx)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPIX_Get_notify");
    return mpi_put_get("MPIX_Get_notify", 0, 0, &notification_idx, origin_addr, origin_count, origin_datatype,
                       target_rank, target_disp, target_count, target_datatype, w, NULL);
}

int PMPIX_Win_get_notify(MPI_Win win, int notification_idx, MPI_Count *value)
{
    static const char call[] = "MPIX_Win_get_notify";
    MPI_WIN_OR_ERR(w, win, call);
    if (!value)
        return mpi_win_error_msg(w, call, MPI_ERR_ARG, "value is NULL");
    uint64_t v = 0;
    int status = orma_notify_read(w->win, notification_idx, &v);
    if (!status)
        *value = (MPI_Count)v; /* the same bits: GCC and Clang convert modulo 2^64 */
    return mpi_win_status(w, call, status);
}

int PMPIX_Win_set_notify(MPI_Win win, int notification_idx, MPI_Count value)
{
    MPI_WIN_OR_ERR(w, win, "MPIX_Win_set_notify");
    return mpi_win_status(w, "MPIX_Win_set_notify", orma_notify_set(w->win, notification_idx, (uint64_t)value));
}

/* The MPIX_ names are weak aliases of the PMPIX_ ones, as every MPI_ name of
 * liborma-mpi is of its PMPI_ one. */
#pragma weak MPIX_Win_create_notify = PMPIX_Win_create_notify
#pragma weak MPIX_Win_free_notify = PMPIX_Win_free_notify
#pragma weak MPIX_Put_notify = PMPIX_Put_notify
#pragma weak MPIX_Get_notify = PMPIX_Get_notify
#pragma weak MPIX_Win_get_notify = PMPIX_Win_get_notify
#pragma weak MPIX_Win_set_notify = PMPIX_Win_set_notify
