#!/bin/sh
# bench_as.sh ORMA_RUN ORMA_BENCH NP [VARIANT...]
# A short orma-bench as run on NP ranks: it must exit 0 (every sample of
# every point verified what arrived and that nothing else in the area
# changed) and report orma's row of every test and size, the memcpy
# floor and the BSP parameters.  With VARIANTs (the host MPIs), the MPI
# backends run too, and each of every variant must report every row.
run=$1
bench=$2
np=$3
shift 3
. "$(dirname "$0")/bench_lib.sh"
backends=$(bench_backends "$@")
bench_run bench_as "$np" as --quick --sizes 64,256,4K,16K --reps 5
# The rows: "as BACKEND OP SYNC WINDOW P BYTES ...".
has() {
    printf '%s\n' "$out" |
        grep -q "^as  *$1  *$2  *$3  *$4  *$np  *$5 " || {
        echo "bench_as: no row of $1 $2 ($3) at $5 bytes, p=$np"
        exit 1
    }
}
for op in empty barrier comp full simple scatter; do
    has orma "$op" fence allocate 4
    for v in "$@"; do
        has "mpi-rma/$v" "$op" fence allocate 4
        has "orma-mpi/$v" "$op" fence allocate 4
        has "mpi-p2p/$v" "$op" p2p none 4
    done
done
for size in 64 256 4K 16K; do
    has orma xchg fence allocate "$size"
    for v in "$@"; do
        has "mpi-rma/$v" xchg fence allocate "$size"
        has "orma-mpi/$v" xchg fence allocate "$size"
        has "mpi-p2p/$v" xchg p2p none "$size"
    done
done
has floor memcpy none none 16M
# The BSP table: a fitted line (a number in g_ns/word) for every backend.
bsp() {
    printf '%s\n' "$out" |
        grep -q "^  $1  *[0-9.]*  *-*[0-9.]*  *-*[0-9.]*  *-*[0-9.]*  *-*[0-9.]* " || {
        echo "bench_as: no BSP parameters of $1"
        exit 1
    }
}
bsp orma
for v in "$@"; do
    bsp "mpi-rma/$v"
    bsp "orma-mpi/$v"
    bsp "mpi-p2p/$v"
done
exit 0
