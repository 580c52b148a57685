/* A kernel for tests/gpu/test_gpu_driver.c, compiled to PTX at build time by
 * clang's NVPTX target (tests/gpu/CMakeLists.txt): c = a + b + sqrt(b),
 * staged through shared memory so a barrier and __local are on the way.
 * Written with the NVPTX builtins, as the driver layer is tested before
 * Mosaic's GPU builtins exist. */
kernel void vector_add(global const float *a, global const float *b, global float *c, int n)
{
    local float staged[256];
    int t = __nvvm_read_ptx_sreg_tid_x();
    int i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + t;
    staged[t] = i < n ? a[i] : 0.0f;
    __syncthreads();
    if (i < n)
        c[i] = staged[t] + b[i] + __builtin_sqrtf(b[i]);
}
