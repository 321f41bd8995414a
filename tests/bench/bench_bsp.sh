#!/bin/sh
# bench_bsp.sh ORMA_RUN ORMA_BENCH NP
# The li.h suites on BSPlib (bench/li/li_bsp.h), short runs on NP ranks as a
# user starts them: as with orma, bsp and bsp-buffered, then rdx, and mult
# when NP is a square, on bsp and bsp-buffered.  Each must exit 0 (every
# point verified its data) and report the BSPlib backends' rows; as also
# their BSP parameters and the two bars of the bsp backend.
run=$1
bench=$2
np=$3
shift 3
. "$(dirname "$0")/bench_lib.sh"
backends=orma,bsp,bsp-buffered
bench_run bench_bsp "$np" as --quick --sizes 64,256,4K,16K --reps 5
has() {
    printf '%s\n' "$out" |
        grep -q "^$1  *$2  *$3  *$4  *$5  *$np  *$6 " || {
        echo "bench_bsp: no $1 row of $2 $3 ($4) at $6, p=$np"
        exit 1
    }
}
for b in bsp bsp-buffered; do
    for op in empty barrier comp full simple scatter; do
        has as "$b" "$op" fence allocate 4
    done
    for size in 64 256 4K 16K; do
        has as "$b" xchg fence allocate "$size"
    done
    printf '%s\n' "$out" | grep -q "^  $b  *[0-9.]*  *-*[0-9.]*  *-*[0-9.]* " || {
        echo "bench_bsp: no BSP parameters of $b"
        exit 1
    }
done
for bar in "bar: bsp_sync with nothing to communicate" "bar: bsp's g for large h"; do
    printf '%s\n' "$out" | grep -q "^  $bar" || {
        echo "bench_bsp: no line '$bar'"
        exit 1
    }
done

backends=bsp,bsp-buffered
bench_run bench_bsp "$np" rdx --quick --reps 3
for b in bsp bsp-buffered; do
    for size in 60K 960K; do
        has rdx "$b" put fence allocate "$size"
        has rdx "$b" put_opt fence allocate "$size"
    done
done

case $np in
1|4)
    bench_run bench_bsp "$np" mult --quick --reps 5
    n1=64
    n2=160
    for b in bsp bsp-buffered; do
        for n in $n1 $n2; do
            has mult "$b" put fence allocate "$n"
            has mult "$b" get fence allocate "$n"
        done
    done
    ;;
esac
exit 0
