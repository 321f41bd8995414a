/* boot_mpirun.c -- see boot_mpirun.h. */
#include "boot_mpirun.h"
#include "util_config.h"
#include "util_log.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The launchers that start MPI jobs say so in their ranks' environment. */
static const struct boot_mpirun boot_mpirun_launchers[] = {
    {"openmpi", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"},
    {"mpich", "PMI_SIZE", "PMI_RANK"}, /* Hydra, and PMI-1/2 launchers */
};
#define BOOT_MPIRUN_N (sizeof boot_mpirun_launchers / sizeof boot_mpirun_launchers[0])

int boot_mpirun_env_int(const char *name)
{
    const char *v = getenv(name);
    char *end;
    long n = v && *v ? strtol(v, &end, 10) : -1;
    return v && *v && !*end && n >= 0 && n <= INT_MAX ? (int)n : -1;
}

const struct boot_mpirun *boot_mpirun_detect(void)
{
    const char *want = util_config.mpirun;
    if (!strcmp(want, "off"))
        return NULL;
    int known = !strcmp(want, "auto");
    for (size_t i = 0; i < BOOT_MPIRUN_N; i++) {
        const struct boot_mpirun *l = &boot_mpirun_launchers[i];
        if (strcmp(want, "auto") && strcmp(want, l->variant))
            continue;
        known = 1;
        if (boot_mpirun_env_int(l->size_var) > 1)
            return l;
    }
    if (!known)
        util_warn("ORMA_MPIRUN=%s is none of auto, openmpi, mpich, off: off", want);
    return NULL;
}

static void *boot_mpirun_open(const char *file, char *why, size_t len)
{
    char path[PATH_MAX + sizeof "/../lib/" + 64];
    Dl_info info;
    const char *dirs[2] = {NULL, NULL};
    char dir[PATH_MAX] = "";
    if (dladdr((void *)boot_mpirun_entry, &info) && info.dli_fname && strrchr(info.dli_fname, '/')) {
        snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(info.dli_fname, '/') - info.dli_fname), info.dli_fname);
        dirs[0] = "";
        dirs[1] = "/../lib";
    }
    why[0] = 0;
    for (int i = 0; i < 2 && dirs[i]; i++) {
        snprintf(path, sizeof path, "%s%s/%s", dir, dirs[i], file);
        void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (h)
            return h;
        if (!why[0] || i == 0)
            snprintf(why, len, "%s", dlerror());
    }
    void *h = dlopen(file, RTLD_NOW | RTLD_GLOBAL);
    if (!h && !why[0])
        snprintf(why, len, "%s", dlerror());
    return h;
}

void *boot_mpirun_entry(const struct boot_mpirun *l, const char *symbol, char *why, size_t len)
{
    char file[64], reason[448];
    snprintf(file, sizeof file, "liborma-mpirun-%s.so", l->variant);
    void *h = boot_mpirun_open(file, reason, sizeof reason);
    if (!h) {
        snprintf(why, len, "could not be opened: %s", reason);
        return NULL;
    }
    void *entry = dlsym(h, symbol);
    if (!entry)
        snprintf(why, len, "lacks its entry point %s", symbol);
    return entry;
}
