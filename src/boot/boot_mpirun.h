/* boot_mpirun.h -- a native program started by an MPI launcher: which
 * launcher it was (its ranks' environment says so; ORMA_MPIRUN chooses or
 * turns this off) and the entry point of the module that joins its ranks
 * (liborma-mpirun-<variant>.so, built against that MPI: net_world.h).
 * What the module hands back is the rma layer's to use (rma_world.c). */
#ifndef ORMA_BOOT_MPIRUN_H
#define ORMA_BOOT_MPIRUN_H

#include <stddef.h>

struct boot_mpirun {
    const char *variant;  /* "openmpi", "mpich": the module's suffix */
    const char *size_var; /* the launcher's variables of world size and rank */
    const char *rank_var;
};

/* The launcher that started this process with more than one rank, or NULL
 * (none, ORMA_MPIRUN=off, or one not named by ORMA_MPIRUN). */
const struct boot_mpirun *boot_mpirun_detect(void);

/* The launcher's variable name as an int (-1: unset or not a count). */
int boot_mpirun_env_int(const char *name);

/* symbol of the launcher's module, looked for next to liborma (the file
 * this code was loaded from), then in lib/ beside a program's bin/ (liborma
 * linked statically), then by the dynamic loader's own search; loaded
 * RTLD_GLOBAL, as the host MPI's components look their library up there.
 * NULL with the reason in why[len] when it cannot be found. */
void *boot_mpirun_entry(const struct boot_mpirun *l, const char *symbol, char *why, size_t len);

#endif
