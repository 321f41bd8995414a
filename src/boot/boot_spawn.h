/* boot_spawn.h -- asking orma-run to start more ranks (orma_spawn).
 *
 * orma-run listens on an abstract Unix stream socket named in its ranks'
 * ORMA_BOOT_SERVICE.  A rank connects, sends one request (the header, then
 * len bytes: the working directory, the program and its arguments, each
 * NUL-terminated), and reads one reply (the header, then n pids when
 * status is 0).  The new ranks are a job of their own, watched like the
 * first ranks: any of them failing ends everything.  Their environment
 * names the bridge team they share with their parents (ORMA_BOOT_PARENT:
 * "<segment name>:<number of parents>"): they are its ranks after the
 * parents, in their own rank order. */
#ifndef ORMA_BOOT_SPAWN_H
#define ORMA_BOOT_SPAWN_H

#include "shm_seg.h"

#include <stdint.h>

#define BOOT_SPAWN_MAGIC 0x6f727370u /* "orsp" */
#define BOOT_SPAWN_MAX_BYTES (256 * 1024) /* of the strings of a request */

struct boot_spawn_req {
    uint32_t magic;
    int32_t n;       /* ranks to start, >= 1 */
    int32_t parents; /* the bridge's ranks before them */
    uint32_t len;    /* bytes of strings that follow */
    int32_t argc;    /* arguments after the program */
    char bridge[SHM_NAME_MAX];
};

struct boot_spawn_reply {
    uint32_t magic;
    int32_t status;  /* 0, or an errno: the program's (ENOENT, EACCES,
                        ENOEXEC, ...), E2BIG (more ranks than the universe
                        holds), the launcher's (EAGAIN, ENOMEM, EINVAL) */
    char token[40];  /* the new job's */
    char why[160];   /* when status: what went wrong, for the message */
};

/* Whether this rank's launcher takes requests (started by orma-run). */
int boot_spawn_available(void);

/* Start n ranks of program (argv: argc arguments after the program) in
 * cwd, as members parents.. of the bridge segment named bridge; their pids
 * into pids (n of them).  Errors name the problem. */
int boot_spawn_request(const char *program, char *const argv[], int n, int parents, const char *bridge,
                       int32_t *pids);

#endif
