/* pmpi_count.c -- a profiling tool in miniature, built as a shared
 * library: it defines MPI_Put, counts the calls and passes each on to
 * PMPI_Put, as tools built on the MPI profiling interface do.  The count
 * is read through pmpi_count_puts(), which a program finds with dlsym so
 * that it need not link the tool.
 *
 * Layering above liborma-mpi: the tool's MPI_Put must be found first, and
 * its PMPI_Put must then reach liborma-mpi, not the host MPI; so the tool
 * comes before liborma-mpi (LD_PRELOAD="tool liborma-mpi", or link order
 * -ltool -lorma-mpi -lmpi), and liborma-mpi must itself define PMPI_Put
 * (MPI_Put being its other name), as an MPI library does. */
#include <mpi.h>

int pmpi_count_puts(void);

static int puts_counted;

int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    puts_counted++;
    return PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                    target_datatype, win);
}

int pmpi_count_puts(void)
{
    return puts_counted;
}
