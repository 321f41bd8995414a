/* report_cmd.c -- see report_cmd.h.  The program is looked up beside the
 * executable first (../share/orma-bench/, where the build copies it), so
 * that a build tree carried elsewhere keeps its report, then in the source
 * tree it was built from (BENCH_REPORT_SRC_DIR, set by CMake). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"
#include "report_cmd.h"

#define SCRIPT "orma_report.py"

/* The report program's path into buf; -1 when it is nowhere. */
static int find_script(char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            int w = snprintf(buf, len, "%s/../share/orma-bench/%s", exe,
                             SCRIPT);
            if (w > 0 && (size_t)w < len && access(buf, R_OK) == 0)
                return 0;
        }
    }
#ifdef BENCH_REPORT_SRC_DIR
    int w = snprintf(buf, len, "%s/%s", BENCH_REPORT_SRC_DIR, SCRIPT);
    if (w > 0 && (size_t)w < len && access(buf, R_OK) == 0)
        return 0;
#endif
    return -1;
}

int bench_report_command(int argc, char **argv)
{
    char script[PATH_MAX];
    if (find_script(script, sizeof script) != 0) {
        fprintf(stderr, "orma-bench report: cannot find %s, neither in "
                "share/orma-bench/ beside bin/ nor in the source tree this "
                "orma-bench was built from\n", SCRIPT);
        return BENCH_FAIL;
    }
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (args == NULL) {
        fprintf(stderr, "orma-bench: out of memory\n");
        return BENCH_FAIL;
    }
    args[0] = "python3";
    args[1] = script;
    for (int i = 2; i < argc; i++)
        args[i] = argv[i];
    fflush(stdout);
    execvp("python3", args);
    int e = errno;
    free(args);
    if (e == ENOENT) {
        fprintf(stderr, "orma-bench report: no python3 on PATH: the report "
                "is a Python 3 program (Debian: apt-get install python3)\n");
        return BENCH_REPORT_NOENV;
    }
    fprintf(stderr, "orma-bench report: cannot run python3: %s\n",
            strerror(e));
    return BENCH_FAIL;
}
