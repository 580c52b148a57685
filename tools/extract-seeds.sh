#!/bin/sh
# Extracts the seed programs (../shared/seeds) into a build folder, so the
# demo runs them as written instead of a copy kept in this repository.
#   seed 000: the kernel kernel_dot (its host program is completed in examples/seed000_dot.c)
#   seed 003: the kernel fill_tiles and the C++ host program workGroup2D.cpp
# The seed texts were typeset: U+3008 stands for '<'.
set -eu
seeds=$1 out=$2
mkdir -p "$out"
s000=$(ls "$seeds"/000_*.txt) s003=$(ls "$seeds"/003_*.txt)
lt=$(printf '\343\200\210')
# kernel_dot is not indented: it ends at the last '}' before the prose resumes
sed -n '/^__kernel void kernel_dot/,$p' "$s000" | sed "s/$lt/</g" |
  awk '{ line[NR] = $0; if ($0 == "}") last = NR } END { for (i = 1; i <= last; i++) print line[i] }' > "$out/kernel_dot.cl"
sed -n '/^__kernel void fill_tiles/,/^}$/p' "$s003" > "$out/fill_tiles.cl"
# written whole, then renamed: two parallel runs of this script must not
# append the closing brace twice
{ sed -n '/^#define PROFILING/,/^  return EXIT_SUCCESS;$/p' "$s003"; echo "}"; } > "$out/workGroup2D.cpp.$$"
mv "$out/workGroup2D.cpp.$$" "$out/workGroup2D.cpp"
for f in kernel_dot.cl fill_tiles.cl workGroup2D.cpp; do
  [ -s "$out/$f" ] || { echo "extract-seeds: could not find $f in $seeds" >&2; exit 1; }
done
