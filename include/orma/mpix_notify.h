/* orma/mpix_notify.h -- Intel MPI's notified one-sided extension, as
 * liborma-mpi defines it on orma's notification counters (orma.h,
 * "Notified access") over Open MPI and MPICH.  A program written for Intel
 * MPI includes <mpi.h> and finds these through orma/mpi/mpi.h (add
 * -I<prefix>/include/orma/mpi); this header is for programs that would
 * rather include it themselves, after <mpi.h>.  Nothing here when the
 * host's mpi.h has the extension already (it defines
 * MPI_ERR_INVALID_NOTIFICATION: Intel MPI 2021.15 and later).
 *
 * Each rank of a window may hold notification counters, 64-bit numbers
 * that only it reads and sets, and that notified operations aimed at it
 * raise.  A notified put or get is MPI_Put or MPI_Get -- the same epochs,
 * datatypes (derived ones on either side), MPI_PROC_NULL, counts of 0,
 * errors -- that also raises counter notification_idx of target_rank by
 * one once its data are there: a put's in the target's memory, a get's
 * read from it.  A target that sees the counter raised sees that
 * operation's data (nothing is said of other operations).  A count of 0
 * moves no data and still raises the counter; MPI_PROC_NULL does neither.
 *
 * Where the target is reached over the net transport (another node, or
 * ORMA_TRANSPORT=net) the operation, and with it the raise, travels with
 * the origin's next synchronization of the epoch: a target that polls for
 * it needs the origin's MPI_Win_flush (or unlock, fence, complete).  In a
 * fence or PSCW epoch a notified operation may wait for its target to open
 * the epoch.
 *
 * Errors are raised by the window's error handler, as MPI_Put's: the
 * classes of the plain calls, and MPI_ERR_INVALID_NOTIFICATION for an
 * index that is negative or not below the target's number of counters
 * (over the net transport the target finds it, and the origin's next
 * synchronization of the epoch returns it).
 *
 * Linking.  Built with GCC or Clang these are weak references: a program
 * compiled with only the -I above links against the host MPI alone and
 * takes the definitions from liborma-mpi when it runs, preloaded or
 * linked; without liborma-mpi they are null (MPIX_Put_notify != NULL
 * tells) and a call crashes. */
#ifndef ORMA_MPIX_NOTIFY_H
#define ORMA_MPIX_NOTIFY_H

#include <mpi.h>

#ifndef MPI_ERR_INVALID_NOTIFICATION

/* liborma-mpi's own sources define ORMA_MPIX_NOTIFY_DEFINED: they hold the
 * definitions, which must not be weak. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(ORMA_MPIX_NOTIFY_DEFINED)
#define ORMA_MPIX_WEAK __attribute__((weak))
#else
#define ORMA_MPIX_WEAK
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* An error class added to the host MPI's by MPI_Init (MPI_Add_error_class),
 * so that MPI_Error_class and MPI_Error_string know it: a value of the run,
 * not a constant expression (no case label).  MPI_ERR_OTHER where the host
 * refused a new class. */
extern int orma_mpix_err_invalid_notification ORMA_MPIX_WEAK;
#define MPI_ERR_INVALID_NOTIFICATION orma_mpix_err_invalid_notification

/* The calls, named prefix_...: MPIX_, and the profiling interface's PMPIX_
 * (of which liborma-mpi makes the MPIX_ names weak aliases, as it does
 * every MPI_ name of its PMPI_ one).
 *
 * _Win_create_notify: this rank's notification_num counters on win, all 0
 * (none for 0).  Collective over the window's group: every rank calls it,
 * each with a number of its own, and none returns before all have their
 * counters, so that notified operations may follow at once.  A rank's
 * error is every rank's: MPI_ERR_ARG (notification_num negative),
 * MPI_ERR_INVALID_NOTIFICATION (counters there already, or more than
 * 2^20), MPI_ERR_NO_MEM.
 *
 * _Win_free_notify: give this rank's counters back (none: nothing).
 * Collective as the creation: every rank's operations before its call are
 * done with the counters.  Notified operations aimed at them afterwards
 * fail (MPI_ERR_INVALID_NOTIFICATION); MPI_Win_free gives them back too.
 *
 * _Put_notify, _Get_notify: MPI_Put and MPI_Get raising counter
 * notification_idx of target_rank (above).
 *
 * _Win_get_notify, _Win_set_notify: this rank's counter notification_idx,
 * read or set (0 resets it; a set racing with an origin's raise may lose
 * either).  Local, in an epoch or not.  The counter's 64 bits are the
 * MPI_Count's.  Each call lets the net transport make progress: polling
 * MPIX_Win_get_notify is how a target waits. */
#define ORMA_MPIX_NOTIFY_CALLS(prefix)                                                                               \
    int prefix##_Win_create_notify(MPI_Win win, int notification_num) ORMA_MPIX_WEAK;                                \
    int prefix##_Win_free_notify(MPI_Win win) ORMA_MPIX_WEAK;                                                        \
    int prefix##_Put_notify(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,                 \
                            int target_rank, MPI_Aint target_disp, int target_count,                                 \
                            MPI_Datatype target_datatype, MPI_Win win, int notification_idx) ORMA_MPIX_WEAK;         \
    int prefix##_Get_notify(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,      \
                            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,       \
                            int notification_idx) ORMA_MPIX_WEAK;                                                    \
    int prefix##_Win_get_notify(MPI_Win win, int notification_idx, MPI_Count *value) ORMA_MPIX_WEAK;                 \
    int prefix##_Win_set_notify(MPI_Win win, int notification_idx, MPI_Count value) ORMA_MPIX_WEAK;

ORMA_MPIX_NOTIFY_CALLS(MPIX)
ORMA_MPIX_NOTIFY_CALLS(PMPIX)

#ifdef __cplusplus
}
#endif

#endif /* MPI_ERR_INVALID_NOTIFICATION */
#endif
