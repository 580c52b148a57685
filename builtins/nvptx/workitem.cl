/* The GPU's work-item functions (compiled for nvptx64-unknown-nvidiacl;
 * src/compiler/gpu/ptx.c links them in before libclc, whose copies of these
 * names they replace).  A launch is blocks of the enqueued local size on a
 * grid that starts at group_base (a partial last group is a launch of its
 * own, with smaller blocks), so what the special registers cannot say (the
 * NDRange's offset, size, dimensions, where this launch's groups begin)
 * comes from __mosaic_launch, which the device writes before each launch. */

/* Mirror of mosaic_gpu_launch in src/compiler/compiler.h: keep the two in
 * step (tests/compiler/test_ptx.c checks the size). */
typedef struct {
    ulong global_offset[3];
    ulong global_size[3];
    ulong enqueued_local_size[3];
    ulong num_groups[3];
    ulong group_base[3];
    uint work_dim;
    uint reserved;
} __mosaic_gpu_launch;

/* Not __constant and not static: it must stay an external .global in the PTX
 * so the device finds it by name (cuModuleGetGlobal) and writes it. */
__global __mosaic_gpu_launch __mosaic_launch;

#define L __mosaic_launch

/* The block's registers by dimension (d < 3), never negative: as uint,
 * so they widen to size_t with zeros. */
static size_t tid(uint d)
{
    return d == 0 ? (uint)__nvvm_read_ptx_sreg_tid_x()
           : d == 1 ? (uint)__nvvm_read_ptx_sreg_tid_y()
                    : (uint)__nvvm_read_ptx_sreg_tid_z();
}
static size_t ntid(uint d)
{
    return d == 0 ? (uint)__nvvm_read_ptx_sreg_ntid_x()
           : d == 1 ? (uint)__nvvm_read_ptx_sreg_ntid_y()
                    : (uint)__nvvm_read_ptx_sreg_ntid_z();
}
static size_t ctaid(uint d)
{
    return d == 0 ? (uint)__nvvm_read_ptx_sreg_ctaid_x()
           : d == 1 ? (uint)__nvvm_read_ptx_sreg_ctaid_y()
                    : (uint)__nvvm_read_ptx_sreg_ctaid_z();
}

/* Dimensions past work_dim are the device's to fill as OpenCL answers them
 * (sizes 1, offsets and bases 0), so only d < 3 needs a test. */
uint __attribute__((overloadable)) get_work_dim(void) { return L.work_dim; }
size_t __attribute__((overloadable)) get_global_size(uint d) { return d < 3 ? L.global_size[d] : 1; }
size_t __attribute__((overloadable)) get_global_offset(uint d) { return d < 3 ? L.global_offset[d] : 0; }
size_t __attribute__((overloadable)) get_enqueued_local_size(uint d) { return d < 3 ? L.enqueued_local_size[d] : 1; }
size_t __attribute__((overloadable)) get_num_groups(uint d) { return d < 3 ? L.num_groups[d] : 1; }
/* the block's own size: smaller than the enqueued one in a partial last group */
size_t __attribute__((overloadable)) get_local_size(uint d) { return d < 3 ? ntid(d) : 1; }
size_t __attribute__((overloadable)) get_local_id(uint d) { return d < 3 ? tid(d) : 0; }
size_t __attribute__((overloadable)) get_group_id(uint d) { return d < 3 ? L.group_base[d] + ctaid(d) : 0; }

size_t __attribute__((overloadable)) get_global_id(uint d)
{
    if (d >= 3)
        return 0;
    return (L.group_base[d] + ctaid(d)) * L.enqueued_local_size[d] + tid(d) + L.global_offset[d];
}

size_t __attribute__((overloadable)) get_global_linear_id(void)
{
    size_t g0 = get_global_id(0) - L.global_offset[0];
    size_t g1 = get_global_id(1) - L.global_offset[1];
    size_t g2 = get_global_id(2) - L.global_offset[2];
    return (g2 * L.global_size[1] + g1) * L.global_size[0] + g0;
}

size_t __attribute__((overloadable)) get_local_linear_id(void)
{
    return (tid(2) * ntid(1) + tid(1)) * ntid(0) + tid(0);
}

/* ---- barriers ----------------------------------------------------------------
 * libclc has OpenCL 1.2's barrier (bar.sync, which also orders the block's
 * memory) but not OpenCL 2.0's names for it. */
void __attribute__((overloadable)) work_group_barrier(cl_mem_fence_flags flags) { barrier(flags); }
void __attribute__((overloadable)) work_group_barrier(cl_mem_fence_flags flags, memory_scope scope)
{
    barrier(flags);
}

/* ---- fences (OpenCL 2.0's; libclc has mem_fence and its kin) -------------------
 * membar at the scope asked for: a full fence, which every order needs at most. */
void __attribute__((overloadable)) atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                                          memory_scope scope)
{
    /* clang's numbers: memory_scope_sub_group and _all_svm_devices are
     * declared only with the features that offer them */
    if (order == memory_order_relaxed || scope == memory_scope_work_item)
        return;
    if (scope == __OPENCL_MEMORY_SCOPE_DEVICE)
        __nvvm_membar_gl();
    else if (scope == __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES)
        __nvvm_membar_sys();
    else /* a work-group or a sub-group: the block */
        __nvvm_membar_cta();
}
