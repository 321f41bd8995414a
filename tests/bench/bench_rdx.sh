#!/bin/sh
# bench_rdx.sh ORMA_RUN ORMA_BENCH NP [VARIANT...]
# A short orma-bench rdx run on NP ranks, as a user starts it: it must exit
# 0 (every sort of every point verified: each rank's keys sorted, the rank
# boundaries ordered, the output a permutation of the input) and report the
# sequential sort's rows and orma's put and put_opt rows at both key
# counts, and the summary.  With VARIANTs (the host MPIs), the MPI
# backends run too and each of every variant must report its rows: put and
# put_opt of mpi-rma and orma-mpi, send of mpi-p2p.
run=$1
bench=$2
np=$3
shift 3
. "$(dirname "$0")/bench_lib.sh"
backends=$(bench_backends "$@")
# --quick's key counts (60K and 960K: multiples of 1 to 4); 3 samples a
# point: at 3 and 4 ranks on 2 cores an MPICH fence takes milliseconds (it
# polls without yielding), and a sort has 9 of them.
sizes="60K 960K"
bench_run bench_rdx "$np" rdx --quick --reps 3
# The rows: "rdx BACKEND OP SYNC WINDOW P BYTES ...".
has() {
    printf '%s\n' "$out" |
        grep -q "^rdx  *$1  *$2  *$3  *$4  *$5  *$6 " || {
        echo "bench_rdx: no row of $1 $2 at $6 keys, p=$5"
        exit 1
    }
}
for size in $sizes; do
    has seq sort none none 1 "$size"
    for op in put put_opt; do
        has orma "$op" fence allocate "$np" "$size"
        for v in "$@"; do
            has "mpi-rma/$v" "$op" fence allocate "$np" "$size"
            has "orma-mpi/$v" "$op" fence allocate "$np" "$size"
        done
    done
    for v in "$@"; do
        has "mpi-p2p/$v" send p2p none "$np" "$size"
    done
    printf '%s\n' "$out" | grep -q "^  rdx, n = $size keys, p = $np:" || {
        echo "bench_rdx: no summary table at $size keys"
        exit 1
    }
done
if [ $# -gt 0 ] && ! printf '%s\n' "$out" | grep -q "^  one-sided / two-sided"; then
    echo "bench_rdx: no one-sided / two-sided ratios"
    exit 1
fi
exit 0
