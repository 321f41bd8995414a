#include "util_random.h"
#include "util_status.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

int util_random_hex(size_t nbytes, char *out)
{
    unsigned char raw[64];
    if (nbytes > sizeof raw)
        return util_error(ORMA_ERR_INTERNAL, "random token of %zu bytes is too long", nbytes);
    size_t got = 0;
    while (got < nbytes) {
        ssize_t n = getrandom(raw + got, nbytes - got, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return util_error(ORMA_ERR_SYS, "getrandom failed: %s", strerror(errno));
        }
        got += (size_t)n;
    }
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < nbytes; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[2 * nbytes] = '\0';
    return ORMA_SUCCESS;
}
