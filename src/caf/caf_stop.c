/* caf_stop.c -- STOP, ERROR STOP and FAIL IMAGE.  STOP is normal
 * termination of this image: it waits for the others to terminate too
 * (caf_image.c), then exits with its code.  ERROR STOP ends every image at
 * once, with its code as the job's status. */
#include "caf_impl.h"

#include <stdio.h>
#include <stdlib.h>


void _gfortran_caf_stop_numeric(int code, bool quiet)
{
    caf_flush_units();
    if (!quiet)
        fprintf(stderr, "STOP %d\n", code);
    fflush(NULL);
    _gfortran_caf_finalize();
    exit(code);
}

void _gfortran_caf_stop_str(const char *s, size_t len, bool quiet)
{
    caf_flush_units();
    if (!quiet && s) { /* a plain STOP passes no string and prints nothing */
        fputs("STOP ", stderr);
        fwrite(s, 1, len, stderr);
        fputc('\n', stderr);
    }
    fflush(NULL);
    _gfortran_caf_finalize();
    exit(0);
}

void _gfortran_caf_error_stop(int code, bool quiet)
{
    caf_flush_units();
    if (!quiet)
        fprintf(stderr, "ERROR STOP %d\n", code);
    fflush(NULL);
    orma_abort(code ? code : 1);
}

void _gfortran_caf_error_stop_str(const char *s, size_t len, bool quiet)
{
    caf_flush_units();
    if (!quiet) {
        fputs("ERROR STOP ", stderr);
        fwrite(s, 1, len, stderr);
        fputc('\n', stderr);
    }
    fflush(NULL);
    orma_abort(1);
}
