/* bsp_pop_hp.c -- direct hp operations in the superstep right after the
 * pop of a large area that overlaps the target area.
 *
 * The owner (a different process each round) registers a large malloc'd
 * area O (32 MB: orma maps its whole pages into the other processes), in
 * the next superstep an area I inside it (from byte 100 to 8 KB before
 * O's end), and in the next pops O.  In the superstep right after that
 * sync the other processes bsp_hpput into all of I on the owner, chunk by
 * chunk (a chunk of 4 KB of I: an 8-byte header that names the round and
 * the chunk, then 4088 bytes of the round's body), starting at once; the
 * owner does nothing meanwhile.  After the next sync every byte of I must
 * hold what was put, and O's bytes outside I their value from before.
 * Then I is popped and O freed. */
#include "bsp_test.h"

#include <stdint.h>

enum { MB = 1 << 20, OSIZE = 32 * MB, IOFF = 100, ITAIL = 8192, CHUNK = 4096, HEAD = 8, ROUNDS = 4 };

static int p, me;

#define ILEN ((size_t)OSIZE - IOFF - ITAIL)
#define NCHUNK ((ILEN + CHUNK - 1) / CHUNK)

/* chunk j's header in round r */
static uint64_t header(int r, size_t j)
{
    return ((uint64_t)bt_seed(BT_DATA, r, -1, -1, 0) << 32 | (uint64_t)j) ^ 0x5bd1e9955bd1e995ULL;
}

/* chunk j of I: bytes [j * CHUNK, min((j + 1) * CHUNK, ILEN)) */
static size_t chunk_len(size_t j)
{
    size_t end = (j + 1) * CHUNK;
    return (end > ILEN ? ILEN : end) - j * CHUNK;
}

static void round_with_owner(int r, int owner, unsigned char *body, uint64_t *heads)
{
    int mine = me == owner;
    static char none_o, none_i; /* the others' idents, size 0 */
    unsigned char *o = NULL;
    if (mine) {
        o = bt_alloc(OSIZE);
        memset(o, 0x3c, OSIZE);
    }
    void *o_ident = mine ? (void *)o : (void *)&none_o;
    void *i_ident = mine ? (void *)(o + IOFF) : (void *)&none_i;
    bsp_push_reg(o_ident, mine ? OSIZE : 0);
    bsp_sync();
    bsp_push_reg(i_ident, mine ? (int)ILEN : 0);
    bsp_sync();
    bsp_pop_reg(o_ident);
    /* the sources: read by the hpputs until the next sync */
    bt_fill(body, CHUNK - HEAD, bt_seed(BT_DATA, r, -1, -1, 1), 0);
    for (size_t j = 0; j < NCHUNK; j++)
        heads[j] = header(r, j);
    bsp_sync(); /* O is popped here */

    if (!mine) {
        /* the others split the chunks between them */
        int k = me < owner ? me : me - 1, nk = p - 1;
        for (size_t j = (size_t)k; j < NCHUNK; j += (size_t)nk) {
            size_t len = chunk_len(j), off = j * CHUNK;
            bsp_hpput(owner, &heads[j], i_ident, (int)off, HEAD);
            bsp_hpput(owner, body, i_ident, (int)(off + HEAD), (int)(len - HEAD));
        }
    }
    bsp_sync();

    if (mine) {
        unsigned char *in = o + IOFF;
        for (size_t j = 0; j < NCHUNK; j++) {
            size_t len = chunk_len(j), off = j * CHUNK;
            uint64_t h;
            memcpy(&h, in + off, HEAD);
            if (h != header(r, j) || memcmp(in + off + HEAD, body, len - HEAD)) {
                size_t bad = 0;
                for (size_t c = j; c < NCHUNK; c++) {
                    memcpy(&h, in + c * CHUNK, HEAD);
                    bad += h != header(r, c) || memcmp(in + c * CHUNK + HEAD, body, chunk_len(c) - HEAD);
                }
                fprintf(stderr, "bsp process %d: round %d: chunk %zu of I (byte %zu of O) lacks its hpputs; "
                        "%zu of %zu chunks differ\n", me, r, j, IOFF + off, bad, (size_t)NCHUNK);
                exit(1);
            }
        }
        for (size_t i = 0; i < IOFF; i++)
            CHECK(o[i] == 0x3c);
        for (size_t i = IOFF + ILEN; i < OSIZE; i++)
            CHECK(o[i] == 0x3c);
    }
    bsp_pop_reg(i_ident);
    bsp_sync();
    free(o);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    bt_pid = me = bsp_pid();
    p = bsp_nprocs();
    if (p < 2) {
        bsp_end();
        return 0; /* nobody to hpput */
    }
    unsigned char *body = bt_alloc(CHUNK);
    uint64_t *heads = bt_alloc(NCHUNK * sizeof *heads);
    for (int r = 0; r < ROUNDS; r++)
        round_with_owner(r, (r + 1) % p, body, heads);
    free(heads);
    free(body);
    bsp_end();
    return 0;
}
