#!/bin/sh
# bench_bspbench.sh ORMA_RUN ORMA_BENCH NP
# A short orma-bench bspbench run on NP ranks (BSPlib's h-relations,
# bench/bspbench/bspbench.h): it must exit 0 (every word of every h-relation
# verified) and report the empty bsp_sync and orma fence rows, the rows of
# bsp_put and bsp_hpput at every h, the memcpy floor, the fitted BSP
# parameters and the bar line.
run=$1
bench=$2
np=$3
out=$("$run" -n "$np" -- "$bench" bspbench --quick --sizes 1,2,4,8,16,64 --reps 5)
status=$?
printf '%s\n' "$out"
if [ "$status" -ne 0 ]; then
    echo "bench_bspbench: orma-bench exited with status $status"
    exit 1
fi
has() {
    printf '%s\n' "$out" |
        grep -q "^bspbench  *$1  *$2  *$3  *$4  *$np  *$5 " || {
        echo "bench_bspbench: no row of $1 $2 $3 $4 at $5, p=$np"
        exit 1
    }
}
has bsp empty bsp_sync registered 0
has orma empty fence allocate 0
for h in 0 1 2 4 8 16 64; do
    has bsp put bsp_sync registered "$h"
    has bsp hpput bsp_sync registered "$h"
done
has floor memcpy none none 16M
for op in put hpput; do
    printf '%s\n' "$out" | grep -q "^  $op  *[0-9]*\.\.[0-9]*  *[0-9]*  *-*[0-9.]*  *-*[0-9.]* " || {
        echo "bench_bspbench: no BSP parameters of $op"
        exit 1
    }
done
printf '%s\n' "$out" | grep -q "^  bar: bsp_sync with nothing to communicate .* \(PASS\|FAIL\)$" || {
    echo "bench_bspbench: no bar line"
    exit 1
}
exit 0
