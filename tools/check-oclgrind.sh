#!/bin/sh
# The checking-mode corpus (tests/check) under Oclgrind, the interpreter
# with data-race, uninitialised-value and memory checks that Mosaic's
# checking mode is measured against (issue 44): each case's bug and twin
# kernels run with `oclgrind --data-races --uninitialized`, and a table
# row says what Oclgrind reported for each (races, barriers, bounds,
# uninit; "-" for nothing).
#
#   tools/check-oclgrind.sh [BUILD]      (default: build; Debian's oclgrind)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
runner=$build/tests/check/test_check_corpus
command -v oclgrind >/dev/null || { echo "no oclgrind (apt-get install oclgrind)"; exit 77; }
[ -x "$runner" ] || { echo "no $runner: build Mosaic first"; exit 1; }
found() { # what oclgrind's messages in $1 say, as the corpus's kinds
    kinds=""
    grep -q "data race" "$1" && kinds="$kinds races"
    grep -q "divergence" "$1" && kinds="$kinds barriers"
    grep -qE "Invalid (read|write)" "$1" && kinds="$kinds bounds"
    grep -q "Uninitialized" "$1" && kinds="$kinds uninit"
    grep -qE "status -11|FATAL ERROR" "$1" && kinds="$kinds (cannot run it)"
    echo "${kinds:- -}"
}
echo "| case | its bug | Oclgrind on the bug | Oclgrind on the twin |"
echo "| --- | --- | --- | --- |"
log=$(mktemp)
sed -n 's/^CHECK_CASE(\([a-z_]*\), *\([a-z]*\),.*/\1 \2/p' "$here/tests/check/corpus.list" | while read -r name kind; do
    oclgrind --data-races --uninitialized "$runner" --run "$name" bug > "$log" 2>&1
    bug=$(found "$log")
    oclgrind --data-races --uninitialized "$runner" --run "$name" twin > "$log" 2>&1
    twin=$(found "$log")
    echo "| $name | $kind | $bug | $twin |"
done
rm -f "$log"
