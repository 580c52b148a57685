/* Address space qualifier functions (OpenCL C 3.0 section 6.15.10, feature
 * __opencl_c_generic_address_space): to_global, to_local, to_private and
 * get_fence.
 *
 * On the CPU every address space is one flat address space, so a generic
 * pointer's space is found from where it points (the work-group context says
 * where local and private memory are; see mosaic_wg_ctx in compiler.h):
 *   local    inside this work-group's __local arena, [local_mem, local_mem + local_mem_size)
 *   private  inside one of the two private ranges the device gives: the worker
 *            thread's stack, and the stacks (or per-work-item arrays) of the
 *            work-items of a barrier kernel
 *   global   anywhere else (buffers, SVM, program-scope variables)
 * A generic pointer can only hold an address the program obtained legally, so
 * a stack address is the work-item's own private memory.
 *
 * clang emits to_global/to_local/to_private as calls to the C functions
 * __to_global/__to_local/__to_private(generic void *); get_fence is an
 * ordinary overloaded builtin. */
#include "builtins.h"

#define CTX __mosaic_get_ctx()

static bool __mosaic_is_local(const void *p)
{
    const __mosaic_wg_ctx *c = CTX;
    return (ulong)p - (ulong)c->local_mem < c->local_mem_size;
}

static bool __mosaic_is_private(const void *p)
{
    const __mosaic_wg_ctx *c = CTX;
    ulong a = (ulong)p;
    return a - (ulong)c->private_lo[0] < (ulong)c->private_hi[0] - (ulong)c->private_lo[0] ||
           a - (ulong)c->private_lo[1] < (ulong)c->private_hi[1] - (ulong)c->private_lo[1];
}

__global void *__to_global(void *p)
{
    return __mosaic_is_local(p) || __mosaic_is_private(p) ? (__global void *)0 : (__global void *)p;
}

__local void *__to_local(void *p) { return __mosaic_is_local(p) ? (__local void *)p : (__local void *)0; }

__private void *__to_private(void *p)
{
    return !__mosaic_is_local(p) && __mosaic_is_private(p) ? (__private void *)p : (__private void *)0;
}

/* Private memory needs no fence (it is the work-item's own), so its fence is
 * no flag at all, as SPIR-V's OpGenericPtrMemSemantics gives for Function
 * storage. */
OVLD cl_mem_fence_flags get_fence(const void *p)
{
    if (__mosaic_is_local(p))
        return CLK_LOCAL_MEM_FENCE;
    return __mosaic_is_private(p) ? 0 : CLK_GLOBAL_MEM_FENCE;
}

OVLD cl_mem_fence_flags get_fence(void *p) { return get_fence((const void *)p); }
