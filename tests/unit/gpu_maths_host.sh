#!/bin/sh
# gpu_maths_host.sh OUT.o SHIM.cl LIBCLC.bc CLANG LLVM-LINK LLVM-EXTRACT LLVM-DIS LLC GPU-BUILTIN.bc...
# The GPU's maths built-ins compiled for the host (test_gpu_builtin_maths):
# the shim's t_* functions linked with Mosaic's GPU built-ins first and
# libclc's NVPTX library after them, as src/compiler/gpu/ptx.c links a
# program, then everything they call extracted and compiled for x86-64.
# The GPU's abs.f32 and abs.f64 give a NaN back as it came, sign included
# (libclc's double acospi of a negative NaN, which reads the bits of
# fabs(x), gave 0.5 on the H200), where the host's clear the sign:
# host_fabs_* (the test's) stand in.  A NaN converted to an int stays the host's INT_MIN, so a table
# index made from a NaN reads out of bounds here as it did on the GPU.
# The host must run FMA instructions, as the GPU does: libclc's fma calls
# are its own instructions (without them, llc's code for libclc's double
# tan misaligned a vector load).
set -e
out=$1 shim=$2 clc=$3 clang=$4 link=$5 extract=$6 dis=$7 llc=$8
shift 8
tmp=$out.tmp
"$clang" -x cl -cl-std=CL3.0 -target nvptx64-unknown-nvidiacl -Xclang -finclude-default-header \
    -Xclang -cl-ext=+__opencl_c_generic_address_space,+__opencl_c_fp64,+cl_khr_fp64,+cl_khr_fp16,+__opencl_c_fp16 \
    -O1 -emit-llvm -c -o "$tmp.shim.bc" "$shim"
"$link" "$tmp.shim.bc" "$@" "$clc" -o "$tmp.all.bc"
"$extract" --recursive --rfunc='^t_' --rglob='.*' "$tmp.all.bc" -o "$tmp.ext.bc"
"$dis" "$tmp.ext.bc" -o - | sed \
    -e 's/^target triple.*/target triple = "x86_64-pc-linux-gnu"/' -e 's/^target datalayout.*//' \
    -e 's/addrspace([0-9])//g' -e 's/linkonce_odr //' \
    -e 's/@llvm\.nvvm\.rsqrt\.approx\.f\b/@host_rsqrt_approx_f/g' \
    -e 's/@llvm\.fabs\.f64(/@host_fabs_d(/g' -e 's/@llvm\.fabs\.f32(/@host_fabs_f(/g' >"$tmp.ll"
# (llc's stderr shown only on failure: it names the GPU's target features
# the host lacks, to no purpose)
"$llc" -O2 -mattr=+fma -relocation-model=pic -filetype=obj "$tmp.ll" -o "$out" 2>"$tmp.err" ||
    { cat "$tmp.err"; exit 1; }
rm -f "$tmp.shim.bc" "$tmp.all.bc" "$tmp.ext.bc" "$tmp.ll" "$tmp.err"
