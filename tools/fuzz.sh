#!/bin/sh
# Runs each libFuzzer harness of a MOSAIC_FUZZ build (`make fuzz`).
#
#   tools/fuzz.sh BUILD SECONDS [NAME...]    (default: every harness)
#
# Each runs for SECONDS from its seed corpus (tests/fuzz/corpus/NAME), adding
# what it finds new to a working corpus in BUILD/fuzz-corpus/NAME; a crash,
# leak or sanitizer report leaves its input as BUILD/fuzz-findings/NAME-*
# and makes the exit status 1.  The harnesses and what to do with a finding:
# tests/fuzz/README.md.
set -u
build=$1
seconds=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
# (default: every harness the build has, tests/fuzz/CMakeLists.txt's list)
names=${*:-$(cd "$build/tests/fuzz" 2>/dev/null && ls fuzz_* 2>/dev/null | sed 's/^fuzz_//')}
mkdir -p "$build/fuzz-findings"
status=0
for name in $names; do
  corpus="$build/fuzz-corpus/$name"
  mkdir -p "$corpus"
  echo "== fuzz_$name: $seconds s"
  # a kernel cache of the run's own; the CPU's four workers are enough;
  # undefined behaviour stops the run and leaves its input, as a crash does
  if MOSAIC_CACHE_DIR="$build/fuzz-cache" MOSAIC_NUM_THREADS=4 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     "$build/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -print_final_stats=1 \
       -artifact_prefix="$build/fuzz-findings/$name-" "$corpus" "$here/tests/fuzz/corpus/$name"; then
    :
  else
    echo "fuzz_$name: a finding (above; its input is in $build/fuzz-findings)"
    status=1
  fi
done
exit $status
