#!/bin/sh
# orma-demo [DIR] -- orma's main job in about ten minutes on 2 cores: a
# short run (--quick) of every orma-bench suite on this machine, orma and,
# where the host MPIs' programs were built, the MPI backends side by side,
# all results appended to DIR/results.json, then orma-bench report's
# Markdown report with its plots in DIR (default: orma-demo in the current
# directory).  The build installs it as bin/orma-demo beside orma-run and
# orma-bench, which it runs.
#
# Exit status: 0 when every suite verified its data and the report was
# written; 1 otherwise (the failing step is named).
set -u
bin=$(cd "$(dirname "$0")" && pwd)
out=${1:-orma-demo}
mkdir -p "$out" || exit 1
json=$out/results.json
rm -f "$json"
backends=orma,mpi-rma,mpi-p2p,orma-mpi
status=0

# step NP SUITE [options]: one suite, its table on stdout.
step() {
    np=$1
    shift
    echo "== orma-run -n $np orma-bench $*"
    if ! "$bin/orma-run" -n "$np" -- "$bin/orma-bench" "$@" --quick --quiet \
            --json "$json"; then
        echo "orma-demo: orma-bench $1 on $np ranks failed" >&2
        status=1
    fi
}

step 2 pingpong --backends "$backends" --sizes 8,64K,1M
step 2 latency --backends "$backends" --op put --sizes 8,64K,1M \
    --window allocate,create --reps 5
step 2 multiput --backends "$backends" --sizes 64,16K,1M --reps 5
step 2 ghost --backends "$backends"
step 4 ghost --backends "$backends"
step 2 as --backends "$backends,bsp,bsp-buffered"
step 4 mult --backends "$backends,bsp"
step 2 rdx --backends "$backends,bsp"
step 2 bspbench
step 2 caf
step 4 caf --op caf_put,himeno,prk
step 2 dynamic --backends orma,mpi-rma,orma-mpi
step 2 mt --backends orma,mpi-rma,orma-mpi
step 2 notify --backends "$backends"
step 4 notify --backends "$backends"
step 2 race
step 4 race
step 2 sync
step 4 sync
step 2 overlap
step 2 atomics
step 2 ddt

echo "== orma-bench report $json --out $out"
"$bin/orma-bench" report "$json" --out "$out"
rc=$?
if [ "$rc" -eq 3 ]; then
    # No venv or no PyPI for matplotlib: the report without its plots.
    echo "orma-demo: no plots (see above); the report without them"
    "$bin/orma-bench" report "$json" --out "$out" --no-plots
    rc=$?
fi
if [ "$rc" -ne 0 ]; then
    echo "orma-demo: the report could not be written" >&2
    status=1
else
    echo "orma-demo: report in $out/report.md"
fi
exit $status
