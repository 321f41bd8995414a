/* adopt.c -- windows on private memory whose whole pages orma adopts
 * (src/shm/shm_adopt.h): a create window and a dynamic region on malloc'd
 * memory that starts and ends inside a page, so every access kind meets
 * the three parts -- the private head page fragment, the adopted pages,
 * the private tail fragment -- and the edges between them.
 *
 * Checked: the contents survive the adoption and its undoing; puts, gets
 * and accumulates at every part and across both edges arrive exactly, from
 * every rank at once; the bytes of the allocation outside the window never
 * change; fetch_and_op counters on each part are exact while whole-range
 * accumulates run over them (hardware atomics on the adopted pages against
 * plain updates under stripe locks); and, by /proc/self/maps, the pages are
 * shared while the window lives and private again after it is freed (or,
 * with ORMA_ADOPT=0 or one rank, never shared).  A process of one thread
 * (ORMA_ADOPT=2, the default) has the partial pages of a create window
 * adopted too, the bytes around the window in them included: they must
 * come back unchanged.  Then two windows of a few bytes on one malloc'd
 * block (one page): the first takes the page, the second finds it shared
 * and stays private; both work, in both orders of freeing.  Last, a large
 * malloc'd block alone in its mapping: adopted whole, end pages included,
 * the same transfers and counters, and glibc's header intact after. */
#include "../common/check.h"

#include <malloc.h>
#include <stdint.h>
#include <unistd.h>

/* Whether malloc is glibc's (sanitizers bring their own), as in
 * src/shm/shm_adopt.c. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define OTHER_MALLOC 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OTHER_MALLOC 1
#endif
#if defined(__GLIBC__) && UINTPTR_MAX == UINT64_MAX && !defined(OTHER_MALLOC)
#define GLIBC_MALLOC 1
#else
#define GLIBC_MALLOC 0
#endif

enum { GUARD = 40, ROUNDS = 200, GUARD_BYTE = 0x5a };

static size_t page;
static int level; /* ORMA_ADOPT */

/* The threads of this process (/proc/self/stat), as orma counts them. */
static long threads_now(void)
{
    FILE *f = fopen("/proc/self/stat", "r");
    CHECK(f);
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    long t = 0;
    CHECK(p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %ld", &t) == 1);
    return t;
}

/* Whether a create window made now takes its partial pages too. */
static int around_now(int adopting)
{
    return adopting && level >= 2 && threads_now() == 1;
}

/* 1 when the page at p is in a shared mapping ("rw-s") of this process. */
static int page_shared(const void *p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f);
    char line[512];
    int shared = -1;
    uintptr_t a = (uintptr_t)p;
    while (shared < 0 && fgets(line, sizeof line, f)) {
        unsigned long s, e;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &s, &e, perms) == 3 && a >= s && a < e)
            shared = perms[3] == 's';
    }
    fclose(f);
    CHECK(shared >= 0);
    return shared;
}

static unsigned char pattern(int rank, size_t i, int round) { return (unsigned char)(rank * 71 + i * 13 + round * 7 + 1); }

/* A window of size bytes at least GUARD bytes into a malloc'd block,
 * placed so that it starts and ends at least FRAG bytes inside a page
 * (malloc places blocks as it likes: beside an MPI library, not alike on
 * every rank); the block's bytes outside it hold GUARD_BYTE. */
enum { FRAG = 128, SLACK = 512 };
static unsigned char *block_new(size_t size, unsigned char **win_p)
{
    unsigned char *raw = malloc(size + 2 * GUARD + SLACK);
    CHECK(raw);
    memset(raw, GUARD_BYTE, size + 2 * GUARD + SLACK);
    unsigned char *mem = raw + GUARD;
    for (size_t at = 0; at <= SLACK; at += 8, mem = raw + GUARD + at) {
        size_t head = (page - (uintptr_t)mem % page) % page, tail = ((uintptr_t)mem + size) % page;
        if (head >= FRAG && tail >= FRAG)
            break;
    }
    CHECK(mem <= raw + GUARD + SLACK);
    *win_p = mem;
    return raw;
}

static void guards_check(const unsigned char *raw, const unsigned char *mem, size_t size)
{
    for (const unsigned char *b = raw; b < mem; b++)
        CHECK(*b == GUARD_BYTE);
    for (const unsigned char *b = mem + size; b < raw + size + 2 * GUARD + SLACK; b++)
        CHECK(*b == GUARD_BYTE);
}

/* The offsets of the first and last page edge inside [mem, mem + size):
 * the adopted pages are [*l_p, *h_p). */
static void edges(const unsigned char *mem, size_t size, size_t *l_p, size_t *h_p)
{
    uintptr_t b = (uintptr_t)mem, lo = (b + page - 1) & ~(page - 1), hi = (b + size) & ~(page - 1);
    *l_p = lo - b;
    *h_p = hi - b;
}

/* The pieces every rank puts into its right neighbour: the head fragment,
 * across the first page edge, inside the adopted pages, across the last
 * edge, the tail fragment. */
struct piece {
    size_t off, len;
};

static int pieces(const unsigned char *win, size_t size, struct piece *p)
{
    size_t l, h;
    edges(win, size, &l, &h);
    int n = 0;
    p[n++] = (struct piece){0, 24};
    p[n++] = (struct piece){l - 100, 300};
    p[n++] = (struct piece){l + 1000, 2000};
    p[n++] = (struct piece){h - 64, 128};
    p[n++] = (struct piece){size - 24, 24};
    return n;
}

/* Where the counters of a window at mem go: aligned uint64s in the head
 * fragment and on both sides of each edge (at), and the aligned words of
 * the whole window (first, words). */
static void counters(const unsigned char *mem, size_t size, size_t at[5], size_t *first_p, size_t *words_p)
{
    size_t l, h, first = (8 - (uintptr_t)mem % 8) % 8; /* the first aligned word */
    edges(mem, size, &l, &h);
    size_t a[5] = {first, l - 8, l, h - 8, h};
    memcpy(at, a, sizeof a);
    *first_p = first;
    *words_p = (size - first) / 8;
}

/* Every rank's k words: all[r * k + i] is rank r's mine[i] (through a
 * shared window: the ranks of these tests share a node). */
static void share(const orma_aint *mine, int k, orma_aint *all)
{
    orma_win w;
    orma_aint *slot;
    CHECK_OK(orma_win_allocate_shared((size_t)k * sizeof *slot, sizeof *slot, ORMA_INFO_NULL, (void **)&slot, &w));
    memcpy(slot, mine, (size_t)k * sizeof *slot);
    CHECK_OK(orma_barrier());
    for (int r = 0; r < orma_size(); r++) {
        size_t sz;
        int du;
        orma_aint *peer;
        CHECK_OK(orma_win_shared_query(w, r, &sz, &du, (void **)&peer));
        memcpy(all + (size_t)r * (size_t)k, peer, (size_t)k * sizeof *peer);
    }
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_free(&w));
}

/* Every rank puts its pattern into its right neighbour's pieces, gets them
 * back, and checks its own window whole: pieces from its left neighbour,
 * the rest as it was (its own pattern of round -1). */
static void transfers(orma_win win, unsigned char *mem, size_t size, orma_aint disp0, int dynamic)
{
    int rank = orma_rank(), n = orma_size(), right = (rank + 1) % n, left = (rank + n - 1) % n;
    struct piece p[5], pr[5];
    int np = pieces(mem, size, p);
    orma_aint *disps = malloc((size_t)n * sizeof *disps), *addrs = malloc((size_t)n * sizeof *addrs);
    CHECK(disps && addrs);
    disps[rank] = disp0;
    /* Each rank learns its right neighbour's displacement 0 (the address
     * for a dynamic window) and where its window lies in its pages (for its
     * pieces: malloc need not place every rank's block alike). */
    const orma_aint mine[2] = {disp0, (orma_aint)(uintptr_t)mem};
    orma_aint *both = malloc(2 * (size_t)n * sizeof *both);
    CHECK(both);
    share(mine, 2, both);
    for (int r = 0; r < n; r++) {
        disps[r] = both[2 * r];
        addrs[r] = both[2 * r + 1];
    }
    free(both);
    CHECK(pieces((const unsigned char *)(uintptr_t)addrs[right], size, pr) == np);

    unsigned char *src = malloc(size), *back = malloc(size);
    CHECK(src && back);
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < size; i++)
            src[i] = pattern(rank, i, round);
        CHECK_OK(orma_win_lock_all(0, win));
        for (int k = 0; k < np; k++)
            CHECK_OK(orma_put(src + pr[k].off, pr[k].len, ORMA_BYTE, right, disps[right] + (orma_aint)pr[k].off,
                              pr[k].len, ORMA_BYTE, win));
        CHECK_OK(orma_win_flush_all(win));
        CHECK_OK(orma_win_unlock_all(win));
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_sync(win));
        /* My window: the left neighbour's pattern in the pieces, mine of
         * round -1 elsewhere (nobody else writes it). */
        for (size_t i = 0; i < size; i++) {
            int in = 0;
            for (int k = 0; k < np; k++)
                in |= i >= p[k].off && i < p[k].off + p[k].len;
            unsigned char want = in ? pattern(left, i, round) : pattern(rank, i, -1);
            if (mem[i] != want) {
                fprintf(stderr, "rank %d: %s window byte %zu (page offset %zu) is %u, expected %u\n", rank,
                        dynamic ? "dynamic" : "create", i, (size_t)(((uintptr_t)mem + i) % page), mem[i], want);
                exit(1);
            }
        }
        CHECK_OK(orma_barrier());
        /* And read back what I put. */
        memset(back, 0, size);
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, right, 0, win));
        for (int k = 0; k < np; k++)
            CHECK_OK(orma_get(back + pr[k].off, pr[k].len, ORMA_BYTE, right, disps[right] + (orma_aint)pr[k].off,
                              pr[k].len, ORMA_BYTE, win));
        CHECK_OK(orma_win_unlock(right, win));
        for (int k = 0; k < np; k++)
            CHECK(memcmp(back + pr[k].off, src + pr[k].off, pr[k].len) == 0);
        CHECK_OK(orma_barrier());
    }

    /* The whole window at once: over both edges and more than
     * RMA_PART_SPLIT_MIN bytes of adopted pages, which a put or get copies
     * directly between system calls for the fragments. */
    for (size_t i = 0; i < size; i++)
        src[i] = pattern(rank, i, 3);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, right, 0, win));
    CHECK_OK(orma_put(src, size, ORMA_BYTE, right, disps[right], size, ORMA_BYTE, win));
    CHECK_OK(orma_win_unlock(right, win));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_sync(win));
    for (size_t i = 0; i < size; i++)
        if (mem[i] != pattern(left, i, 3)) {
            fprintf(stderr, "rank %d: whole put: byte %zu is %u, expected %u\n", rank, i, mem[i], pattern(left, i, 3));
            exit(1);
        }
    CHECK_OK(orma_barrier());
    memset(back, 0, size);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, right, 0, win));
    CHECK_OK(orma_get(back, size, ORMA_BYTE, right, disps[right], size, ORMA_BYTE, win));
    CHECK_OK(orma_win_unlock(right, win));
    CHECK(memcmp(back, src, size) == 0);
    CHECK_OK(orma_barrier());

    /* Counters: aligned uint64s on both sides of each edge and in the
     * head fragment, bumped by every rank at every rank, while whole-range
     * SUMs of zeros (plain updates under the stripe locks, across both
     * edges) run over them. */
    enum { NC = 5 };
    size_t at[NC], first, words, tat[NC], tfirst, twords;
    counters(mem, size, at, &first, &words);
    for (int k = 0; k < NC; k++)
        memset(mem + at[k], 0, 8);
    uint64_t *zeros = calloc(words + 1, 8);
    CHECK(zeros);
    CHECK_OK(orma_barrier());
    uint64_t one = 1, old;
    CHECK_OK(orma_win_lock_all(0, win));
    for (int round = 0; round < ROUNDS; round++) {
        for (int t = 0; t < n; t++) {
            counters((const unsigned char *)(uintptr_t)addrs[t], size, tat, &tfirst, &twords);
            for (int k = 0; k < NC; k++)
                CHECK_OK(orma_fetch_and_op(&one, &old, ORMA_UINT64, t, disps[t] + (orma_aint)tat[k], ORMA_SUM,
                                           win));
            CHECK_OK(orma_accumulate(zeros, twords, ORMA_UINT64, t, disps[t] + (orma_aint)tfirst, twords,
                                     ORMA_UINT64, ORMA_SUM, win));
        }
    }
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_sync(win));
    for (int k = 0; k < NC; k++) {
        uint64_t v;
        memcpy(&v, mem + at[k], 8);
        if (v != (uint64_t)n * ROUNDS) {
            fprintf(stderr, "rank %d: counter %d (byte %zu) is %llu, expected %llu\n", rank, k, at[k],
                    (unsigned long long)v, (unsigned long long)n * ROUNDS);
            exit(1);
        }
    }
    CHECK_OK(orma_barrier());
    free(zeros);
    free(src);
    free(back);
    free(disps);
    free(addrs);
}

/* Fill with round -1's pattern; after the window exists, the pages must be
 * shared exactly when orma adopts (more than one rank, ORMA_ADOPT not 0),
 * and hold the same bytes. */
static void fill(unsigned char *mem, size_t size)
{
    for (size_t i = 0; i < size; i++)
        mem[i] = pattern(orma_rank(), i, -1);
}

/* The window still holds round -1's pattern. */
static void expect_filled(const unsigned char *mem, size_t size)
{
    for (size_t i = 0; i < size; i++)
        CHECK(mem[i] == pattern(orma_rank(), i, -1));
}

static void expect_adopted(const unsigned char *mem, size_t size, int adopting, int around)
{
    uintptr_t b = (uintptr_t)mem, lo = (b + page - 1) & ~(page - 1), hi = (b + size) & ~(page - 1);
    CHECK(page_shared((void *)lo) == adopting);
    CHECK(page_shared((void *)(hi - 1)) == adopting);
    CHECK(page_shared((void *)(lo - 1)) == around); /* the head page: private unless taken around */
    CHECK(page_shared((void *)hi) == around);      /* and the tail page */
}

/* Whether flag holds on every rank. */
static int on_every_rank(int flag)
{
    int n = orma_size(), all = 1;
    const orma_aint mine = flag;
    orma_aint *flags = malloc((size_t)n * sizeof *flags);
    CHECK(flags);
    share(&mine, 1, flags);
    for (int r = 0; r < n; r++)
        all &= flags[r] != 0;
    free(flags);
    return all;
}

/* Two windows of a few bytes on one block of 256 (a page, unless the block
 * crosses one): a of 16 bytes at 40, b of 24 at 120.  a takes the page
 * when around applies; b then finds it shared and stays private (its
 * peers reach it by system calls or boxes).  Every rank counts in a's
 * first word and puts its pattern into its right neighbour's b, in
 * passive and fence epochs, and reads it back; a's second word and every
 * byte of the block outside the windows stay as they were; freed in
 * either order, the page is private again. */
static void small_windows(int adopting, int b_first)
{
    int rank = orma_rank(), n = orma_size(), right = (rank + 1) % n, left = (rank + n - 1) % n;
    unsigned char *raw = malloc(256);
    CHECK(raw);
    memset(raw, GUARD_BYTE, 256);
    unsigned char *a = raw + 40, *b = raw + 120;
    int around = around_now(adopting);
    memset(a, 0, 16);
    orma_win wa, wb;
    CHECK_OK(orma_win_create(a, 16, 1, ORMA_INFO_NULL, &wa));
    CHECK_OK(orma_win_create(b, 24, 1, ORMA_INFO_NULL, &wb));
    CHECK(page_shared(a) == around);
    if ((uintptr_t)a / page == (uintptr_t)b / page)
        CHECK(page_shared(b) == around); /* a's page, whoever took it */
    uint64_t one = 1, old;
    CHECK_OK(orma_win_lock_all(0, wa));
    for (int round = 0; round < ROUNDS; round++)
        for (int t = 0; t < n; t++)
            CHECK_OK(orma_fetch_and_op(&one, &old, ORMA_UINT64, t, 0, ORMA_SUM, wa));
    CHECK_OK(orma_win_unlock_all(wa));
    unsigned char src[24], back[24];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 24; i++)
            src[i] = pattern(rank, (size_t)i, round);
        if (round == 0) {
            CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, right, 0, wb));
            CHECK_OK(orma_put(src, 24, ORMA_BYTE, right, 0, 24, ORMA_BYTE, wb));
            CHECK_OK(orma_win_unlock(right, wb));
            CHECK_OK(orma_barrier());
            CHECK_OK(orma_win_sync(wb));
        } else {
            CHECK_OK(orma_win_fence(0, wb));
            CHECK_OK(orma_put(src, 24, ORMA_BYTE, right, 0, 24, ORMA_BYTE, wb));
            CHECK_OK(orma_win_fence(0, wb));
        }
        for (int i = 0; i < 24; i++)
            CHECK(b[i] == pattern(left, (size_t)i, round));
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, right, 0, wb));
        CHECK_OK(orma_get(back, 24, ORMA_BYTE, right, 0, 24, ORMA_BYTE, wb));
        CHECK_OK(orma_win_unlock(right, wb));
        CHECK(memcmp(back, src, 24) == 0);
        CHECK_OK(orma_barrier());
    }
    uint64_t words[2];
    memcpy(words, a, 16);
    CHECK(words[0] == (uint64_t)n * ROUNDS && words[1] == 0);
    for (int i = 0; i < 256; i++)
        CHECK((raw + i >= a && raw + i < a + 16) || (raw + i >= b && raw + i < b + 24) || raw[i] == GUARD_BYTE);
    CHECK_OK(orma_win_free(b_first ? &wb : &wa));
    CHECK_OK(orma_win_free(b_first ? &wa : &wb));
    CHECK(!page_shared(a) && !page_shared(b));
    memcpy(words, a, 16);
    CHECK(words[0] == (uint64_t)n * ROUNDS && words[1] == 0);
    for (int i = 0; i < 24; i++)
        CHECK(b[i] == pattern(left, (size_t)i, 1));
    for (int i = 0; i < 256; i++)
        CHECK((raw + i >= a && raw + i < a + 16) || (raw + i >= b && raw + i < b + 24) || raw[i] == GUARD_BYTE);
    free(raw);
}

/* Whether raw is a block glibc's malloc placed in a mapping of its own:
 * 16 bytes into a page, after a chunk header whose IS_MMAPPED bit (2) is
 * set and prev_size 0.  A block of the heap may start 16 bytes into a page
 * too (beside an MPI library's allocations, one in 256); orma declines to
 * take the end pages of that one, and so must this test. */
static int mapped_alone(uintptr_t raw) /* an address: nothing of the block is read but its header */
{
#if GLIBC_MALLOC
    if (raw % page != 16)
        return 0;
    uint64_t prev, head;
    memcpy(&prev, (const void *)(raw - 16), 8); /* on raw's own page */
    memcpy(&head, (const void *)(raw - 8), 8);
    return prev == 0 && (head & 7) == 2;
#else
    (void)raw;
    return 0;
#endif
}

/* A large block of glibc's malloc lies alone in a mapping of its own, 16
 * bytes in: then orma adopts its partial end pages too, and the whole
 * window is mapped (shm_adopt.h, whole_block). */
static void big_block(int adopting)
{
    size_t size = 66 * page + 100;
    unsigned char *raw = malloc(size);
    CHECK(raw);
    int alone = on_every_rank(mapped_alone((uintptr_t)raw)); /* every window alike */
    /* M_MMAP_THRESHOLD is below size (main), so glibc maps it -- unless a
     * free chunk of the heap is large enough, as beside an MPI library
     * that freed its buffers (started by mpirun, either path is taken). */
    if (GLIBC_MALLOC && !getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE"))
        CHECK(alone);
    uint64_t head[2] = {0, 0};
    if (alone)
        memcpy(head, (const void *)((uintptr_t)raw - 16), 16); /* glibc's chunk header */
    /* Another allocator (the sanitizers'), or another rank's block not
     * alone: a window 200 bytes into a page
     * and ending 200 bytes before one, so that transfers() finds both end
     * fragments as in main. */
    unsigned char *mem = alone ? raw : raw + (page + 200 - (uintptr_t)raw % page) % page;
    size_t wsize = alone ? size : 64 * page - 400;
    fill(mem, wsize);
    orma_win win;
    CHECK_OK(orma_win_create(mem, wsize, 1, ORMA_INFO_NULL, &win));
    if (alone) {
        CHECK(page_shared(mem) == adopting); /* the head page, displacement 0 */
        CHECK(page_shared(mem + wsize - 1) == adopting);
    } else {
        expect_adopted(mem, wsize, adopting, around_now(adopting));
    }
    expect_filled(mem, wsize);
    transfers(win, mem, wsize, 0, 0);
    fill(mem, wsize);
    CHECK_OK(orma_win_free(&win));
    CHECK(!page_shared(mem));
    CHECK(!page_shared(mem + wsize - 1));
    expect_filled(mem, wsize);
    if (alone) { /* the allocator's header moved and back, intact */
        uint64_t after[2];
        memcpy(after, (const void *)((uintptr_t)raw - 16), 16);
        CHECK(after[0] == head[0] && after[1] == head[1]);
    }
    free(raw);
}

int main(int argc, char **argv)
{
    CHECK_OK(orma_init(&argc, &argv));
    page = (size_t)sysconf(_SC_PAGESIZE);
#if GLIBC_MALLOC
    /* A fixed threshold: glibc raises its own after a large block is freed. */
    CHECK(mallopt(M_MMAP_THRESHOLD, 128 * 1024) == 1);
#endif
    const char *env = getenv("ORMA_ADOPT");
    level = env ? atoi(env) : 2;
    int adopting = orma_size() > 1 && level != 0;
    size_t size = 5 * page + 200;

    /* create */
    unsigned char *mem, *raw = block_new(size, &mem);
    fill(mem, size);
    orma_win win;
    int around = around_now(adopting);
    CHECK_OK(orma_win_create(mem, size, 1, ORMA_INFO_NULL, &win));
    expect_adopted(mem, size, adopting, around);
    expect_filled(mem, size);
    guards_check(raw, mem, size); /* the bytes around it, moved with it */
    transfers(win, mem, size, 0, 0);
    guards_check(raw, mem, size);
    fill(mem, size);
    CHECK_OK(orma_win_free(&win));
    expect_adopted(mem, size, 0, 0);
    expect_filled(mem, size); /* moved back intact */
    guards_check(raw, mem, size);
    free(raw);

    /* dynamic: the same on an attached region */
    raw = block_new(size, &mem);
    fill(mem, size);
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &win));
    CHECK_OK(orma_win_attach(win, mem, size));
    expect_adopted(mem, size, adopting, 0); /* attach: whole pages only */
    transfers(win, mem, size, (orma_aint)(uintptr_t)mem, 1);
    fill(mem, size);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_detach(win, mem));
    expect_adopted(mem, size, 0, 0);
    expect_filled(mem, size);
    CHECK_OK(orma_win_free(&win));
    guards_check(raw, mem, size);
    free(raw);

    small_windows(adopting, 0);
    small_windows(adopting, 1);
    big_block(adopting);

    printf("rank %d: adopt ok (%s)\n", orma_rank(), adopting ? "adopted" : "private");
    CHECK_OK(orma_finalize());
    return 0;
}
