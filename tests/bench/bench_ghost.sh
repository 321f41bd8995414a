#!/bin/sh
# bench_ghost.sh ORMA_RUN ORMA_BENCH NP [VARIANT...]
# A short orma-bench ghost run on NP ranks: it must exit 0 (every batch of
# every point verified its ghost slots and guards) and report orma's
# fence, pscw, lock and notify rows at both sizes.  With VARIANTs (the host MPIs),
# the MPI backends run too, each of every variant must report its rows,
# and the summary must end with orma's bar.
run=$1
bench=$2
np=$3
shift 3
. "$(dirname "$0")/bench_lib.sh"
backends=$(bench_backends "$@")
bench_run bench_ghost "$np" ghost --quick --sizes 16,64K --reps 5
# The rows: "ghost BACKEND OP SYNC WINDOW P BYTES ...".
has() {
    printf '%s\n' "$out" |
        grep -q "^ghost  *$1  *$2  *$3  *$4  *$np  *$5 " || {
        echo "bench_ghost: no row of $1 $3 at $5 bytes, p=$np"
        exit 1
    }
}
for size in 16 64K; do
    for sync in fence pscw lock; do
        has orma put "$sync" allocate "$size"
        for v in "$@"; do
            has "mpi-rma/$v" put "$sync" allocate "$size"
            has "orma-mpi/$v" put "$sync" allocate "$size"
        done
    done
    has orma put notify allocate "$size"
    for v in "$@"; do
        has "mpi-p2p/$v" isend p2p none "$size"
    done
done
if [ $# -gt 0 ] && ! printf '%s\n' "$out" | grep -q "^  bar: orma one-sided"; then
    echo "bench_ghost: no bar line"
    exit 1
fi
exit 0
