#!/bin/sh
# bench_csv.sh ORMA_RUN ORMA_BENCH
# --csv: a header line, then one row per result with the fields and values
# of the --json line of the same result; a second run appends its rows
# without a second header; a file that begins with another header is left
# alone (exit status 1).
run=$1
bench=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_csv.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "bench_csv: $*"; exit 1; }

"$run" -n 2 -- "$bench" sync --quick --quiet --json "$dir/r.json" \
    --csv "$dir/r.csv" >/dev/null || fail "sync --csv --json failed"
header='suite,backend,op,sync,window,p,bytes,reps,min_us,median_us,max_us,mbps,pattern'
[ "$(head -n 1 "$dir/r.csv")" = "$header" ] || fail "first line: $(head -n 1 "$dir/r.csv")"
rows=$(wc -l < "$dir/r.json")
[ "$rows" -ge 6 ] || fail "$rows JSON lines, want the 6 rows of sync"
[ "$(wc -l < "$dir/r.csv")" -eq $((rows + 1)) ] || fail "$(wc -l < "$dir/r.csv") CSV lines for $rows results"
# The JSON line with its keys and braces taken away, and the empty pattern
# field, is the CSV row.
sed -e 's/"[a-z_]*"://g' -e 's/[{}"]//g' -e 's/$/,/' "$dir/r.json" > "$dir/expect"
tail -n +2 "$dir/r.csv" | cmp -s - "$dir/expect" || {
    diff "$dir/expect" "$dir/r.csv"
    fail "CSV rows differ from the JSON lines"
}

# Appending: one header, rows of both runs; ddt's rows have a pattern.
"$run" -n 2 -- "$bench" ddt --quick --quiet --op contig_put --csv "$dir/r.csv" \
    >/dev/null || fail "ddt --csv failed"
[ "$(grep -c '^suite,' "$dir/r.csv")" -eq 1 ] || fail "more than one header"
grep -q '^ddt,orma,contig_put,flush,allocate,2,[0-9]*,[0-9]*,[0-9.e+-]*,[0-9.e+-]*,[0-9.e+-]*,[0-9.e+-]*,FFT$' \
    "$dir/r.csv" || fail "no FFT row of ddt"
[ "$(awk -F, '{ print NF }' "$dir/r.csv" | sort -u)" = 13 ] || fail "rows of another field count"

# Not orma-bench's CSV: refused, and left as it was.
echo 'a,b,c' > "$dir/other.csv"
if "$run" -n 2 -- "$bench" sync --quick --quiet --csv "$dir/other.csv" \
       >/dev/null 2>"$dir/err"; then
    fail "appended to a CSV file of other columns"
fi
grep -q "not orma-bench's CSV header" "$dir/err" || fail "no message: $(cat "$dir/err")"
[ "$(cat "$dir/other.csv")" = 'a,b,c' ] || fail "other.csv was changed"
echo "bench_csv: $rows rows, header once, values as in JSON"
