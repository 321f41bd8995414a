#!/bin/sh
# bench_caf.sh ORMA_RUN ORMA_BENCH NP
# A short orma-bench caf run on NP ranks (bench/caf/caf_suite.c) with
# orma's own backends (orma-caf, orma) and the MPI counterparts on
# liborma-mpi (mpi-orma/<mpi>, when built): it must exit 0 (every transfer
# verified, every Himeno residual the same, every kernel validated) and
# report orma-caf's rows: pp put, put1, get, strided and packed at every
# size and orma's put1 and get (from 2 images), Himeno XS narrow and wide,
# the four PRK kernels.
run=$1
bench=$2
np=$3
out=$("$run" -n "$np" -- "$bench" caf --quick --quiet --backends orma-caf,orma,mpi-orma)
status=$?
printf '%s\n' "$out"
if [ "$status" -ne 0 ]; then
    echo "bench_caf: orma-bench exited with status $status"
    exit 1
fi
has() {
    printf '%s\n' "$out" | grep -q "^caf  *$1  *$2  *$3  *$4  *$np  *$5 " || {
        echo "bench_caf: no $1 row of $2 $3 $4 at $5, p=$np"
        exit 1
    }
}
if printf '%s\n' "$out" | grep -q "rows are left out"; then
    echo "bench_caf: a backend's rows were left out"
    exit 1
fi
if [ "$np" -ge 2 ]; then
    for b in 8 64 512 4K 32K 128K 512K 1M; do
        has orma-caf caf_put sync_images coarray "$b"
        has orma-caf caf_put1 sync_memory coarray "$b"
        has orma-caf caf_get none coarray "$b"
        has orma-caf caf_strided sync_images section "$b"
        has orma-caf caf_strided sync_images packed "$b"
        has orma caf_put1 flush window "$b"
        has orma caf_get flush window "$b"
    done
fi
# orma's own calls over several rounds (each round's data verified anew).
if [ "$np" -ge 2 ]; then
    "$run" -n "$np" -- "$bench" caf --quiet --backends orma --op caf_put1,caf_get --reps 2 --quick >/dev/null || {
        echo "bench_caf: orma's put/get over 2 rounds failed"
        exit 1
    }
fi
has orma-caf himeno narrow XS 0
has orma-caf himeno wide XS 0
for k in stencil transpose nstream p2p; do
    has orma-caf prk_$k none kernel 0
done
