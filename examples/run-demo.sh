#!/bin/sh
# `make demo`: runs the seed programs on Mosaic through the system ICD loader.
set -eu
build=${1:-build}
lib=$(cd "$build" && pwd)/libmosaic.so
# Only Mosaic: an empty vendors folder hides any other installed platform.
mkdir -p "$build/no-vendors"
export OCL_ICD_FILENAMES="$lib" OCL_ICD_VENDORS="$(cd "$build" && pwd)/no-vendors"

echo "== Mosaic, as clinfo sees it"
clinfo -l
if [ ! -x "$build/seeds/workGroup2D" ]; then
  echo "The seed texts (../shared/seeds) were not found at build time: nothing more to run." >&2
  exit 1
fi
echo
echo "== Seed 000: dot product in one work-group (__local memory, barrier)"
"$build/seed000_dot" "$build/seeds/kernel_dot.cl"
echo
echo "== Seed 003: 2D work-groups of 16x16 with __local tiles (C++ bindings, CL/cl.hpp)"
cd "$build/seeds"
./workGroup2D cpu fill_tiles.cl 300 400
