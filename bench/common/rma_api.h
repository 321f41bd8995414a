/* rma_api.h -- one spelling of a one-sided call for both programs, for
 * the code written once for orma's calls and MPI's (pp_calls.h,
 * li_fence.h).  orma's API has MPI's shape -- the same calls with the
 * same arguments in the same order -- and only the names differ, so such
 * code writes each call once, with both names:
 *   RMA_API(orma_name, MPI_name)   the name in this program
 *   RMA_CHECK(call)                BENCH_CHECK or MPIB_CHECK: a failure
 *                                  ends the job
 *   rma_count, RMA_COUNT(n)        a count of n bytes or elements: size_t
 *                                  n, or int mpib_count(n)
 *   rma_aint                       orma_aint, MPI_Aint
 *   RMA_BYTE, RMA_UINT64, RMA_SUM  the datatypes and the op the benchmarks
 *                                  use
 * The calls stay direct calls, chosen when the file is compiled.
 *
 * The MPI program's files include mpib.h, then define BENCH_RMA_MPI
 * before the #include; orma-bench's include orma.h and check.h. */
#ifndef BENCH_RMA_API_H
#define BENCH_RMA_API_H

#include <stddef.h>

#ifdef BENCH_RMA_MPI
#define RMA_API(orma_name, mpi_name) mpi_name
#define RMA_CHECK(call) MPIB_CHECK(call)
#define RMA_COUNT(n) mpib_count(n)
typedef int rma_count;
#else
#define RMA_API(orma_name, mpi_name) orma_name
#define RMA_CHECK(call) BENCH_CHECK(call)
#define RMA_COUNT(n) (n)
typedef size_t rma_count;
#endif

typedef RMA_API(orma_aint, MPI_Aint) rma_aint;
#define RMA_BYTE RMA_API(ORMA_BYTE, MPI_BYTE)
#define RMA_UINT64 RMA_API(ORMA_UINT64, MPI_UINT64_T)
#define RMA_SUM RMA_API(ORMA_SUM, MPI_SUM)

#endif
