/* Kernels of the GPU's SPIR-V cases (tests/compiler/test_ptx.c,
 * tests/unit/test_gpu_device.c), compiled at build time by clang-15 for
 * spir64 and turned into SPIR-V by llvm-spirv-15 (tests/e2e/CMakeLists.txt). */

/* OpFDiv: 2.5 ulp allowed, as OpenCL C's `/` */
kernel void divide(global float *a, global const float *b)
{
    size_t i = get_global_id(0);
    a[i] = a[i] / b[i];
}

/* saturating conversions, NaN included; a generic pointer's out-parameter */
kernel void saturate(global const double *d, global const float *f, global int *out)
{
    size_t i = get_global_id(0);
    float whole;
    out[3 * i] = convert_int_sat(d[i]);
    out[3 * i + 1] = convert_char_sat_rte(f[i]);
    out[3 * i + 2] = (int)fract(f[i], &whole) + (int)whole;
}
