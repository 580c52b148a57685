#!/bin/sh
# Runs the examples on Mosaic through the system ICD loader.
#
#   run-demo.sh [BUILD]            `make demo`: every example (BUILD defaults to build)
#   run-demo.sh BUILD NAME...      only those examples (the ctest tests example_NAME)
#   run-demo.sh BUILD --seeds      `make demo-seeds`: the programs of the seed texts,
#                                  when ../shared/seeds was there when BUILD was configured
#
# An example passes when it exits 0 and prints its line "NAME: OK (...)".  The
# exit status is 0 when every example run passed, 1 otherwise.
set -u
build=${1:-build}
[ $# -gt 0 ] && shift
if [ ! -d "$build/examples" ]; then
  echo "run-demo: no examples in $build (build first: make build)" >&2
  exit 1
fi
# Only Mosaic: the loader reads this one .icd file instead of /etc/OpenCL/vendors.
OCL_ICD_VENDORS="$(cd "$build" && pwd)/mosaic.icd"
export OCL_ICD_VENDORS

if [ "${1:-}" = --seeds ]; then
  if [ ! -x "$build/seeds/workGroup2D" ] || [ ! -x "$build/seeds/seed000_dot" ]; then
    echo "The seed texts (../shared/seeds) were not beside this checkout when $build was configured:"
    echo "no seed programs to run.  The project's own examples run with: make demo"
    exit 0
  fi
  set -e
  echo "== Seed 000: dot product in one work-group (__local memory, barrier)"
  "$build/seeds/seed000_dot" "$build/seeds/kernel_dot.cl"
  echo
  echo "== Seed 003: 2D work-groups of 16x16 with __local tiles (C++ bindings, CL/cl.hpp)"
  cd "$build/seeds"
  ./workGroup2D cpu fill_tiles.cl 300 400
  exit 0
fi

# What each example shows, and the arguments the demo gives it.
about() {
  case $1 in
    dot_product) echo "a dot product: __local memory, a work-group barrier, -D build options, two write events as the kernel's wait list" ;;
    tiles_2d) echo "a 2D NDRange in tiles: which work-group and work-item wrote each cell (CPU devices of every platform)" ;;
    ordering_rules) echo "the ordering rules of host and device commands: queues, user events, markers, barriers, callbacks, failures, device-side enqueue" ;;
    svm_atomics) echo "C11 atomics on fine-grained SVM: release and acquire between the host and a running kernel, both ways" ;;
    image_blur_resize) echo "images and samplers: Gaussian blur and bilinear resize of a test pattern (PPM files in $build/examples)" ;;
    *) return 1 ;;
  esac
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Runs one example, its output shown as it comes; passes on exit status 0 and the OK line.
run_example() {
  name=$1
  shift
  { "$build/examples/$name" "$@"; echo $? >"$scratch/status"; } 2>&1 | tee "$scratch/out"
  status=$(cat "$scratch/status")
  if [ "$status" -eq 0 ] && grep -q "^$name: OK" "$scratch/out"; then
    return 0
  fi
  if [ "$status" -eq 0 ]; then
    echo "run-demo: $name failed (exit status 0, but no line \"$name: OK\")" >&2
  else
    echo "run-demo: $name failed (exit status $status)" >&2
  fi
  return 1
}

if [ $# -eq 0 ]; then
  set -- dot_product tiles_2d ordering_rules svm_atomics image_blur_resize
  if command -v clinfo >/dev/null 2>&1; then
    echo "== Mosaic, as clinfo sees it"
    clinfo -l
    echo
  fi
fi

failed=""
count=0
for name in "$@"; do
  if ! what=$(about "$name"); then
    echo "run-demo: no example named $name" >&2
    failed="$failed $name"
    continue
  fi
  echo "== $name: $what"
  case $name in
    tiles_2d) run_example tiles_2d cpu || failed="$failed $name" ;;
    image_blur_resize) run_example image_blur_resize - "$build/examples" || failed="$failed $name" ;;
    *) run_example "$name" || failed="$failed $name" ;;
  esac
  count=$((count + 1))
  echo
done

if [ -n "$failed" ]; then
  echo "run-demo: FAILED:$failed"
  exit 1
fi
echo "All $count example(s) OK."
if [ -x "$build/seeds/workGroup2D" ]; then
  echo "The seed programs are built too: make demo-seeds runs them."
fi
