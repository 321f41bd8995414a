#!/usr/bin/env bash
# run-libfuzzer.sh [seconds] -- fuzz the datatype engine (or the net
# transport's message handlers) with libFuzzer.
#
# Configures its own build directory with clang and ORMA_FUZZ=ON (ASan,
# UBSan, coverage), builds fuzz_dtype (fuzz_net) and runs it for the given
# seconds (default 60) over tests/fuzz/corpus (corpus-net).  New inputs go to a scratch
# directory, never into the repository; a failure prints the input's path
# and exits non-zero.  Without clang (or its libFuzzer runtime) it says so
# and exits 0.
#
# Environment: ORMA_FUZZ_BUILD (build directory, default build-libfuzzer),
# ORMA_FUZZ_SCRATCH (new inputs and crashes, default a fresh temporary
# directory), ORMA_FUZZ_SEED (a fixed seed, and then a fixed number of runs,
# ORMA_FUZZ_RUNS, instead of the time: the same inputs on every machine,
# which is what CI wants; by default a random seed for the time given),
# ORMA_FUZZ_TARGET (dtype, the default, or net).
set -euo pipefail
secs=${1:-60}
target=${ORMA_FUZZ_TARGET:-dtype}
case $target in
  dtype) corpus=corpus ;;
  net) corpus=corpus-net ;;
  *) echo "run-libfuzzer.sh: ORMA_FUZZ_TARGET is dtype or net, not $target"; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${ORMA_FUZZ_BUILD:-$root/build-libfuzzer}

if ! command -v clang >/dev/null; then
  echo "run-libfuzzer.sh: clang is not installed: libFuzzer run SKIPPED (apt-get install clang libclang-rt-14-dev)"
  exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' \
  >"$probe/probe.c"
if ! clang -fsanitize=fuzzer,address,undefined "$probe/probe.c" -o "$probe/probe" 2>"$probe/err"; then
  cat "$probe/err"
  echo "run-libfuzzer.sh: clang cannot link libFuzzer: run SKIPPED (apt-get install libclang-rt-14-dev)"
  exit 0
fi

CC=clang cmake -S "$root" -B "$build" -DORMA_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target "fuzz_$target"

scratch=${ORMA_FUZZ_SCRATCH:-$(mktemp -d /tmp/orma-fuzz.XXXXXX)}
mkdir -p "$scratch/new" "$scratch/crashes"
echo "run-libfuzzer.sh: fuzzing for ${secs}s; new inputs in $scratch/new, failures in $scratch/crashes"
if [ -n "${ORMA_FUZZ_SEED:-}" ]; then
  limit="-seed=$ORMA_FUZZ_SEED -runs=${ORMA_FUZZ_RUNS:-30000}"
  echo "run-libfuzzer.sh: seed $ORMA_FUZZ_SEED, ${ORMA_FUZZ_RUNS:-30000} runs (not timed)"
else
  limit="-max_total_time=$secs"
fi
status=0
ORMA_LOG_LEVEL=none ASAN_OPTIONS=detect_leaks=1 \
  "$build/tests/fuzz_$target" $limit -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -print_final_stats=1 -artifact_prefix="$scratch/crashes/" "$scratch/new" "$here/$corpus" || status=$?
if [ "$status" -ne 0 ] || [ -n "$(ls -A "$scratch/crashes")" ]; then
  echo "run-libfuzzer.sh: FUZZING FOUND A FAILURE (exit $status):"
  ls -l "$scratch/crashes"
  echo "reproduce: $build/tests/fuzz_$target <file>, or build/tests/fuzz_${target}_main <file>"
  exit 1
fi
echo "run-libfuzzer.sh: no failure"
