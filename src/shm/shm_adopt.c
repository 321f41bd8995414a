/* shm_adopt.c -- private memory made shared in place (shm_adopt.h). */
#include "shm_adopt.h"
#include "util_log.h"
#include "util_status.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 1 when every byte of [lo, hi) lies in private anonymous mappings of this
 * process other than the main stack, by /proc/self/maps. */
static int shm_adopt_eligible(uintptr_t lo, uintptr_t hi)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return 0;
    char line[512];
    uintptr_t covered = lo; /* [lo, covered) is known to be eligible */
    int ok = 1;
    while (ok && covered < hi && fgets(line, sizeof line, f)) {
        unsigned long s, e, inode;
        char perms[8], path[256] = "";
        int n = sscanf(line, "%lx-%lx %7s %*s %*s %lu %255s", &s, &e, perms, &inode, path);
        if (n < 4)
            continue;
        if (e <= covered || s >= hi)
            continue;
        ok = s <= covered && strcmp(perms, "rw-p") == 0 && inode == 0 &&
             (path[0] == '\0' || strcmp(path, "[heap]") == 0);
        covered = e;
    }
    fclose(f);
    return ok && covered >= hi;
}

/* memcpy where the source holds bytes that are not the caller's (the
 * objects around a window on its partial pages, freed blocks among them,
 * an allocator's redzones): out of the sanitizers' sight, which would call
 * reading them an overflow (ASan) or a use after free (TSan). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SHM_ADOPT_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SHM_ADOPT_SANITIZED 1
#endif
#if defined(SHM_ADOPT_SANITIZED) && (defined(__x86_64__) || defined(__i386__))
static void shm_adopt_copy(void *dst, const void *src, size_t len)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(len) : : "memory");
}
#else
#define shm_adopt_copy memcpy
#endif

/* Move len bytes of a new mapping made by map_new (holding a copy of
 * [addr, addr + len)) onto addr.  0 or -1 (addr unchanged). */
static int shm_adopt_move_now(char *addr, size_t len, int fd)
{
    void *tmp = fd >= 0 ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                        : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tmp == MAP_FAILED)
        return -1;
    shm_adopt_copy(tmp, addr, len);
    /* The system call itself: memory hooks that interpose on mremap (UCX's,
     * under MPICH) have been seen to drop its fifth argument, moving the
     * mapping to address 0 instead of onto addr. */
    void *moved = (void *)syscall(SYS_mremap, tmp, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, addr);
    if (moved != (void *)addr) {
        munmap(moved == MAP_FAILED ? tmp : moved, len);
        return -1;
    }
    return 0;
}

/* The same; quiet: with every signal held off meanwhile -- a handler
 * storing into bytes around the caller's range while they are copied
 * would lose its store. */
static int shm_adopt_move(char *addr, size_t len, int fd, int quiet)
{
    if (!quiet)
        return shm_adopt_move_now(addr, len, fd);
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    int rc = shm_adopt_move_now(addr, len, fd);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* Whether malloc is glibc's: sanitizers bring allocators of their own
 * (whose headers are poisoned, too). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SHM_ADOPT_OTHER_MALLOC 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SHM_ADOPT_OTHER_MALLOC 1
#endif
#if defined(__GLIBC__) && UINTPTR_MAX == UINT64_MAX && !defined(SHM_ADOPT_OTHER_MALLOC)
#define SHM_ADOPT_GLIBC_MALLOC 1
#else
#define SHM_ADOPT_GLIBC_MALLOC 0
#endif

/* glibc serves a large malloc (above M_MMAP_THRESHOLD) from a mapping of
 * its own: the block starts 16 bytes into it, after the chunk header
 * (prev_size 0, then the mapping's length with bit 1, IS_MMAPPED, set),
 * and nothing else ever lives in that mapping.  When [b, b + size) is such
 * a block, reaching into the mapping's last page, the partial pages at its
 * ends hold only that header and unused slack, which nobody touches while
 * the block is allocated: [*lo_p, *hi_p) is the whole mapping, 1.  Else 0.
 * Reading the header is safe: it lies on b's own page. */
static int shm_adopt_malloc_chunk(uintptr_t b, size_t size, uintptr_t page, uintptr_t *lo_p, uintptr_t *hi_p)
{
#if SHM_ADOPT_GLIBC_MALLOC
    if ((b & (page - 1)) != 16)
        return 0;
    uint64_t prev, head;
    memcpy(&prev, (const void *)(b - 16), 8);
    memcpy(&head, (const void *)(b - 8), 8);
    uint64_t len = head & ~(uint64_t)7;
    if (prev != 0 || (head & 7) != 2 || len == 0 || len % page || len > UINTPTR_MAX - (b - 16))
        return 0;
    uintptr_t s = b - 16, e = s + (uintptr_t)len;
    if (size > e - b || e - (b + size) >= page)
        return 0;
    *lo_p = s;
    *hi_p = e;
    return 1;
#else
    (void)b, (void)size, (void)page, (void)lo_p, (void)hi_p;
    return 0;
#endif
}

/* The threads of this process, by /proc/self/stat (0: not known). */
static long shm_adopt_threads(void)
{
    FILE *f = fopen("/proc/self/stat", "re");
    if (!f)
        return 0;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* after the command name, which may hold anything */
    long threads = 0;
    /* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
     * cmajflt utime stime cutime cstime priority nice num_threads */
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %ld",
                     &threads) != 1)
        return 0;
    return threads;
}

int shm_adopt(void *base, size_t size, const char *name, size_t min_len, int flags, struct shm_adopt *a)
{
    memset(a, 0, sizeof *a);
    uintptr_t page = shm_page_size(), b = (uintptr_t)base;
    if (size == 0 || size > UINTPTR_MAX - b - page)
        return ORMA_SUCCESS;
    uintptr_t lo = (b + page - 1) & ~(page - 1), hi = (b + size) & ~(page - 1);
    int whole = (flags & SHM_ADOPT_WHOLE_BLOCK) && shm_adopt_malloc_chunk(b, size, page, &lo, &hi), around = 0;
    if (!whole && (flags & SHM_ADOPT_AROUND) && shm_adopt_threads() == 1) {
        uintptr_t alo = b & ~(page - 1), ahi = (b + size + page - 1) & ~(page - 1);
        if (alo != lo || ahi != hi) { /* partial pages to take */
            if (ahi - alo >= min_len && shm_adopt_eligible(alo, ahi)) {
                lo = alo;
                hi = ahi;
                around = 1;
            }
        }
    }
    if (hi <= lo || hi - lo < min_len || (!around && !shm_adopt_eligible(lo, hi)))
        return ORMA_SUCCESS;
    size_t len = hi - lo;
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        util_log(UTIL_LOG_DEBUG, "window memory stays private: shm_open(%s) failed", name);
        return ORMA_SUCCESS;
    }
    if (ftruncate(fd, (off_t)len) != 0 || shm_adopt_move((char *)lo, len, fd, around) != 0) {
        util_log(UTIL_LOG_DEBUG, "window memory stays private: could not move %zu bytes into %s", len, name);
        close(fd);
        shm_unlink(name);
        return ORMA_SUCCESS;
    }
    close(fd);
    a->around = around;
    a->addr = (char *)lo;
    a->len = len;
    snprintf(a->name, sizeof a->name, "%s", name);
    shm_seg_guard(name);
    return ORMA_SUCCESS;
}

void shm_adopt_release(struct shm_adopt *a)
{
    if (!a->addr)
        return;
    if (a->around && shm_adopt_threads() != 1)
        util_log(UTIL_LOG_DEBUG, "%zu bytes of window memory at %p stay in shared segment %s: other threads may "
                 "be storing into the bytes around the window", a->len, (void *)a->addr, a->name);
    else if (shm_adopt_move(a->addr, a->len, -1, a->around) != 0)
        util_log(UTIL_LOG_WARN, "%zu bytes of window memory at %p stay in shared segment %s: no memory to move "
                 "them back", a->len, (void *)a->addr, a->name);
    shm_seg_unlink(a->name);
    a->addr = NULL;
}
