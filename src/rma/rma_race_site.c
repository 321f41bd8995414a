/* rma_race_site.c -- where the calls of ORMA_CHECK=race's reports were made,
 * and the reports themselves.
 *
 * Each process numbers the return addresses of its calls as it first meets
 * them, in a site table of its own: the shared segment "s-r<job rank>",
 * which any rank of the node reading another's access record maps to name
 * that record's call.  An entry holds what dladdr says of the address (the
 * object's path, the address relative to it, the nearest exported symbol);
 * the function and file:line come from the object's symbols and debug
 * information, through addr2line, only when a report names the site. */

#include "rma_race.h"
#include "rma_world.h"
#include "boot_job.h"
#include "boot_peer.h"
#include "shm_seg.h"
#include "util_log.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <elf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RMA_SITES 4096u
#define RMA_SITE_SLOTS 8192u /* addresses -> ids here, open addressing */

struct rma_site {
    uint64_t addr;       /* the return address, here */
    uint64_t rel;        /* as addr2line wants it: past the object's load address (shared objects, PIE) */
    uint64_t sym_off;    /* past sym, when sym is set */
    char sym[96];        /* nearest exported symbol, or "" */
    char object[192];    /* the object's path, or "" */
};

struct rma_site_table {
    _Atomic uint32_t n;
    uint32_t cap;
    char pad[56];
    struct rma_site sites[RMA_SITES];
};

static pthread_mutex_t rma_site_mu = PTHREAD_MUTEX_INITIALIZER;
static struct shm_seg rma_site_seg;
static struct rma_site_table *rma_site_tab;
static struct {
    const void *ra;
    uint32_t id;
} rma_site_slots[RMA_SITE_SLOTS];

/* Peers' tables mapped here, by job token and rank. */
struct rma_site_peer {
    char token[40];
    int job_rank;
    struct shm_seg seg;
};
static struct rma_site_peer *rma_site_peers;
static size_t rma_site_npeers;

static void rma_site_fill(struct rma_site *s, const void *ra)
{
    memset(s, 0, sizeof *s);
    s->addr = (uint64_t)(uintptr_t)ra;
    Dl_info info;
    if (!ra || !dladdr(ra, &info))
        return;
    if (info.dli_fname)
        snprintf(s->object, sizeof s->object, "%s", info.dli_fname);
    const Elf64_Ehdr *eh = info.dli_fbase;
    /* executables not built position-independent take the address itself */
    s->rel = eh && eh->e_type == ET_EXEC ? s->addr : s->addr - (uint64_t)(uintptr_t)info.dli_fbase;
    if (info.dli_sname && info.dli_saddr) {
        snprintf(s->sym, sizeof s->sym, "%s", info.dli_sname);
        s->sym_off = s->addr - (uint64_t)(uintptr_t)info.dli_saddr;
    }
}

static _Thread_local const void *rma_site_last_ra;
static _Thread_local uint32_t rma_site_last_id = UINT32_MAX;
static uint32_t rma_site_era; /* tables given back so far: a thread's last id then stale */
static _Thread_local uint32_t rma_site_last_era;

uint32_t rma_race_site_id(const void *ra)
{
    /* a loop's calls: the same site again, without the lock */
    if (ra == rma_site_last_ra && rma_site_last_id != UINT32_MAX &&
        rma_site_last_era == __atomic_load_n(&rma_site_era, __ATOMIC_ACQUIRE))
        return rma_site_last_id;
    pthread_mutex_lock(&rma_site_mu);
    uint32_t id = UINT32_MAX;
    if (!rma_site_tab) {
        char name[SHM_NAME_MAX];
        boot_job_name(name, sizeof name, "s-r%d", boot_job.rank);
        if (shm_seg_create(name, sizeof(struct rma_site_table), &rma_site_seg)) {
            pthread_mutex_unlock(&rma_site_mu);
            return id;
        }
        rma_site_tab = rma_site_seg.base;
        rma_site_tab->cap = RMA_SITES;
    }
    uint32_t h = (uint32_t)(((uintptr_t)ra * 0x9E3779B97F4A7C15ull) >> 51) & (RMA_SITE_SLOTS - 1);
    for (uint32_t k = 0; k < RMA_SITE_SLOTS; k++, h = (h + 1) & (RMA_SITE_SLOTS - 1)) {
        if (rma_site_slots[h].ra == ra && (ra || rma_site_slots[h].id)) {
            id = rma_site_slots[h].id - 1;
            break;
        }
        if (!rma_site_slots[h].id) {
            uint32_t n = atomic_load_explicit(&rma_site_tab->n, memory_order_relaxed);
            if (n == RMA_SITES)
                break;
            rma_site_fill(&rma_site_tab->sites[n], ra);
            atomic_store_explicit(&rma_site_tab->n, n + 1, memory_order_release);
            rma_site_slots[h].ra = ra;
            rma_site_slots[h].id = n + 1;
            id = n;
            break;
        }
    }
    rma_site_last_ra = ra;
    rma_site_last_id = id;
    rma_site_last_era = rma_site_era;
    pthread_mutex_unlock(&rma_site_mu);
    return id;
}

void rma_race_site_release(void)
{
    pthread_mutex_lock(&rma_site_mu);
    if (rma_site_tab) {
        shm_seg_unlink(rma_site_seg.name);
        shm_seg_unmap(&rma_site_seg);
        rma_site_tab = NULL;
        memset(rma_site_slots, 0, sizeof rma_site_slots);
        __atomic_add_fetch(&rma_site_era, 1, __ATOMIC_RELEASE);
    }
    for (size_t i = 0; i < rma_site_npeers; i++)
        shm_seg_unmap(&rma_site_peers[i].seg);
    free(rma_site_peers);
    rma_site_peers = NULL;
    rma_site_npeers = 0;
    pthread_mutex_unlock(&rma_site_mu);
}

/* The table of (token, job_rank), mapped here; NULL if gone. */
static const struct rma_site_table *rma_site_table_of(const char *token, int job_rank)
{
    if (!strcmp(token, boot_job.token) && job_rank == boot_job.rank)
        return rma_site_tab;
    for (size_t i = 0; i < rma_site_npeers; i++)
        if (rma_site_peers[i].job_rank == job_rank && !strcmp(rma_site_peers[i].token, token))
            return rma_site_peers[i].seg.base;
    char name[SHM_NAME_MAX];
    boot_name_of(name, sizeof name, token, "s-r%d", job_rank);
    struct shm_seg seg;
    int missing = 0;
    if (shm_seg_open_if(name, 0, &seg, &missing) || missing)
        return NULL;
    if (seg.size < sizeof(struct rma_site_table)) {
        shm_seg_unmap(&seg);
        return NULL;
    }
    struct rma_site_peer *p = realloc(rma_site_peers, (rma_site_npeers + 1) * sizeof *p);
    if (!p) {
        shm_seg_unmap(&seg);
        return NULL;
    }
    rma_site_peers = p;
    p = &rma_site_peers[rma_site_npeers++];
    snprintf(p->token, sizeof p->token, "%s", token);
    p->job_rank = job_rank;
    p->seg = seg;
    return seg.base;
}

/* The function of object (an ELF file) holding address a (as its symbols
 * have it): its name and a's offset in it, from the symbol table (every
 * function, exported or not), else the dynamic one.  1 when found. */
static int rma_site_symbol(const char *object, uint64_t a, char *name, size_t len, uint64_t *off_p)
{
    int fd = object[0] ? open(object, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return 0;
    int found = 0;
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = NULL;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) || !eh.e_shnum ||
        eh.e_shnum > 4096 || !(sh = calloc(eh.e_shnum, sizeof *sh)) ||
        pread(fd, sh, eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff) != (ssize_t)(eh.e_shnum * sizeof *sh))
        goto out;
    for (int pass = 0; pass < 2 && !found; pass++) {
        for (unsigned s = 0; s < eh.e_shnum && !found; s++) {
            if (sh[s].sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) || sh[s].sh_link >= eh.e_shnum ||
                sh[s].sh_entsize != sizeof(Elf64_Sym))
                continue;
            const Elf64_Shdr *st = &sh[sh[s].sh_link];
            size_t n = sh[s].sh_size / sizeof(Elf64_Sym);
            Elf64_Sym sym;
            for (size_t i = 0; i < n; i++) {
                if (pread(fd, &sym, sizeof sym, (off_t)(sh[s].sh_offset + i * sizeof sym)) != (ssize_t)sizeof sym)
                    break;
                if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value || a < sym.st_value ||
                    a >= sym.st_value + (sym.st_size ? sym.st_size : 1) || sym.st_name >= st->sh_size)
                    continue;
                ssize_t got = pread(fd, name, len - 1, (off_t)(st->sh_offset + sym.st_name));
                if (got <= 0)
                    break;
                name[got] = 0;
                name[strnlen(name, (size_t)got)] = 0;
                *off_p = a - sym.st_value;
                found = 1;
                break;
            }
        }
    }
out:
    free(sh);
    close(fd);
    return found;
}

/* Function and file:line of rel in object, from addr2line: 1 when it knew
 * either. */
static int rma_site_lines(const char *object, uint64_t rel, char *func, size_t flen, char *line, size_t llen)
{
    func[0] = line[0] = 0;
    if (!object[0] || strchr(object, '\'') || access(object, R_OK))
        return 0;
    char cmd[512];
    /* the call's own instruction: one byte before its return address */
    snprintf(cmd, sizeof cmd, "env -u LD_PRELOAD addr2line -f -C -e '%s' 0x%llx 2>/dev/null", object,
             (unsigned long long)(rel ? rel - 1 : 0));
    FILE *f = popen(cmd, "r");
    if (!f)
        return 0;
    if (fgets(func, (int)flen, f))
        func[strcspn(func, "\n")] = 0;
    if (fgets(line, (int)llen, f))
        line[strcspn(line, "\n (")] = 0;
    pclose(f);
    if (!strcmp(func, "??"))
        func[0] = 0;
    if (!strncmp(line, "??", 2))
        line[0] = 0;
    return func[0] || line[0];
}

void rma_race_site_text(const char *token, int job_rank, uint32_t id, char *buf, size_t len)
{
    pthread_mutex_lock(&rma_site_mu);
    const struct rma_site_table *tab = rma_site_table_of(token, job_rank);
    if (!tab || id >= atomic_load_explicit(&((struct rma_site_table *)tab)->n, memory_order_acquire)) {
        pthread_mutex_unlock(&rma_site_mu);
        snprintf(buf, len, "an unknown site");
        return;
    }
    struct rma_site s = tab->sites[id];
    pthread_mutex_unlock(&rma_site_mu);
    char func[160], line[256], sym[160] = "";
    uint64_t off = UINT64_MAX;
    rma_site_lines(s.object, s.rel, func, sizeof func, line, sizeof line);
    const char *base = strrchr(s.object, '/');
    base = base ? base + 1 : s.object[0] ? s.object : "?";
    if (rma_site_symbol(s.object, s.rel, sym, sizeof sym, &off) && func[0] && strcmp(func, sym))
        snprintf(buf, len, "%s (inlined in %s+0x%llx)", func, sym, (unsigned long long)off);
    else if (sym[0] && off != UINT64_MAX)
        snprintf(buf, len, "%s+0x%llx", sym, (unsigned long long)off);
    else if (s.sym[0])
        snprintf(buf, len, "%s+0x%llx", s.sym, (unsigned long long)s.sym_off);
    else if (func[0])
        snprintf(buf, len, "%s [%s+0x%llx]", func, base, (unsigned long long)s.rel);
    else
        snprintf(buf, len, "%s+0x%llx", base, (unsigned long long)s.rel);
    if (line[0]) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, " (%s)", line);
    }
}

void rma_race_report(const char *fmt, ...)
{
    char msg[2048];
    int n = snprintf(msg, sizeof msg, "orma race: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = strlen(msg);
    msg[len++] = '\n';
    fflush(stderr);
    if (write(STDERR_FILENO, msg, len) < 0) {
        /* nothing better to do */
    }
    if (util_config.check_abort) {
        static const char stop[] = "orma: ORMA_CHECK_ABORT=1: the job ends at the first race report\n";
        if (write(STDERR_FILENO, stop, sizeof stop - 1) < 0) {
        }
        fflush(NULL);
        boot_sweep_token(boot_job.token);
        rma_world_abort(1);
        _exit(1);
    }
}
