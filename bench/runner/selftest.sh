#!/bin/sh
# The benchmark runner end to end (ctest bench_runner_tiny): tiny sizes, on
# the platforms the loader shows (the test environment: Mosaic alone).
#   selftest.sh path/to/bench_runner output-folder [path/to/libmosaic.so]
# Passes if the runner exits 0, the CSV has a right ("ok") result for Mosaic
# and for the C twin of every benchmark, each row's share is of the right
# roof (the barrier rows': their twin's), the matrix products have a right
# OpenBLAS result and shares of it (where the runner has OpenBLAS), the SVG
# chart is whole and names every benchmark, and wrong results injected into
# two benchmarks come out as FAIL with exit status 1 while the others stay
# ok; --timing cold runs and
# a timing that is neither warm nor cold is bad usage (exit status 2).
# A crash injected into one row (--inject-crash) costs that row's figures of
# the platform that crashed and nothing else: for another platform (a copy of
# libmosaic.so, which the loader lists as Mosaic-2) the run ends with exit
# status 0, for Mosaic with 1 and a loud line; neither is a FAIL; a crash in
# the runner's own code loses the row, loudly; with --in-process a crash ends
# the run.
set -u
runner=$1
out=$2
lib=${3:-}
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

# A platform that crashes.  csv_status ROW IMPLEMENTATION FILE: its status in the CSV.
csv_status() { awk -F, -v b="$1" -v i="$2" '$1 == b && $4 == i { print $5 }' "$3"; }
crash_rows=stream_triad,reduce,histogram
if [ -n "$lib" ]; then
    # Two platforms: Mosaic, and a second instance of it from a copy of the
    # library standing for PoCL, whose kernel compiler aborts on some machines.
    mkdir -p "$out/vendors" && cp "$lib" "$out/vendors/libmosaic-copy.so" || exit 1
    echo "$lib" >"$out/vendors/a-mosaic.icd"
    echo "$out/vendors/libmosaic-copy.so" >"$out/vendors/b-copy.icd"
    OCL_ICD_VENDORS=$out/vendors "$runner" --size tiny --threads 2 --reps 1 --only $crash_rows \
        --inject-crash reduce:Mosaic-2 --csv "$out/crash2.csv" --svg "$out/crash2.svg" >"$out/crash2.txt" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$out/crash2.txt"; fail "another platform's crash: exit status $rc, not 0"; }
    grep -q "^platform 1: Mosaic-2 " "$out/crash2.txt" || fail "the copy of libmosaic.so is not listed as Mosaic-2"
    [ "$(csv_status reduce Mosaic-2 "$out/crash2.csv")" = crashed ] || fail "reduce on Mosaic-2 is not 'crashed' in the CSV"
    grep -q '^reduce,.*,Mosaic-2,crashed,.*"crashed (signal 6, ' "$out/crash2.csv" || fail "the CSV does not give the signal"
    for impl in Mosaic C+OpenMP; do
        [ "$(csv_status reduce $impl "$out/crash2.csv")" = ok ] || fail "reduce on $impl is not ok after Mosaic-2's crash"
    done
    for name in stream_triad histogram; do
        for impl in Mosaic Mosaic-2; do
            [ "$(csv_status $name $impl "$out/crash2.csv")" = ok ] || fail "$name on $impl is not ok beside the crash"
        done
    done
    grep -q "^reduce .* crashed " "$out/crash2.txt" || fail "the table's reduce row does not say crashed"
    grep -q "Mosaic-2 crashed (signal 6, " "$out/crash2.txt" || fail "the table does not say Mosaic-2 crashed, with the signal"
    grep -q "^geomean over 2 benchmarks of Mosaic-2's" "$out/crash2.txt" || fail "the geomean is not over the 2 rows that ran"
    grep -q "^0 FAIL$" "$out/crash2.txt" || fail "a crash was counted as a FAIL"
    grep -q ">crashed</text>" "$out/crash2.svg" || fail "the chart does not show the crash"
else
    echo "selftest: no libmosaic.so given: a second platform's crash not checked"
fi
# Mosaic's own crash is a bug of Mosaic: said loudly, exit status 1, still no FAIL.
"$runner" --size tiny --threads 2 --reps 1 --only $crash_rows --inject-crash reduce:Mosaic \
    --csv "$out/crash.csv" >"$out/crash.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { cat "$out/crash.txt"; fail "Mosaic's crash: exit status $rc, not 1"; }
[ "$(csv_status reduce Mosaic "$out/crash.csv")" = crashed ] || fail "reduce on Mosaic is not 'crashed' in the CSV"
[ "$(csv_status reduce C+OpenMP "$out/crash.csv")" = ok ] || fail "reduce's twin is not ok after Mosaic's crash"
for name in stream_triad histogram; do
    [ "$(csv_status $name Mosaic "$out/crash.csv")" = ok ] || fail "$name on Mosaic is not ok beside the crash"
done
grep -q "^MOSAIC CRASHED (a bug of Mosaic) in 1 row: reduce " "$out/crash.txt" || fail "Mosaic's crash is not said loudly"
grep -q "^0 FAIL$" "$out/crash.txt" || fail "Mosaic's crash was counted as a FAIL"
# A crash in the runner's own code (here the twin's) loses the row, loudly, and only the row.
"$runner" --size tiny --threads 2 --reps 1 --only $crash_rows --inject-crash reduce:C+OpenMP \
    --csv "$out/crash0.csv" >"$out/crash0.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { cat "$out/crash0.txt"; fail "the runner's crash: exit status $rc, not 1"; }
grep -q "^CRASHED OUTSIDE ANY PLATFORM'S CALLS in 1 row: reduce " "$out/crash0.txt" ||
    fail "the runner's crash is not said loudly"
[ "$(csv_status histogram Mosaic "$out/crash0.csv")" = ok ] || fail "histogram is not ok after the runner's crash"
# In one process (--in-process) the same crash ends the run: what the child processes prevent.
"$runner" --size tiny --threads 2 --reps 1 --only $crash_rows --inject-crash reduce:Mosaic --in-process \
    >"$out/crash1.txt" 2>&1
rc=$?
[ "$rc" -gt 128 ] || fail "--in-process with a crash exited with $rc, not by a signal"
"$runner" --size tiny --threads 2 --reps 1 --only stream_copy --in-process --csv "$out/one.csv" >"$out/one.txt" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(csv_status stream_copy Mosaic "$out/one.csv")" = ok ] || fail "--in-process exited with $rc"

[ "$failed" -eq 0 ] && echo "selftest: passed"
exit "$failed"
