/* Address space qualifier functions on the GPU (OpenCL C 3.0 section
 * 6.15.10, feature __opencl_c_generic_address_space): to_global, to_local,
 * to_private and get_fence.
 *
 * A GPU's generic address says which memory it is in, and PTX's isspacep
 * asks: .global is OpenCL's __global, .shared its __local, .local its
 * __private.  clang emits to_global/to_local/to_private as calls to the C
 * functions __to_global/__to_local/__to_private(generic void *), as on the
 * CPU (builtins/address.cl, which finds the space from where the CPU keeps
 * each memory instead). */

/* The address in space `space`'s own window: cvta.to, opaque to LLVM,
 * which would otherwise fold a __local pointer's way through the generic
 * space into a cast from __local to __global that the NVPTX back end
 * cannot make (it stops the process). */
#define CVTA_TO(space, p)                                                         \
    ({                                                                           \
        ulong out_;                                                              \
        __asm__("cvta.to." space ".u64 %0, %1;" : "=l"(out_) : "l"((ulong)(p))); \
        out_;                                                                    \
    })

__global void *__to_global(void *p)
{
    return __nvvm_isspacep_global(p) ? (__global void *)CVTA_TO("global", p) : (__global void *)0;
}

__local void *__to_local(void *p)
{
    return __nvvm_isspacep_shared(p) ? (__local void *)CVTA_TO("shared", p) : (__local void *)0;
}

/* private and generic are one address space to NVPTX: no conversion */
__private void *__to_private(void *p) { return __nvvm_isspacep_local(p) ? (__private void *)p : (__private void *)0; }

/* private memory is the work-item's own: no fence at all, as on the CPU */
__attribute__((overloadable)) cl_mem_fence_flags get_fence(const void *p)
{
    if (__nvvm_isspacep_shared(p))
        return CLK_LOCAL_MEM_FENCE;
    return __nvvm_isspacep_local(p) ? 0 : CLK_GLOBAL_MEM_FENCE;
}

__attribute__((overloadable)) cl_mem_fence_flags get_fence(void *p) { return get_fence((const void *)p); }
