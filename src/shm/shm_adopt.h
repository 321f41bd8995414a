/* shm_adopt.h -- private memory made shared in place.
 *
 * A window created on ordinary memory (malloc, static, anonymous mappings)
 * can only be reached by its peers through single-copy system calls, about
 * 1.3 us each on this kind of machine, against tens of nanoseconds for a
 * store into a mapped segment.  Linux cannot share existing private pages,
 * but it can move pages: the whole pages inside the window are copied into
 * a new segment, and the segment's mapping is moved (mremap) onto their
 * addresses, replacing them in one step.  The process sees the same bytes
 * at the same addresses; its peers map the segment and load and store
 * directly.  When the window is freed the pages are moved back the same
 * way into private memory.  This is DESIGN section 3's "heap served from
 * shared segments", done per window instead of per allocation, so no
 * allocator has to be replaced.
 *
 * Only whole pages that lie entirely inside [base, base + size) are moved,
 * so no byte outside the caller's range changes its backing: another
 * thread's objects sharing the first or last page are never copied while
 * they might be written, and the allocator's own trimming (MADV_DONTNEED
 * of free pages, which on a shared page would not zero it) never meets an
 * adopted page while the window holds it (a page holding window bytes is
 * never free).  Unless the process has a single thread (SHM_ADOPT_AROUND):
 * then nobody else can store into the objects sharing those pages while
 * they are moved, once signals are held off, and every page the range
 * touches is moved -- a window of 16 malloc'd bytes, or the first bytes
 * of a heap block, is then mapped by its peers like any other.  Moving
 * them back needs the same: with other threads by then, they stay in the
 * segment (unlinked), shared with nobody.  Only private anonymous memory
 * is adopted -- the heap, anonymous mappings, a program's zero-initialised
 * data -- never a file mapping, memory already shared, or the main stack,
 * whose mapping grows downwards.  The caller's bytes in the partial pages
 * at either end stay private -- unless the range is a large malloc'd block
 * alone in its mapping (whole_block below), the common case of a window
 * on malloc'd memory, whose first page would otherwise put every access
 * near displacement 0 on the system-call path.
 *
 * What changes for the process while a range is adopted: a fork()ed child
 * shares those pages with its parent instead of getting a copy.  Nothing
 * may access the range from another thread during shm_adopt and
 * shm_adopt_release (the copy would lose such a store). */
#ifndef ORMA_SHM_ADOPT_H
#define ORMA_SHM_ADOPT_H

#include <stddef.h>

#include "shm_seg.h"

struct shm_adopt {
    char *addr;             /* the first adopted page, or NULL: none */
    size_t len;             /* adopted bytes, a multiple of the page size */
    int around;             /* pages holding bytes outside the range were moved */
    char name[SHM_NAME_MAX];/* the segment peers open (until unlinked) */
};

/* Adopt the whole pages of [base, base + size) into a new segment named
 * name (created O_EXCL, mode 0600), if they are at least min_len bytes and
 * all of them private anonymous memory.  flags:
 *   SHM_ADOPT_WHOLE_BLOCK  when the range is a block glibc's malloc placed
 *     in a mapping of its own (a large allocation, up to its last page),
 *     that whole mapping instead, partial pages included: they hold nothing
 *     but the block, its allocator header and slack;
 *   SHM_ADOPT_AROUND  else, in a process of one thread, every page the
 *     range touches, if all of them are eligible;
 * so a->addr may be up to a page before base.  Returns
 * ORMA_SUCCESS with a->addr NULL when nothing was adopted (too small,
 * memory of another kind, or a system call refused: the range is then
 * exactly as before). */
#define SHM_ADOPT_WHOLE_BLOCK 1
#define SHM_ADOPT_AROUND 2
int shm_adopt(void *base, size_t size, const char *name, size_t min_len, int flags, struct shm_adopt *a);

/* Move the adopted pages back into private memory, same bytes, same
 * addresses, and remove the name if it is still there.  No-op when
 * nothing was adopted. */
void shm_adopt_release(struct shm_adopt *a);

#endif
