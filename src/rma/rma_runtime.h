/* rma_runtime.h -- starting and stopping the one-sided runtime of a rank. */
#ifndef ORMA_RMA_RUNTIME_H
#define ORMA_RMA_RUNTIME_H

int rma_runtime_start(void);
int rma_runtime_stop(void);

#endif
