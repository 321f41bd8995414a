/* check.c -- see check.h. */
#include <stdio.h>
#include <stdlib.h>

#include <orma.h>

#include "check.h"
#include "opts.h"

void bench_check_fail(int rc, const char *call, const char *file, int line)
{
    fprintf(stderr, "orma-bench: rank %d: %s:%d: %s failed: %s: %s\n",
            orma_rank(), file, line, call, orma_strerror(rc),
            orma_error_message());
    fflush(stderr);
    exit(BENCH_FAIL);
}

void *bench_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "orma-bench: rank %d: out of memory (%zu bytes)\n",
                orma_rank(), n);
        exit(BENCH_FAIL);
    }
    return p;
}
