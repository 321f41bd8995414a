/* rma_runtime.h -- starting and stopping the one-sided runtime of a rank. */
#ifndef ORMA_RMA_RUNTIME_H
#define ORMA_RMA_RUNTIME_H

/* The thread level the program asked for (ORMA_THREAD_*, orma_init_thread);
 * with ORMA_THREAD_MULTIPLE, rma_threads is set and every window keeps its
 * threads apart (rma_mt.h). */
extern int rma_thread_level;

int rma_runtime_start(void);
int rma_runtime_stop(void);

#endif
