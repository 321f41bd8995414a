/* mpib_fns.c -- see mpib_fns.h: the two tables of MPI functions and the
 * checks of what serves them. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "mpib.h"
#include "mpib_fns.h"

#define MPIB_FN_LINKED(name) .name = MPI_##name,
const mpib_fns mpib_fns_linked = {.what = "as linked",
                                  MPIB_FNS(MPIB_FN_LINKED)};
#undef MPIB_FN_LINKED

/* The table as (name, address) pairs, to check them one by one. */
#define MPIB_FN_COUNT(name) +1
enum { NFNS = 0 MPIB_FNS(MPIB_FN_COUNT) };
#undef MPIB_FN_COUNT

typedef struct fn_entry {
    const char *name;
    void *fn;
} fn_entry;

static void entries(const mpib_fns *f, fn_entry *e)
{
    int i = 0;
#define MPIB_FN_ENTRY(name) e[i++] = (fn_entry){"MPI_" #name, (void *)f->name};
    MPIB_FNS(MPIB_FN_ENTRY)
#undef MPIB_FN_ENTRY
}

static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* The file that holds fn, or NULL. */
static const char *file_of(void *fn, Dl_info *info)
{
    if (fn == NULL || dladdr(fn, info) == 0 || info->dli_fname == NULL)
        return NULL;
    return info->dli_fname;
}

static int is_orma(const char *path)
{
    return path != NULL && strstr(file_name(path), "liborma-mpi") != NULL;
}

/* The shared object that defines MPI_Send, the host MPI's: liborma-mpi
 * defines no point-to-point call.  Its handle (it is loaded already, as
 * this program is linked with it), and its Dl_info in *lib. */
static void *host_library(int rank, Dl_info *lib)
{
    void *send = dlsym(RTLD_DEFAULT, "MPI_Send");
    const char *path = file_of(send, lib);
    if (path == NULL || is_orma(path)) {
        fprintf(stderr, "orma-bench-mpi-%s: rank %d: the host MPI's library "
                "not found: MPI_Send is in %s\n", MPIB_VARIANT, rank,
                path != NULL ? file_name(path) : "no file dladdr knows");
        return NULL;
    }
    void *h = dlopen(path, RTLD_NOLOAD | RTLD_NOW);
    if (h == NULL)
        fprintf(stderr, "orma-bench-mpi-%s: rank %d: dlopen %s: %s\n",
                MPIB_VARIANT, rank, path, dlerror());
    return h;
}

static mpib_fns host;

/* Fill host from the handle h of the host's library lib; 0, or -1 after
 * naming the first function that is missing or lies elsewhere. */
static int resolve(void *h, const Dl_info *lib, int rank)
{
    host.what = "host";
    /* dlsym returns void *; the cast to the member's function type is
     * what POSIX makes dlsym's result good for. */
#define MPIB_FN_HOST(name)                                                    \
    host.name = (__typeof__(host.name))dlsym(h, "PMPI_" #name);
    MPIB_FNS(MPIB_FN_HOST)
#undef MPIB_FN_HOST
    fn_entry e[NFNS];
    entries(&host, e);
    for (int i = 0; i < NFNS; i++) {
        Dl_info in;
        const char *path = file_of(e[i].fn, &in);
        if (path != NULL && in.dli_fbase == lib->dli_fbase && !is_orma(path))
            continue;
        fprintf(stderr, "orma-bench-mpi-%s: rank %d: mpi-rma: the host's %s "
                "(P%s) is %s%s, not in %s, the library of MPI_Send\n",
                MPIB_VARIANT, rank, e[i].name, e[i].name,
                path != NULL ? "in " : "", path != NULL ? file_name(path)
                                      : "not found",
                file_name(lib->dli_fname));
        return -1;
    }
    return 0;
}

const mpib_fns *mpib_fns_host(int rank, const char **lib_p)
{
    static int done;
    static const mpib_fns *result;
    static char lib_name[256] = "(unknown)";
    *lib_p = lib_name;
    if (done)
        return result;
    done = 1;
    Dl_info lib;
    void *h = host_library(rank, &lib);
    if (h == NULL)
        return NULL;
    snprintf(lib_name, sizeof lib_name, "%s", file_name(lib.dli_fname));
    int rc = resolve(h, &lib, rank);
    /* The library stays: the program is linked with it. */
    dlclose(h);
    result = rc == 0 ? &host : NULL;
    return result;
}

int mpib_fns_in_orma(const mpib_fns *f, int rank)
{
    fn_entry e[NFNS];
    entries(f, e);
    for (int i = 0; i < NFNS; i++) {
        Dl_info in;
        const char *path = file_of(e[i].fn, &in);
        if (is_orma(path))
            continue;
        fprintf(stderr, "orma-bench-mpi-%s: rank %d: orma-mpi: %s (%s) is "
                "served by %s, not by liborma-mpi (preload it)\n",
                MPIB_VARIANT, rank, e[i].name, f->what,
                path != NULL ? file_name(path) : "no file dladdr knows");
        return 0;
    }
    return 1;
}
