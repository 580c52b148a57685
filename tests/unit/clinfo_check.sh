#!/bin/sh
# clinfo through the system ICD loader, seeing Mosaic alone: one platform
# "Mosaic" with one CPU device, and no query answering an error.
# Usage: clinfo_check.sh <path to mosaic.icd>
# (Debian 12's ocl-icd 2.3.1 ignores OCL_ICD_FILENAMES; OCL_ICD_VENDORS
# naming one .icd file works with it.)
icd="$1"
command -v clinfo >/dev/null 2>&1 || { echo "clinfo is not installed"; exit 77; }
[ -f "$icd" ] || { echo "no $icd"; exit 1; }
export OCL_ICD_VENDORS="$icd"
unset OCL_ICD_FILENAMES

out=$(clinfo 2>&1) || { echo "$out"; echo "FAIL: clinfo exited with an error"; exit 1; }
echo "$out"
fail=0
check() { # pattern, message
    echo "$out" | grep -Eq "$1" || { echo "FAIL: $2"; fail=1; }
}
check '^Number of platforms +1$' "one platform"
check '^  Platform Name +Mosaic$' "platform named Mosaic"
check '^  Platform Version +OpenCL 3\.1 Mosaic' "platform version OpenCL 3.1"
check '^  Platform Extensions function suffix +MOSAIC$' "ICD suffix MOSAIC"
check '^Number of devices +1$' "one device"
check '^  Device Type +CPU$' "a CPU device"
check '^  Device Version +OpenCL 3\.1' "device version OpenCL 3.1"
# clinfo prints failed queries as negative codes, CL_INVALID_* names or "error";
# "Error Correction support" is a query, not an error.
bad=$(echo "$out" | grep -Ei 'CL_INVALID|error|-[0-9]+>' | grep -v 'Error Correction support')
if [ -n "$bad" ]; then
    echo "FAIL: clinfo reported errors:"
    echo "$bad"
    fail=1
fi

list=$(clinfo -l 2>&1)
[ "$(echo "$list" | grep -c '^Platform #')" = 1 ] || { echo "FAIL: clinfo -l: $list"; fail=1; }
[ "$(echo "$list" | grep -c 'Device #')" = 1 ] || { echo "FAIL: clinfo -l: $list"; fail=1; }
[ $fail = 0 ] && echo "PASS"
exit $fail
