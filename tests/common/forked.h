/* forked.h -- n forked processes running one function each, for the unit
 * tests of the shared-memory waits (header only). */
#ifndef ORMA_TEST_FORKED_H
#define ORMA_TEST_FORKED_H

#include "check.h"

#include <sys/wait.h>
#include <unistd.h>

#define FORKED_MAX 8

/* Runs child(r, arg) in process r of n (n <= FORKED_MAX), each exiting
 * with what it returned; 1 when every one exited 0. */
static inline int forked_all(int n, int (*child)(int r, void *arg), void *arg)
{
    pid_t pids[FORKED_MAX];
    CHECK(n <= FORKED_MAX);
    for (int r = 0; r < n; r++) {
        pids[r] = fork();
        CHECK(pids[r] >= 0);
        if (pids[r] == 0)
            _exit(child(r, arg));
    }
    int ok = 1;
    for (int r = 0; r < n; r++) {
        int st;
        CHECK(waitpid(pids[r], &st, 0) == pids[r]);
        ok &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    return ok;
}

#endif
