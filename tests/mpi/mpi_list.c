/* mpi_list.c -- a distributed linked list in a dynamic window, as MPI
 * programs build one: every rank appends its elements, each one allocated
 * with MPI_Alloc_mem (or malloc'd, every other one) and attached on its
 * own -- hundreds of regions per rank -- to the one list, in turns, each
 * rank reading the others' links as they are written.  A link is a 16-byte {rank, displacement}, written with
 * MPI_Accumulate(MPI_REPLACE) and read with MPI_Get_accumulate(MPI_NO_OP)
 * as MPI_BYTEs: MPI promises atomicity per byte only, but MPI libraries
 * give it per call and such programs rely on it (a torn link points to a
 * rank or an address that does not exist).  In the end rank 0 walks the
 * list and finds every element exactly once, each rank's in order. */
#include "mpi_test.h"

#include <stddef.h>
#include <stdint.h>

#define PER_RANK 150

struct link {
    int rank;
    MPI_Aint disp;
};

struct elem {
    int value;
    struct link next;
};

static const struct link nil = {-1, 0};

static struct elem *mine[PER_RANK];

static MPI_Aint new_elem(MPI_Win win, int i, int value)
{
    struct elem *e;
    if (i % 2)
        e = malloc(sizeof *e);
    else
        MPI_Alloc_mem(sizeof *e, MPI_INFO_NULL, &e);
    if (!e)
        fail("out of memory");
    e->value = value;
    e->next = nil;
    MPI_Win_attach(win, e, sizeof *e);
    mine[i] = e;
    MPI_Aint a;
    MPI_Get_address(e, &a);
    return a;
}

static MPI_Aint next_of(struct link l)
{
    return MPI_Aint_add(l.disp, offsetof(struct elem, next));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    struct link head = {0, 0};
    if (rank == 0) /* the head, of no value */
        head.disp = new_elem(win, 0, -1);
    MPI_Bcast(&head.disp, 1, MPI_AINT, 0, MPI_COMM_WORLD);
    struct link tail = head;
    int left = (rank + size - 1) % size;
    MPI_Win_lock_all(0, win);
    for (int i = rank == 0; i < PER_RANK; i++) {
        struct link me = {rank, new_elem(win, i, rank * 100000 + i)};
        for (;;) {
            if (tail.rank == left) { /* our turn: link me in (the others read it meanwhile) */
                MPI_Accumulate(&me, sizeof me, MPI_BYTE, tail.rank, next_of(tail), sizeof me, MPI_BYTE,
                               MPI_REPLACE, win);
                MPI_Win_flush(tail.rank, win);
                tail = me;
                break;
            }
            struct link seen; /* chase the tail */
            MPI_Get_accumulate(NULL, 0, MPI_BYTE, &seen, sizeof seen, MPI_BYTE, tail.rank, next_of(tail),
                               sizeof seen, MPI_BYTE, MPI_NO_OP, win);
            MPI_Win_flush(tail.rank, win);
            if (seen.rank < -1 || seen.rank >= size || (seen.rank >= 0 && seen.disp == 0))
                fail("read a torn link: {%d, 0x%llx}", seen.rank, (unsigned long long)seen.disp);
            if (seen.rank >= 0)
                tail = seen;
        }
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 0) { /* walk it: every element once, each rank's in order */
        int count = 0, last[64];
        for (int r = 0; r < size && r < 64; r++)
            last[r] = -1;
        struct link at = head;
        MPI_Win_lock_all(0, win);
        for (;;) {
            struct elem e;
            MPI_Get(&e, sizeof e, MPI_BYTE, at.rank, at.disp, sizeof e, MPI_BYTE, win);
            MPI_Win_flush(at.rank, win);
            if (count > 0) {
                int r = e.value / 100000, i = e.value % 100000;
                if (r != at.rank || r >= size || i <= last[r])
                    fail("element %d of the list: value %d at rank %d after %d", count, e.value, at.rank, last[r]);
                last[r] = i;
            }
            count++;
            if (e.next.rank == nil.rank)
                break;
            at = e.next;
        }
        MPI_Win_unlock_all(win);
        expect("elements in the list", 0, count, (long long)size * PER_RANK);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < PER_RANK; i++) {
        MPI_Win_detach(win, mine[i]);
        if (i % 2)
            free(mine[i]);
        else
            MPI_Free_mem(mine[i]);
    }
    MPI_Win_free(&win);
    if (rank == 0)
        printf("mpi_list: %d ranks, %d elements each: OK\n", size, PER_RANK);
    mt_finalize();
    return 0;
}
