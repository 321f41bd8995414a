/* bsp_proc.c -- BSPlib's processes: bsp_init, bsp_begin, bsp_end,
 * bsp_pid, bsp_nprocs, bsp_time, bsp_abort, and how liborma-bsp fails. */
#include "bsp_impl.h"

#include <bsp.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bsp_state bsp;

static int bsp_orma_inited; /* liborma-bsp called orma_init */

/* The one line of an error, then the whole job ends. */
void bsp_fail(const char *call, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int initialized = 0;
    orma_initialized(&initialized);
    if (bsp.on)
        fprintf(stderr, "orma-bsp: process %d of %d: %s: %s\n", bsp.pid, bsp.p, call, msg);
    else if (initialized)
        fprintf(stderr, "orma-bsp: rank %d: %s: %s\n", orma_rank(), call, msg);
    else
        fprintf(stderr, "orma-bsp: %s: %s\n", call, msg);
    orma_abort(1);
}

void bsp_check_on(const char *call)
{
    if (!bsp.on)
        bsp_fail(call, "called outside bsp_begin ... bsp_end");
}

void bsp_orma(const char *call, int status)
{
    if (status != ORMA_SUCCESS)
        bsp_fail(call, "%s", orma_error_message());
}

void *bsp_grow(void *p, size_t *cap, size_t need, size_t elem, const char *call)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 16;
    while (n < need && n <= SIZE_MAX / 2)
        n *= 2;
    if (n < need || n > SIZE_MAX / elem)
        bsp_fail(call, "%zu elements of %zu bytes are more than memory can hold", need, elem);
    void *q = realloc(p, n * elem);
    if (!q)
        bsp_fail(call, "out of memory (%zu bytes)", n * elem);
    *cap = n;
    return q;
}

void bsp_bytes_add(struct bsp_bytes *b, const void *src, size_t n, const char *call)
{
    b->data = bsp_grow(b->data, &b->cap, b->len + n, 1, call);
    if (n)
        memcpy(b->data + b->len, src, n);
    b->len += n;
}

static void bsp_orma_up(const char *call)
{
    int initialized = 0;
    orma_initialized(&initialized);
    if (initialized)
        return;
    bsp_orma(call, orma_init(NULL, NULL));
    bsp_orma_inited = 1;
}

/* The form where main calls bsp_init(spmd, ...) and spmd calls bsp_begin:
 * every rank but 0 runs spmd here, and its bsp_end ends it. */
void bsp_init(void (*spmd)(void), int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!spmd)
        bsp_fail("bsp_init", "the SPMD function is NULL");
    if (bsp.spmd_form || bsp.on)
        bsp_fail("bsp_init", "called twice, or after bsp_begin");
    bsp_orma_up("bsp_init");
    bsp.spmd_form = 1;
    if (orma_rank() != 0) {
        spmd();
        /* bsp_end returned: the program keeps orma (or spmd returned
         * without bsp_end, which bsp_exit_check reports) */
        int initialized = 0;
        orma_initialized(&initialized);
        if (initialized && !bsp.on)
            bsp_orma("bsp_init", orma_finalize());
        exit(EXIT_SUCCESS);
    }
}

/* A process that ends before bsp_end would leave the others waiting in
 * their next sync: it ends the job instead. */
static void bsp_exit_check(void)
{
    if (bsp.on)
        bsp_fail("exit", "the process ended without calling bsp_end");
}

/* A rank the program did not ask for: it takes part in the collective
 * calls of orma behind the processes' syncs, with nothing to say, until
 * bsp_end's. */
static void bsp_surplus(void)
{
    bsp_bsmp_start();
    bsp_box_start();
    bsp.on = 1;
    while (bsp.on)
        bsp_superstep_end(0);
}

/* Process 0's maxprocs holds (in bsp_init's form the others call
 * bsp_begin before main has computed it). */
void bsp_begin(int maxprocs)
{
    if (bsp.on)
        bsp_fail("bsp_begin", "called twice");
    if (bsp.step != 0)
        bsp_fail("bsp_begin", "called after bsp_end: BSPlib runs one SPMD part");
    bsp_orma_up("bsp_begin");
    bsp.world = orma_size();
    bsp.pid = orma_rank();
    bsp.own_orma = bsp_orma_inited;
    int m = bsp_sync_start(maxprocs);
    if (m <= 0)
        bsp_fail_one(0, "bsp_begin", "maxprocs is %d; at least 1 process is needed", m);
    bsp.p = m < bsp.world ? m : bsp.world;
    if (bsp.p < bsp.world && !bsp.own_orma)
        bsp_fail_one(0, "bsp_begin", "maxprocs %d of %d ranks, in a program that initialized orma itself: "
                     "the ranks left out could take part in none of its later collective calls; "
                     "start %d ranks, or let bsp_begin initialize orma", m, bsp.world, bsp.p);
    static int exit_checked;
    if (!exit_checked++)
        atexit(bsp_exit_check);
    if (bsp.pid >= bsp.p) {
        bsp_surplus();
        if (bsp.own_orma)
            orma_finalize();
        exit(EXIT_SUCCESS);
    }
    bsp_bsmp_start();
    bsp_box_start();
    bsp.on = 1;
    bsp.t0 = orma_wtime();
}

void bsp_end(void)
{
    bsp_check_on("bsp_end");
    bsp_superstep_end(BSP_W_END);
    if (bsp.own_orma) {
        bsp_orma("bsp_end", orma_finalize());
        if (bsp.pid != 0)
            exit(EXIT_SUCCESS);
    }
}

int bsp_nprocs(void)
{
    if (bsp.on)
        return bsp.p;
    bsp_orma_up("bsp_nprocs");
    return orma_size();
}

int bsp_pid(void)
{
    bsp_check_on("bsp_pid");
    return bsp.pid;
}

double bsp_time(void)
{
    bsp_check_on("bsp_time");
    return orma_wtime() - bsp.t0;
}

void bsp_abort(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vfprintf(stderr, format, ap);
    va_end(ap);
    size_t n = strlen(format);
    if (n == 0 || format[n - 1] != '\n')
        fputc('\n', stderr);
    orma_abort(1);
}
