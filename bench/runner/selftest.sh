#!/bin/sh
# The benchmark runner end to end (ctest bench_runner_tiny): tiny sizes, on
# the platforms the loader shows (the test environment: Mosaic alone).
#   selftest.sh path/to/bench_runner output-folder
# Passes if the runner exits 0, the CSV has a right ("ok") result for Mosaic
# and for the C twin of every benchmark, each row's share is of the right
# roof (the barrier rows': their twin's), the matrix products have a right
# OpenBLAS result and shares of it (where the runner has OpenBLAS), the SVG
# chart is whole and names every benchmark, and wrong results injected into
# two benchmarks come out as FAIL with exit status 1 while the others stay
# ok; --timing cold runs and
# a timing that is neither warm nor cold is bad usage (exit status 2).
set -u
runner=$1
out=$2
rm -rf "$out" && mkdir -p "$out" || exit 1
failed=0
fail() { echo "selftest: $*"; failed=1; }

"$runner" --size tiny --threads 2 --csv "$out/bench.csv" --svg "$out/bench.svg" >"$out/run.txt" 2>&1
rc=$?
cat "$out/run.txt"
[ "$rc" -eq 0 ] || fail "the runner exited with $rc"
[ -s "$out/bench.csv" ] || fail "no CSV"
[ -s "$out/bench.svg" ] || fail "no SVG"

names=$("$runner" --list | awk '{ print $1 }')
[ -n "$names" ] || fail "--list lists nothing"
for name in $names; do
    for impl in Mosaic C+OpenMP; do
        status=$(awk -F, -v b="$name" -v i="$impl" '$1 == b && $4 == i { print $5 }' "$out/bench.csv")
        [ "$status" = ok ] || fail "$name on $impl: '${status:-no row}' in the CSV, not ok"
    done
    grep -q ">$name</text>" "$out/bench.svg" || fail "the chart does not name $name"
done
# What each row's share is of: the barrier rows' of their twin's bandwidth.
for pair in stream_triad:triad sgemm_naive:fma reduce:twin reduce_cached:twin histogram:twin; do
    name=${pair%%:*} want=${pair#*:}
    got=$(awk -F, -v b="$name" '$1 == b && $4 == "Mosaic" { print $18 }' "$out/bench.csv")
    [ "$got" = "$want" ] || fail "$name's share is of '$got' in the CSV, not of $want"
done
awk -F, '$1 == "reduce_cached" && $4 == "Mosaic" && $20 ~ /floats an array/ { found = 1 } END { exit !found }' \
    "$out/bench.csv" || fail "reduce_cached's CSV row does not say its size"
# The matrix products beside OpenBLAS, where the runner was built with it.
if grep -q "OpenBLAS, the GEMM rows' reference: none" "$out/run.txt"; then
    echo "selftest: built without OpenBLAS: its rows not checked"
else
    for name in $("$runner" --list | awk '$2 == "sgemm" || $2 == "gemm" || $2 == "ml" { print $1 }'); do
        awk -F, -v b="$name" '$1 == b && $4 == "OpenBLAS" && $5 == "ok" && $8 > 0 { found = 1 } END { exit !found }' \
            "$out/bench.csv" || fail "$name has no right OpenBLAS result in the CSV"
        awk -F, -v b="$name" '$1 == b && $4 == "Mosaic" && $19 != "" { found = 1 } END { exit !found }' \
            "$out/bench.csv" || fail "$name has no share of OpenBLAS for Mosaic in the CSV"
    done
    grep -q "share of OpenBLAS:" "$out/run.txt" || fail "the table has no OpenBLAS line"
fi
awk -F, '$1 == "roof_triad" && $12 > 0 { found = 1 } END { exit !found }' "$out/bench.csv" || fail "no triad roof in the CSV"
awk -F, '$1 == "roof_fma" && $13 > 0 { found = 1 } END { exit !found }' "$out/bench.csv" || fail "no FMA roof in the CSV"
head -n 1 "$out/bench.svg" | grep -q '^<svg ' || fail "the chart does not start with <svg"
tail -n 1 "$out/bench.svg" | grep -q '^</svg>$' || fail "the chart does not end with </svg>"

# A wrong result must be a FAIL, never a time.
"$runner" --size tiny --threads 2 --reps 1 --only stream_triad,reduce,gemm_indirect \
    --inject-fault reduce,gemm_indirect --csv "$out/fault.csv" >"$out/fault.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { cat "$out/fault.txt"; fail "with a wrong result the runner exited with $rc, not 1"; }
for name in reduce gemm_indirect; do
    awk -F, -v b="$name" '$1 == b && $4 == "Mosaic" && $5 == "FAIL" && $8 == "" { found = 1 } END { exit !found }' \
        "$out/fault.csv" || fail "the injected wrong result of $name is not a FAIL without a time"
done
awk -F, '$1 == "stream_triad" && $4 == "Mosaic" && $5 == "ok" { found = 1 } END { exit !found }' \
    "$out/fault.csv" || fail "stream_triad failed beside the injected fault"

# Cold timing (the first run after each pause) runs and says so; a timing
# that is neither is bad usage.
"$runner" --size tiny --threads 2 --reps 1 --only stream_copy --timing cold --csv "$out/cold.csv" >"$out/cold.txt" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$out/cold.txt"; fail "--timing cold exited with $rc"; }
grep -q "timing cold" "$out/cold.txt" || fail "--timing cold: the header does not say cold"
grep -q '^roof_triad,.*,rows timed warm$' "$out/bench.csv" || fail "the CSV's triad row does not say the rows were timed warm"
grep -q '^roof_triad,.*,rows timed cold$' "$out/cold.csv" || fail "--timing cold: the CSV's triad row does not say cold"
BENCH_TIMING=lukewarm "$runner" --size tiny --only stream_copy >"$out/bad.txt" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "BENCH_TIMING=lukewarm exited with $rc, not 2 (bad usage)"
grep -q "timing must be warm or cold" "$out/bad.txt" || fail "BENCH_TIMING=lukewarm: no message saying why"

[ "$failed" -eq 0 ] && echo "selftest: passed"
exit "$failed"
