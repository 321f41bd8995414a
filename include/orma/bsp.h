/*
 * orma/bsp.h -- BSPlib (Hill, McColl, Stefanescu et al., "BSPlib: The BSP
 * Programming Library", 1998) on orma: bulk-synchronous programs with
 * direct remote memory access (DRMA) and bulk-synchronous message passing
 * (BSMP).  Link with liborma-bsp (bspcc, or pkg-config orma-bsp); a program
 * written for BSPlib compiles unchanged against this header (bspcc puts its
 * directory on the include path, so #include "bsp.h" finds it) and runs
 * with orma-run -n <p> or under mpirun.
 *
 * Processes.  bsp_begin(maxprocs) starts the SPMD part with
 * min(maxprocs, available) processes, numbered 0..bsp_nprocs()-1, where
 * process 0's maxprocs holds (the others may pass anything); the job's
 * other ranks take no part and end quietly.  Either every rank calls
 * bsp_begin from main (SPMD form), or main calls bsp_init(spmd, argc, argv)
 * first and spmd calls bsp_begin: then spmd runs on every process, and
 * only process 0 returns from bsp_init to main.  bsp_end ends the SPMD part
 * (collective); process 0 returns from it, every other process exits with
 * status 0.  Before bsp_begin, bsp_nprocs() is the number of ranks
 * available.  A program that called orma_init itself before bsp_begin
 * keeps orma: bsp_end then returns on every process, and orma stays
 * initialized (orma-bench runs its BSP backend so); such a program runs
 * its SPMD part on every rank (bsp_begin with fewer is an error).  A
 * process that exits between bsp_begin and bsp_end ends the job with an
 * error.
 *
 * Supersteps.  bsp_sync ends a superstep for every process (collective).
 * When it returns:
 *   - every bsp_get of the superstep has landed, with the value its source
 *     held at the end of the superstep, before any bsp_put of it;
 *   - every bsp_put of the superstep has landed, with what its source held
 *     when bsp_put was called;
 *   - every bsp_hpput and bsp_hpget of the superstep has landed;
 *   - the messages bsp_send sent this process during the superstep are its
 *     queue, and last superstep's queue is gone;
 *   - registrations pushed during the superstep are usable, popped ones
 *     are not, and a tag size set during the superstep holds.
 *
 * Registration.  bsp_push_reg(ident, size) makes size bytes at ident a
 * registered area from the next bsp_sync on.  Every process pushes the
 * same number of registrations in the same order in a superstep: the k-th
 * push of each process names the same area (its size may differ per
 * process; a process that holds none of it pushes size 0, ident NULL or
 * not).  A DRMA call names the area by the calling process's own ident;
 * when the ident was pushed more than once, the latest registration holds.
 * bsp_pop_reg removes the latest registration of ident at the next sync
 * (puts and gets of the superstep still use it); pops, too, are collective
 * and in the same order.  A superstep holds at most 1024 pushes and 1024
 * pops (a push costs a collective window creation, tens of microseconds:
 * register once, use for many supersteps).
 *
 * DRMA.  bsp_put(pid, src, dst, offset, n): n bytes from src, read during
 * the call (src may change at once), into process pid's registered area dst
 * at byte offset, at the end of the superstep.  bsp_get(pid, src, offset,
 * dst, n): n bytes of process pid's area src from offset into dst at the
 * end of the superstep.  bsp_hpput and bsp_hpget move the bytes at once or
 * any time before the sync: src must not change, and the remote bytes
 * must not be touched by their owner, until bsp_sync.  The bytes an hp
 * operation reads or writes must not meet another access in the same
 * superstep -- a bsp_put or bsp_get of them, another hp operation, the
 * owner's loads and stores: what they then hold or return is undefined
 * (an hpput of up to 8 KB to bytes orma cannot map may travel as a
 * bsp_put does and land at the sync; others land at once).
 *
 * BSMP.  bsp_send(pid, tag, payload, n) copies a message (the tag, of the
 * superstep's tag size, and n payload bytes) during the call; it is in
 * pid's queue after the sync.  bsp_qsize, bsp_get_tag, bsp_move and
 * bsp_hpmove read the queue in order; bsp_hpmove's pointers stay valid
 * until the next bsp_sync.  bsp_set_tagsize(&n) sets the tag size from the
 * next sync on (every process, the same n) and returns the current one in
 * n.  The tag size starts at 0.
 *
 * Errors.  A call with bad arguments -- a pid out of range, a negative
 * size or offset, an ident that is not registered, bytes outside the
 * target's registered area, registrations or tag sizes that differ between
 * processes, a move from an empty queue -- prints one line naming the
 * process, the call and the problem on stderr, and ends every process with
 * a non-zero status, as bsp_abort does.  bsp_abort(format, ...) prints its
 * message (printf-style) and ends every process.
 */
#ifndef ORMA_BSP_H
#define ORMA_BSP_H

#ifdef __cplusplus
extern "C" {
#endif

void bsp_init(void (*spmd)(void), int argc, char **argv);
void bsp_begin(int maxprocs);
void bsp_end(void);
void bsp_abort(const char *format, ...) __attribute__((format(printf, 1, 2), noreturn));

int bsp_nprocs(void);
int bsp_pid(void);
double bsp_time(void);
void bsp_sync(void);

void bsp_push_reg(const void *ident, int size);
void bsp_pop_reg(const void *ident);
void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes);
void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes);

void bsp_set_tagsize(int *tag_nbytes);
void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes);
void bsp_qsize(int *nmessages, int *accum_nbytes);
void bsp_get_tag(int *status, void *tag);
void bsp_move(void *payload, int reception_nbytes);
int bsp_hpmove(void **tag_ptr, void **payload_ptr);

#ifdef __cplusplus
}
#endif

#endif
