/* orma-info -- the version, the transports built in, and every ORMA_*
 * setting with its value, its default and where the value came from. */
#include "util_config.h"

#include <orma.h>
#include <stdio.h>
#include <string.h>

static void print_usage(FILE *f)
{
    fprintf(f, "usage: orma-info [--settings]\n"
               "prints orma's version, transports and settings (ORMA_* environment variables)\n");
}

int main(int argc, char **argv)
{
    int settings_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            print_usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--settings")) {
            settings_only = 1;
        } else {
            print_usage(stderr);
            return 2;
        }
    }
    util_config_load();
    if (!settings_only) {
        printf("orma %s\n", ORMA_VERSION_STRING);
        printf("transports:\n");
        printf("  shm   direct load/store on shared segments (allocate, shared, alloc_mem memory)\n");
        printf("  cma   single-copy process_vm_readv/writev for private memory\n");
        printf("  net   not built (inter-node transport over MPI point-to-point)\n");
        printf("settings:\n");
    }
    int n = util_config_count();
    for (int i = 0; i < n; i++) {
        struct util_config_row row;
        util_config_row(i, &row);
        printf("  %-16s = %-10s (default %s, from %s)\n      %s\n", row.name, row.value, row.def, row.source,
               row.help);
    }
    return 0;
}
