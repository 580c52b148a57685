#!/bin/sh
# Checking mode's speed (docs/check.md, "Speed"): the benchmark runner's
# rows on Mosaic without checking, with MOSAIC_CHECK=all, and on Oclgrind
# with its race and uninitialised-value plugins (Debian's oclgrind, run
# under its `oclgrind` command, single-threaded), one thread each (Mosaic's
# runs waiting for each barrier kernel's build for its local size,
# MOSAIC_SPECIALISE_WAIT, so that every rep times the same build); prints
# each row's times and the ratios, with their geometric means, and the
# problems checking mode reported on the runner's kernels (none expected).
#   bench/check/speed.sh BUILD [SIZE [ROWS]]
# SIZE: the runner's (tiny by default: Oclgrind takes seconds a row there;
# Oclgrind runs at the tiny size only); ROWS: its --only list (default: rows
# Oclgrind runs in a few seconds), `all` for every row.
#   bench/check/speed.sh build quick all     every row, checked against unchecked
set -eu
build=$(cd "${1:?usage: speed.sh BUILD [SIZE [ROWS]]}" && pwd)
size=${2:-tiny}
rows=${3:-stream_triad,sgemm_naive,mandelbrot,reduce,histogram,transpose}
only="--only $rows"
[ "$rows" = all ] && only=""
runner=$build/bench/bench_runner
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # NAME VARIABLE=VALUE...: Mosaic's rows with those settings
    name=$1; shift
    env "$@" "$runner" --size "$size" --threads 1 --reps 5 $only --platforms Mosaic \
        --csv "$tmp/$name.csv" >"$tmp/$name.out" 2>&1 ||
        { cat "$tmp/$name.out"; echo "speed.sh: the $name run failed"; exit 1; }
}
export OCL_ICD_VENDORS="$build/mosaic.icd"
run plain MOSAIC_CHECK= MOSAIC_SPECIALISE_WAIT=1
run checked MOSAIC_CHECK=all MOSAIC_SPECIALISE_WAIT=1 MOSAIC_CHECK_FILE="$tmp/found.jsonl"
if command -v oclgrind >/dev/null && [ "$size" = tiny ]; then
    oclgrind --data-races --uninitialized "$runner" --size "$size" --threads 1 --reps 1 --in-process \
        --platforms Oclgrind $only --csv "$tmp/oclgrind.csv" >"$tmp/oclgrind.out" 2>&1 ||
        echo "speed.sh: Oclgrind's run failed (its rows are left out)"
fi
python3 - "$tmp" <<'PY'
import csv, math, os, sys
tmp = sys.argv[1]
def times(name, impl):
    path = os.path.join(tmp, name + ".csv")
    if not os.path.exists(path):
        return {}
    return {r["benchmark"]: float(r["median_ms"]) for r in csv.DictReader(open(path))
            if r["implementation"] == impl and r["median_ms"]}
plain, checked, ocl = times("plain", "Mosaic"), times("checked", "Mosaic"), times("oclgrind", "Oclgrind")
print(f"{'row':16s} {'Mosaic ms':>10s} {'checked ms':>11s} {'Oclgrind ms':>12s} {'checked/Mosaic':>15s} {'Oclgrind/checked':>17s}")
slow, fast = [], []
for row in plain:
    if row not in checked:
        continue
    s = checked[row] / plain[row]
    slow.append(math.log(s))
    o = ocl.get(row)
    if o:
        fast.append(math.log(o / checked[row]))
    print(f"{row:16s} {plain[row]:10.3f} {checked[row]:11.3f} {o if o else float('nan'):12.1f} {s:15.1f} "
          f"{o / checked[row] if o else float('nan'):17.1f}")
geo = lambda l: math.exp(sum(l) / len(l)) if l else float("nan")
print(f"geomean: checked/Mosaic {geo(slow):.1f} over {len(slow)} rows; Oclgrind/checked {geo(fast):.1f} over {len(fast)} rows")
found = os.path.join(tmp, "found.jsonl")
n = sum(1 for _ in open(found)) if os.path.exists(found) else 0
print(f"problems checking mode reported on these kernels: {n}")
if n:
    print(open(found).read())
PY
