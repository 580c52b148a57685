#!/bin/sh
# `make demo`: runs the seed programs on Mosaic through the system ICD loader.
set -eu
build=${1:-build}
# Only Mosaic: the loader reads this one .icd file instead of /etc/OpenCL/vendors.
export OCL_ICD_VENDORS="$(cd "$build" && pwd)/mosaic.icd"

echo "== Mosaic, as clinfo sees it"
clinfo -l
echo
echo "== Images and samplers: Gaussian blur and bilinear resize of a test pattern (PPM files)"
"$build/examples/image_blur_resize" - "$build/examples"
if [ ! -x "$build/seeds/workGroup2D" ]; then
  echo "The seed texts (../shared/seeds) were not found at build time: nothing more to run." >&2
  exit 1
fi
echo
echo "== Seed 000: dot product in one work-group (__local memory, barrier)"
"$build/seeds/seed000_dot" "$build/seeds/kernel_dot.cl"
echo
echo "== Seed 003: 2D work-groups of 16x16 with __local tiles (C++ bindings, CL/cl.hpp)"
cd "$build/seeds"
./workGroup2D cpu fill_tiles.cl 300 400
