#!/bin/sh
# caf_end.sh ORMA_RUN PROG NP CASE STATUS TEXT SECONDS
# Runs PROG CASE at NP images under orma-run and checks: the exit status is
# STATUS, stderr holds TEXT (when not empty; "!TEXT": does not hold it), the
# job took at most SECONDS, no image's process survived, and nothing of the
# job is left in /dev/shm.
set -u
run=$1 prog=$2 np=$3 case=$4 want=$5 text=$6 limit=$7
dir=$(mktemp -d /tmp/caf_end.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)
# Each image says its pid and the job's token, then becomes the program.
"$run" -n "$np" -- sh -c 'echo "$$ $ORMA_BOOT_JOB" >> "$0"; exec "$1" "$2"' \
    "$dir/up" "$prog" "$case" >"$dir/out" 2>"$dir/err"
status=$?
took=$(( $(date +%s) - start ))
fail=0
cat "$dir/out" "$dir/err"
if [ "$status" -ne "$want" ]; then
    echo "FAIL: exit status $status, expected $want"; fail=1
fi
case $text in
    '') ;;
    '!'*) if grep -qF -- "${text#!}" "$dir/err"; then echo "FAIL: stderr holds \"${text#!}\""; fail=1; fi ;;
    *) if ! grep -qF -- "$text" "$dir/err"; then echo "FAIL: stderr lacks \"$text\""; fail=1; fi ;;
esac
if [ "$took" -gt "$limit" ]; then
    echo "FAIL: took ${took}s, more than ${limit}s"; fail=1
fi
up=$(wc -l < "$dir/up")
if [ "$up" -ne "$np" ]; then
    echo "FAIL: $up of $np images started"; fail=1
fi
while read -r pid token; do
    if kill -0 "$pid" 2>/dev/null; then
        echo "FAIL: image process $pid survived the job"; kill -9 "$pid"; fail=1
    fi
    if ls /dev/shm 2>/dev/null | grep -q "^orma-$(id -u)-$token-"; then
        echo "FAIL: the job left shared-memory objects:" $(ls /dev/shm | grep "^orma-$(id -u)-$token-")
        fail=1
    fi
done < "$dir/up"
exit $fail
