#!/bin/sh
# The `mosaic` command (src/tools, docs/mosaic-command.md), one case per run:
#   mosaic_command.sh CASE MOSAIC PYTHON3 EXAMPLE SETTINGS_DEF CORPUS
# MOSAIC: the command; PYTHON3: reads its JSON; EXAMPLE: an OpenCL program
# that builds kernels (fills a kernel cache), run through the ICD loader
# (OCL_ICD_VENDORS from the test's environment); CORPUS: the checking-mode
# corpus's runner (tests/check), for `mosaic check`.  Each case makes its own
# cache folder and removes it.
case=$1 mosaic=$2 python=$3 example=$4
tmp=$(mktemp -d) || exit 1
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail=0
check() { # condition text, message
    if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi
}
# flat FILE: parses the JSON in FILE (a failure if it does not parse) and
# writes FILE.flat, a line per value: "path=value", path the keys and list
# indexes joined by dots ("platforms.0.name=Mosaic"), value as JSON writes a
# number, true, false or null, a string as it is.  (One Python run per
# document: the checks below read the lines.)
flat() {
    "$python" -c 'import json, sys
def walk(path, v):
    if isinstance(v, dict):
        for k, x in v.items(): walk(path + [k], x)
    elif isinstance(v, list):
        for i, x in enumerate(v): walk(path + [str(i)], x)
    else:
        print(".".join(path) + "=" + (v if isinstance(v, str) else json.dumps(v)))
walk([], json.load(open(sys.argv[1])))' "$1" >"$1.flat" || { echo "FAIL: $1 is not JSON"; fail=1; }
}
# get FILE PATH: the value at PATH in FILE.flat
get() { sed -n "s|^$2=||p" "$1.flat"; }
# item FILE LIST KEY VALUE FIELD: FIELD of the item of LIST whose KEY is VALUE
item() {
    i=$(sed -n "s|^$2\.\([0-9]*\)\.$3=$4\$|\1|p" "$1.flat" | head -1)
    [ -n "$i" ] && get "$1" "$2.$i.$5"
}
# fill: one run of the example with the cache in $tmp/cache (it builds its kernels)
fill() { (cd "$tmp" && MOSAIC_CACHE_DIR="$tmp/cache" "$example" >"$tmp/example.out" 2>&1) ||
             { cat "$tmp/example.out"; echo "FAIL: the example failed"; exit 1; }; }

case $case in
check)
    corpus=$6
    "$mosaic" check -- "$corpus" --run race_local bug >"$tmp/out" 2>"$tmp/err"; status=$?
    cat "$tmp/out" "$tmp/err"
    check '[ $status = 1 ]' "a problem found: exit 1 (not $status)"
    check 'grep -q "races *kernel bug, line 9:27" "$tmp/out"' "the summary names the race and its line"
    check 'grep -q "a\[get_global_id(0)\] = tmp\[(l + 1) % 64\];" "$tmp/out"' "the summary quotes the source line"
    check 'grep -q "problem(s):.* races" "$tmp/out"' "the summary counts the races"
    check 'grep -q "^mosaic check: races in kernel bug" "$tmp/err"' "the library's report on stderr"
    "$mosaic" check --only bounds -- "$corpus" --run race_local bug >"$tmp/out" 2>&1; status=$?
    check '[ $status = 0 ] && grep -q "no problem found" "$tmp/out"' "--only bounds: no race, exit 0 (not $status)"
    "$mosaic" check "$corpus" --run race_local twin >"$tmp/out" 2>&1; status=$?
    check '[ $status = 0 ] && grep -q "no problem found" "$tmp/out"' "the twin: nothing found, exit 0 (not $status)"
    "$mosaic" check -- "$corpus" --run no_such_case bug >"$tmp/out" 2>&1; status=$?
    check '[ $status = 2 ]' "the program's own exit status when nothing was found (2, not $status)"
    "$mosaic" check --only frob -- true >"$tmp/out" 2>&1; status=$?
    check '[ $status = 2 ]' "--only with an unknown kind: bad usage (not $status)"
    "$mosaic" check -- "$tmp/no-such-program" >"$tmp/out" 2>&1; status=$?
    check '[ $status = 127 ]' "a program that cannot run: 127 (not $status)"
    ;;
help)
    out=$("$mosaic" --help); status=$?
    echo "$out"
    check '[ $status = 0 ]' "--help exits 0 (not $status)"
    for word in info "cache stats" "cache clear" bench check --json; do
        check 'echo "$out" | grep -q -- "$word"' "--help names $word"
    done
    check '"$mosaic" --version | grep -Eq "^mosaic [0-9]+\.[0-9]+\.[0-9]+$"' "--version prints the version"
    ;;
bad_usage)
    # each: exit status 2 and a message on stderr, nothing on stdout
    for args in "" "frobnicate" "--frob info" "info --frob" "info extra" "cache" "cache frob" \
                "cache stats clear" "--json bench" "bench --json" "check" "--json check true"; do
        # shellcheck disable=SC2086
        "$mosaic" $args >"$tmp/out" 2>"$tmp/err"; status=$?
        echo "mosaic $args: exit $status: $(head -1 "$tmp/err")"
        check '[ $status = 2 ]' "mosaic $args exits 2 (not $status)"
        check '[ -s "$tmp/err" ] && [ ! -s "$tmp/out" ]' "mosaic $args: the message on stderr alone"
    done
    ;;
info)
    out=$(MOSAIC_NUM_THREADS=3 MOSAIC_NOT_A_SETTING=1 "$mosaic" info); status=$?
    echo "$out"
    check '[ $status = 0 ]' "info exits 0 (not $status)"
    check 'echo "$out" | grep -Eq "^  Name +Mosaic$"' "the platform's name"
    check 'echo "$out" | grep -Eq "^  Device 0$"' "a device"
    check 'echo "$out" | grep -Eq "^    Type +CPU$"' "its type"
    check 'echo "$out" | grep -Eq "^      cl_khr_icd +1\.0\.0$"' "an extension and its version"
    check 'echo "$out" | grep -Eq "^      __opencl_c_int64 +3\.0\.0$"' "an OpenCL C feature and its version"
    check 'echo "$out" | grep -Eq "^  \* MOSAIC_NUM_THREADS +3( |$)"' "a setting set, with its value"
    check 'echo "$out" | grep -Eq "^    MOSAIC_SPIN_US +50( |$)"' "a setting left to its default"
    check 'echo "$out" | grep -q "MOSAIC_NOT_A_SETTING is not a Mosaic setting"' "an unknown MOSAIC_ variable"
    check 'echo "$out" | grep -Eq "^  Directory +$MOSAIC_CACHE_DIR$"' "the cache's directory"
    ;;
info_json)
    MOSAIC_NUM_THREADS=3 MOSAIC_STREAM_STORES=0 MOSAIC_NOT_A_SETTING=1 "$mosaic" info --json >"$tmp/info.json"
    status=$?
    cat "$tmp/info.json"
    check '[ $status = 0 ]' "info --json exits 0 (not $status)"
    flat "$tmp/info.json"
    f="$tmp/info.json" device=platforms.0.devices.0
    v=$(get "$f" platforms.0.name)
    check '[ "$v" = Mosaic ]' "platform Mosaic ($v)"
    v="$(get "$f" $device.type) $(get "$f" platforms.0.devices.1.type)"
    check '[ "$v" = "CPU " ]' "one CPU device ($v)"
    v=$(item "$f" $device.extensions name cl_khr_icd version)
    check '[ "$v" = 1.0.0 ]' "the device's extensions, with versions ($v)"
    v=$(item "$f" $device.opencl_c_features name __opencl_c_int64 version)
    check '[ "$v" = 3.0.0 ]' "the device's OpenCL C features, with versions ($v)"
    v="$(item "$f" settings name MOSAIC_NUM_THREADS value) $(item "$f" settings name MOSAIC_NUM_THREADS effective)"
    check '[ "$v" = "3 3" ]' "MOSAIC_NUM_THREADS as set and in force ($v)"
    v="$(item "$f" settings name MOSAIC_SPIN_US value) $(item "$f" settings name MOSAIC_SPIN_US effective)"
    check '[ "$v" = "null 50" ]' "MOSAIC_SPIN_US unset, its default in force ($v)"
    v=$(item "$f" settings name MOSAIC_STREAM_STORES effective)
    check '[ "$v" = off ]' "MOSAIC_STREAM_STORES=0 in force: off ($v)"
    v=$(item "$f" settings name MOSAIC_NO_WIDEN effective)
    check '[ "$v" = false ]' "a flag's value: false ($v)"
    v=$(item "$f" settings name MOSAIC_DEBUG effective)
    check '[ "$v" = off ]' "MOSAIC_DEBUG's categories: none ($v)"
    v=$(get "$f" unknown_variables.0)
    check '[ "$v" = MOSAIC_NOT_A_SETTING ]' "the unknown variable ($v)"
    v=$(get "$f" cache.directory)
    check '[ "$v" = "$MOSAIC_CACHE_DIR" ]' "the cache's directory ($v)"
    v=$(grep -c '^programs\.[0-9]*\.found=true$' "$f.flat")
    check '[ "$v" = 4 ]' "clang, opt, llvm-spirv and spirv-val found ($v)"
    ;;
info_lists_every_setting)
    # every variable of src/base/settings.def is in info's settings: none forgotten
    settings_def=$5
    names=$(grep -oE '^MOSAIC_[A-Z]+\("[A-Z_]+"' "$settings_def" | sed 's/.*("//; s/"//' | sort -u)
    check '[ -n "$names" ]' "settings.def's variables"
    "$mosaic" info --json >"$tmp/info.json"
    flat "$tmp/info.json"
    for name in $names; do
        if grep -qx "settings\.[0-9]*\.name=$name" "$tmp/info.json.flat"; then echo "listed: $name"
        else echo "FAIL: info does not list $name"; fail=1; fi
    done
    ;;
cache_stats)
    export MOSAIC_CACHE_DIR="$tmp/cache"
    out=$("$mosaic" cache stats); status=$?
    echo "$out"
    check '[ $status = 0 ]' "stats exits 0 (not $status)"
    check 'echo "$out" | grep -Eq "^  State +not created yet$"' "a cache not made yet"
    check '[ ! -e "$tmp/cache" ]' "stats does not make the directory"
    fill
    "$mosaic" cache stats --json >"$tmp/stats.json"; status=$?
    cat "$tmp/stats.json"
    check '[ $status = 0 ]' "stats --json exits 0 (not $status)"
    flat "$tmp/stats.json"
    f="$tmp/stats.json"
    v="$(get "$f" state) $(get "$f" entries)"
    check '[ "${v% *}" = on ] && [ "${v#* }" -ge 2 ]' "in use, the example's entries counted ($v)"
    sum=0
    for k in 0 1 2 3 4 5; do sum=$((sum + $(get "$f" kinds.$k.entries))); done
    check '[ $sum = "${v#* }" ]' "the kinds add up ($sum)"
    bytes=$(find "$tmp/cache" -mindepth 2 -type f -name '*.[a-z][a-z][a-z]' -exec cat {} + | wc -c)
    v=$(get "$f" bytes)
    check '[ "$v" = "$bytes" ]' "the size is the entries' ($v, $bytes bytes)"
    out=$(MOSAIC_CACHE=0 "$mosaic" cache stats)
    echo "$out"
    check 'echo "$out" | grep -Eq "^  State +off$"' "MOSAIC_CACHE=0: off"
    chmod go+w "$tmp/cache"
    out=$("$mosaic" cache stats)
    echo "$out"
    check 'echo "$out" | grep -Eq "^  State +refused$"' "a directory others may write to: refused, as Mosaic does"
    ;;
cache_clear)
    export MOSAIC_CACHE_DIR="$tmp/cache"
    fill
    sub=$(ls "$tmp/cache" | grep -E '^[0-9a-f]{2}$' | head -1)
    echo keep >"$tmp/cache/$sub/notes.txt"                             # not Mosaic's
    echo half >"$tmp/cache/$sub/$(printf '%062d' 0).obj.123.7f.tmp"     # being written now
    echo dead >"$tmp/cache/$sub/$(printf '%062d' 1).obj.124.7f.tmp"     # a writer that died
    touch -d '2 hours ago' "$tmp/cache/$sub/$(printf '%062d' 1).obj.124.7f.tmp"
    "$mosaic" cache clear --json >"$tmp/clear.json"; status=$?
    cat "$tmp/clear.json"
    check '[ $status = 0 ]' "clear exits 0 (not $status)"
    flat "$tmp/clear.json"
    f="$tmp/clear.json"
    v="$(get "$f" removed_entries) $(get "$f" files_being_written) $(get "$f" other_files)"
    check '[ "${v%% *}" -ge 2 ] && [ "${v#* }" = "1 1" ]' \
          "the entries removed; the file being written and the other file left ($v)"
    left=$(cd "$tmp/cache" && find . -type f | LC_ALL=C sort | tr '\n' ' ')
    echo "left: $left"
    check '[ "$left" = "./$sub/$(printf "%062d" 0).obj.123.7f.tmp ./$sub/notes.txt ./size " ]' \
          "only the file being written, the other file and size are left"
    v=$("$mosaic" cache stats | sed -n 's/^  Entries *//p')
    check '[ "$v" = 0 ]' "stats: no entries ($v)"
    check '[ "$(find "$tmp/cache" -mindepth 1 -type d | wc -l)" = 1 ]' "the empty subdirectories removed"
    fill # the cache works after it
    v=$("$mosaic" cache stats | sed -n 's/^  Entries *//p')
    check '[ "$v" -ge 2 ]' "stored again after clear ($v)"
    out=$(MOSAIC_CACHE=0 "$mosaic" cache clear); status=$?
    echo "$out"
    check '[ $status = 0 ]' "MOSAIC_CACHE=0: clear has nothing to do, exits 0"
    chmod go+w "$tmp/cache"
    "$mosaic" cache clear; status=$?
    check '[ $status = 1 ]' "a directory others may write to is not cleared: exit 1 (not $status)"
    check '[ "$(find "$tmp/cache" -type f -name "*.obj" | wc -l)" -ge 1 ]' "its entries are left"
    ;;
cache_clear_while_in_use)
    # builds in three processes while the cache is cleared again and again:
    # every build succeeds (a cleared entry is a miss, a half-written one
    # never seen), and clear never fails
    export MOSAIC_CACHE_DIR="$tmp/cache"
    fill
    pids=""
    for p in 1 2 3; do
        mkdir "$tmp/run$p"
        (cd "$tmp/run$p" && for i in 1 2; do "$example" >"out$i" 2>&1 || echo "run $p.$i failed" >>../failed; done) &
        pids="$pids $!"
    done
    clears=0
    running() { for pid in $pids; do kill -0 "$pid" 2>/dev/null && return 0; done; return 1; }
    while running; do
        "$mosaic" cache clear >/dev/null || { echo "FAIL: clear failed"; fail=1; }
        clears=$((clears + 1))
    done
    wait
    echo "$clears clears while 6 runs built"
    check '[ ! -e "$tmp/failed" ]' "every run succeeded: $(cat "$tmp/failed" 2>/dev/null)"
    check '[ $clears -ge 2 ]' "clear ran while the builds did"
    ;;
bench)
    # the runner is found (the build folder's, beside build/mosaic) and run
    out=$("$mosaic" bench --list); status=$?
    check '[ $status = 0 ] && echo "$out" | grep -q "^stream_triad "' "bench --list lists the benchmarks"
    out=$("$mosaic" bench --quick --size tiny --only stream_triad --platforms Mosaic --reps 1 2>&1); status=$?
    echo "$out"
    check '[ $status = 0 ]' "a tiny run exits 0 (not $status)"
    check 'echo "$out" | grep -q "^0 FAIL"' "its result is right"
    "$mosaic" bench --no-such-option >/dev/null 2>&1; status=$?
    check '[ $status = 2 ]' "the runner's bad usage: exit 2 (not $status)"
    ;;
*)
    echo "no case $case"; exit 1 ;;
esac
[ $fail = 0 ] && echo PASS
exit $fail
