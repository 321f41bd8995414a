#!/bin/sh
# bench_mult.sh ORMA_RUN ORMA_BENCH NP [VARIANT...]
# A short orma-bench mult run on NP ranks.  NP a square: it must exit 0
# (every sample's C block, guards and own blocks verified on every rank)
# and report the serial row and orma's put and get rows at both --quick
# orders; with VARIANTs (the host MPIs) the MPI backends run too, each of
# every variant must report its rows (mpi-p2p: send), and the summary must
# end with orma's bar.  NP not a square: exit 0, the note that the suite
# needs a square, and no row at all.
run=$1
bench=$2
np=$3
shift 3
. "$(dirname "$0")/bench_lib.sh"
backends=$(bench_backends "$@")
bench_run bench_mult "$np" mult --quick --reps 5
case $np in
1) P=1 ;;
4) P=2 ;;
9) P=3 ;;
16) P=4 ;;
*) P=0 ;;
esac
if [ "$P" -eq 0 ]; then
    printf '%s\n' "$out" | grep -q "^# mult: needs a square number of ranks" || {
        echo "bench_mult: no note that p=$np is not a square"
        exit 1
    }
    if printf '%s\n' "$out" | grep -q "^mult "; then
        echo "bench_mult: rows at p=$np, which is not a square"
        exit 1
    fi
    exit 0
fi
# The rows: "mult BACKEND OP SYNC WINDOW P BYTES ...", BYTES the order n:
# --quick's 64 and 160, rounded up to multiples of P.
has() {
    printf '%s\n' "$out" |
        grep -q "^mult  *$1  *$2  *$3  *$4  *$5  *$6 " || {
        echo "bench_mult: no row of $1 $2 at n=$6, p=$5"
        exit 1
    }
}
for n in 64 160; do
    n=$(( (n + P - 1) / P * P ))
    has serial serial none none 1 "$n"
    for op in put get; do
        has orma "$op" fence allocate "$np" "$n"
        for v in "$@"; do
            has "mpi-rma/$v" "$op" fence allocate "$np" "$n"
            has "orma-mpi/$v" "$op" fence allocate "$np" "$n"
        done
    done
    for v in "$@"; do
        has "mpi-p2p/$v" send p2p none "$np" "$n"
    done
done
if [ $# -gt 0 ] && ! printf '%s\n' "$out" | grep -q "^  bar: orma put"; then
    echo "bench_mult: no bar line"
    exit 1
fi
exit 0
