#!/bin/sh
# bench_caf.sh ORMA_RUN ORMA_BENCH NP
# A short orma-bench caf run on NP ranks (bench/caf/caf_suite.c): it must
# exit 0 (every orma-caf transfer verified, its Himeno residual consistent)
# and report orma-caf's rows: pp put and get at every size (from 2 images),
# Himeno XS narrow and wide.
run=$1
bench=$2
np=$3
out=$("$run" -n "$np" -- "$bench" caf --quick --quiet)
status=$?
printf '%s\n' "$out"
if [ "$status" -ne 0 ]; then
    echo "bench_caf: orma-bench exited with status $status"
    exit 1
fi
has() {
    printf '%s\n' "$out" | grep -q "^caf  *orma-caf  *$1  *$2  *$3  *$np  *$4 " || {
        echo "bench_caf: no orma-caf row of $1 $2 $3 at $4, p=$np"
        exit 1
    }
}
if [ "$np" -ge 2 ]; then
    for b in 8 64 512 4K 32K 128K 512K 1M; do
        has caf_put sync_images coarray "$b"
        has caf_get none coarray "$b"
    done
fi
has himeno narrow XS 0
has himeno wide XS 0
