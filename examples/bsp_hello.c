/* A BSPlib program: every process puts its pid into an array on process 0
 * (DRMA) and sends process 0 a message (BSMP); then every process reads
 * the array back from process 0 (bsp_get).  Each checks what it got.
 *
 *   bspcc -O2 -o bsp_hello bsp_hello.c && orma-run -n 4 ./bsp_hello
 */
#include "bsp.h"
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();

    /* Superstep 0: register the array, messages carry an int tag. */
    int *pids = malloc((size_t)p * sizeof *pids), *copy = malloc((size_t)p * sizeof *copy);
    if (!pids || !copy)
        bsp_abort("bsp_hello: out of memory\n");
    for (int i = 0; i < p; i++)
        pids[i] = copy[i] = -1;
    bsp_push_reg(pids, p * (int)sizeof *pids);
    int tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    bsp_sync();

    /* Superstep 1: my pid into slot s of process 0's array; a message
     * tagged with my pid, carrying pid*pid + 1. */
    int me = s, payload = s * s + 1;
    bsp_put(0, &me, pids, s * (int)sizeof(int), sizeof(int));
    bsp_send(0, &me, &payload, sizeof payload);
    me = payload = -1; /* both calls read their sources at once */
    bsp_sync();

    int errors = 0;
    if (s == 0) {
        int n, bytes;
        bsp_qsize(&n, &bytes);
        if (n != p || bytes != p * (int)sizeof(int)) {
            printf("bsp_hello: %d messages of %d bytes in all, expected %d of %d\n", n, bytes, p,
                   p * (int)sizeof(int));
            errors++;
        }
        char *seen = calloc((size_t)p, 1);
        for (int m = 0; m < n && seen; m++) {
            int status, tag, got = -1;
            bsp_get_tag(&status, &tag);
            if (status != (int)sizeof(int) || tag < 0 || tag >= p || seen[tag]) {
                printf("bsp_hello: message %d: payload size %d, tag %d\n", m, status, tag);
                errors++;
                break;
            }
            bsp_move(&got, sizeof got);
            seen[tag] = 1;
            if (got != tag * tag + 1) {
                printf("bsp_hello: process %d sent %d, received %d\n", tag, tag * tag + 1, got);
                errors++;
            }
        }
        free(seen);
    }

    /* Superstep 2: everybody reads process 0's array. */
    bsp_get(0, pids, 0, copy, p * (int)sizeof(int));
    bsp_sync();
    for (int i = 0; i < p; i++)
        if (copy[i] != i) {
            printf("bsp_hello: process %d read slot %d of process 0's array as %d, expected %d\n", s,
                   i, copy[i], i);
            errors++;
        }
    if (errors && s != 0)
        bsp_abort("bsp_hello: process %d: wrong results\n", s);
    if (s == 0 && !errors)
        printf("bsp_hello: %d processes: every pid put and every message received on process 0\n", p);

    bsp_pop_reg(pids);
    bsp_sync();
    free(pids);
    free(copy);
    bsp_end();
    return errors ? 1 : 0; /* process 0 only: the others end in bsp_end */
}
