#!/bin/sh
# bench_multiput.sh ORMA_RUN ORMA_BENCH [VARIANT...]
# A short orma-bench multiput run: it must exit 0 (every point verified
# that the target region held the origin's pattern, all k pieces in place,
# and its guards untouched) and report a row of every k, mode and default
# window at both sizes for orma -- and, with host MPI variants named, for
# mpi-rma and orma-mpi on each of them, and mpi-p2p's send/recv (a variant
# skipped for a missing program or mpirun fails here) -- and the summary.
run=$1
bench=$2
shift 2
. "$(dirname "$0")/bench_lib.sh"
backends=$(bench_backends "$@")
bench_run bench_multiput 2 multiput --quick --sizes 64,64K --reps 5
# The rows: "multiput BACKEND OP SYNC WINDOW P BYTES ...".
has() {
    printf '%s\n' "$out" |
        grep -q "^multiput  *$1  *$2  *$3  *$4  *2  *$5 " || {
        echo "bench_multiput: no row of $1 $2+$3 on $4 at $5 bytes"
        exit 1
    }
}
for size in 64 64K; do
    for sync in fence pscw lock flush; do
        for window in allocate create; do
            for k in 1 2 4 8 16; do
                has orma "put$k" "$sync" "$window" "$size"
                for v in "$@"; do
                    has "mpi-rma/$v" "put$k" "$sync" "$window" "$size"
                    has "orma-mpi/$v" "put$k" "$sync" "$window" "$size"
                done
            done
        done
    done
    for v in "$@"; do
        has "mpi-p2p/$v" sendrecv none none "$size"
    done
done
for line in "^summary of the multiput suite" "^  pscw / allocate " \
            "^  time(put16) / time(put1), min-max"; do
    printf '%s\n' "$out" | grep -q "$line" || {
        echo "bench_multiput: no line $line"
        exit 1
    }
done
exit 0
