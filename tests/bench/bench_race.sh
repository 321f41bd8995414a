#!/bin/sh
# bench_race.sh ORMA_RUN ORMA_BENCH NP
# A short orma-bench race run on NP ranks: it must exit 0 (every batch of
# both sides verified its data), report the rows of both sides -- orma
# (unchecked windows) and orma-race (windows made with orma_check_race) --
# of the ghost exchange's fence, pscw, lock and notify and, at 2 ranks,
# of pingpong's put and get in every mode, print the bars' lines, and
# leave no race report ("orma race: ..." on stderr): the programs are
# correct, a report would be the checker's bug.  Correctness only: no
# ratio is judged.
run=$1
bench=$2
np=$3
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
out=$("$run" -n "$np" -- "$bench" race --quick --quiet --reps 3 --sizes 16,64K 2>"$err")
st=$?
printf '%s\n' "$out"
cat "$err" >&2
if [ "$st" -ne 0 ]; then
    echo "bench_race: orma-bench exited with status $st"
    exit 1
fi
if grep -q "^orma race:" "$err"; then
    echo "bench_race: the race checker reported on a correct program:"
    grep "^orma race:" "$err" | head -5
    exit 1
fi
# The rows: "race BACKEND OP SYNC WINDOW P BYTES ...".
has() {
    printf '%s\n' "$out" | grep -q "^race  *$1  *$2  *$3  *allocate  *$np  *$4 " || {
        echo "bench_race: no row of $1 $2 $3 at $4 bytes, p=$np"
        exit 1
    }
}
line() {
    printf '%s\n' "$out" | grep -q "$1" || { echo "bench_race: no line '$1'"; exit 1; }
}
for side in orma orma-race; do
    for size in 16 64K; do
        for sync in fence pscw lock notify; do
            has "$side" ghost "$sync" "$size"
        done
        if [ "$np" -eq 2 ]; then
            for op in put get; do
                for sync in fence pscw lock lock_all flush; do
                    has "$side" "$op" "$sync" "$size"
                done
            done
        fi
    done
done
line "^  bar race ghost: "
[ "$np" -eq 2 ] && line "^  bar race pingpong put: "
line "^race cost <= 3x: "
echo "bench_race: ok"
exit 0
