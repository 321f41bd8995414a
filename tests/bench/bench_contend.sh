#!/bin/sh
# bench_contend.sh ORMA_RUN ORMA_BENCH
# --contend: rank 0 starts two busy loops per online CPU, every result is
# labelled, and no busy loop outlives the run -- whether it ends, its
# rank 0 is killed (SIGKILL: PR_SET_PDEATHSIG) or the launcher is
# stopped (SIGTERM, passed on to the ranks).  The benchmark runs under a
# name of its own (a symbolic link), so that the processes counted are
# this test's and no other test's.  Correctness only: nothing is timed.
run=$1
bench=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_contend.XXXXXX") || exit 1
name=obc$$
name=$(printf '%.15s' "$name")
ln -s "$bench" "$dir/$name" || exit 1
bg=
cleanup() {
    [ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "bench_contend: $*"; exit 1; }
cpus=$(getconf _NPROCESSORS_ONLN)
want=$((2 * cpus))

count() { pgrep -x "$name" | wc -l; }

# No process of this name may be left some seconds after the run ended
# (the busy loops of a killed rank die with it, as the kernel delivers).
none_left() {
    i=0
    while [ "$(count)" -ne 0 ]; do
        i=$((i + 1))
        [ $i -gt 100 ] && { pgrep -a -x "$name"; return 1; }
        sleep 0.1
    done
    return 0
}

# Waits until the busy loops run: rank 0 and the processes it forked.
# Prints rank 0's pid.
wait_loops() {
    i=0
    while :; do
        for p in $(pgrep -x "$name"); do
            n=$(pgrep -P "$p" -x "$name" | wc -l)
            if [ "$n" -eq "$want" ]; then
                echo "$p"
                return 0
            fi
        done
        i=$((i + 1))
        [ $i -gt 300 ] && return 1
        sleep 0.1
    done
}

# 1. A run that ends: every row labelled, the note names the count.
out=$("$run" -n 2 -- "$dir/$name" pingpong --contend --quiet --sizes 8 \
      --window allocate --op put --sync fence,flush --reps 20 \
      --json "$dir/r.json" --csv "$dir/r.csv") || fail "pingpong --contend failed: $out"
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q "^# --contend: $want busy-loop processes" ||
    fail "no note of $want busy loops"
rows=$(printf '%s\n' "$out" | grep -c '^pingpong ')
[ "$rows" -ge 2 ] || fail "$rows rows"
[ "$(printf '%s\n' "$out" | grep '^pingpong ' | grep -vc ' contend$')" -eq 0 ] ||
    fail "a row without the load column"
[ "$(grep -c '"load":"contend"' "$dir/r.json")" -eq "$rows" ] || fail "JSON rows unlabelled"
head -n 1 "$dir/r.csv" | grep -q ',pattern,load$' || fail "CSV header: $(head -n 1 "$dir/r.csv")"
[ "$(grep -c ',contend$' "$dir/r.csv")" -eq "$rows" ] || fail "CSV rows unlabelled"
none_left || fail "busy loops left after the run"

# An uncontended run does not append to the contended file.
if "$run" -n 2 -- "$dir/$name" sync --quick --quiet --csv "$dir/r.csv" \
    >/dev/null 2>"$dir/err"; then
    fail "an uncontended run appended to a contended CSV file"
fi
none_left || fail "processes left after the refused run"

# 2. Rank 0 killed outright while the loops run.
"$run" -n 2 -- "$dir/$name" pingpong --contend --quiet --sizes 8 \
    --window allocate --op put --reps 100000000 >/dev/null 2>&1 &
bg=$!
rank0=$(wait_loops) || fail "the busy loops never appeared"
kill -KILL "$rank0"
wait "$bg"
bg=
none_left || fail "busy loops outlived their killed rank 0"

# 3. The launcher stopped with SIGTERM.
"$run" -n 2 -- "$dir/$name" pingpong --contend --quiet --sizes 8 \
    --window allocate --op put --reps 100000000 >/dev/null 2>&1 &
bg=$!
wait_loops >/dev/null || fail "the busy loops never appeared (2nd run)"
kill -TERM "$bg"
wait "$bg"
bg=
none_left || fail "busy loops outlived the stopped launcher"
echo "bench_contend: ok"
