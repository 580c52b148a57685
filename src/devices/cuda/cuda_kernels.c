/*
 * The GPU device's programs and launches.  A program goes through the same
 * front end as the CPU's (OpenCL C to bitcode, for nvptx64: the device's
 * compiler_target), is linked as bitcode, and finalize makes PTX of it
 * (mosaic_finalize_ptx: libclc's built-ins, Mosaic's work-item functions)
 * that the driver's JIT loads as one module per program.
 *
 * A launch runs each work-group as a thread block of exactly its size.  An
 * NDRange whose size is not a multiple of the local size has smaller last
 * groups: they run as launches of their own, with smaller blocks, so that
 * get_local_size is the block's size and no thread has to stand idle at a
 * barrier.  What the work-item functions need (offsets, sizes, the first
 * group's id) is each kernel's last parameter, and, where a function the
 * optimiser did not inline reads it, the module's MOSAIC_GPU_LAUNCH_SYMBOL,
 * written before the launch on the same stream.
 */
#include "devices/cuda/cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "base/strbuf.h"
#include "core/ndrange.h"

/* ---- programs ------------------------------------------------------------------------ */

/* A program's PTX as the driver loaded it (attached to its executable). */
typedef struct gpu_module {
    cuda_gpu *gpu;
    CUmodule module;
    CUdeviceptr launch; /* MOSAIC_GPU_LAUNCH_SYMBOL; 0 when no kernel reads it */
    /* What the GPU's copy of it holds (valid once written): a launch like
     * the last one writes nothing.  Only the executor launches kernels, one
     * at a time, so only it reads and writes these. */
    mosaic_gpu_launch written;
    bool written_valid;
    cuda_printf printf_buffer;
    size_t num_kernels;
    size_t *max_threads;    /* each kernel's most threads a block: what its registers allow */
    CUfunction functions[]; /* by the executable's kernel index */
} gpu_module;

static void module_release(void *data)
{
    gpu_module *m = data;
    if (mosaic_cuda_enter(m->gpu) == CL_SUCCESS) {
        mosaic_cuda_printf_release(&m->printf_buffer);
        CUDA_CALL(cuModuleUnload, m->module);
    }
    free(m->max_threads);
    free(m);
}

/* Loads the PTX with the driver's JIT; its error log goes to the build log. */
static cl_int load_module(cuda_gpu *g, const mosaic_executable *exe, gpu_module **out, mosaic_strbuf *log)
{
    size_t ptx_size = 0;
    const char *ptx = mosaic_executable_ptx(exe, &ptx_size);
    size_t n = mosaic_executable_num_kernels(exe);
    gpu_module *m = calloc(1, sizeof *m + n * sizeof m->functions[0]);
    if (!m)
        return CL_OUT_OF_HOST_MEMORY;
    m->gpu = g;
    m->num_kernels = n;
    m->max_threads = calloc(n ? n : 1, sizeof *m->max_threads);
    if (!m->max_threads) {
        free(m);
        return CL_OUT_OF_HOST_MEMORY;
    }
    char jit_log[4096] = "";
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {jit_log, (void *)(uintptr_t)sizeof jit_log};
    cl_int err = mosaic_cuda_enter(g);
    CUresult r = err == CL_SUCCESS ? mosaic_cuda.cuModuleLoadDataEx(&m->module, ptx, 2, options, values)
                                   : CUDA_ERROR_INVALID_CONTEXT;
    if (r != CUDA_SUCCESS) {
        jit_log[sizeof jit_log - 1] = '\0';
        mosaic_strbuf_printf(log, "error: the CUDA driver could not load the program's PTX for %s: %s%s%s\n", g->sm,
                             mosaic_cuda_error_name(&mosaic_cuda, r), jit_log[0] ? "\n" : "", jit_log);
        free(m->max_threads);
        free(m);
        return err != CL_SUCCESS ? err : mosaic_cuda_cl_error(r);
    }
    for (size_t k = 0; k < n && err == CL_SUCCESS; k++) {
        const char *name = mosaic_executable_kernel(exe, k)->name;
        r = mosaic_cuda.cuModuleGetFunction(&m->functions[k], m->module, name);
        int threads = 0;
        if (r == CUDA_SUCCESS)
            r = mosaic_cuda.cuFuncGetAttribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, m->functions[k]);
        if (r != CUDA_SUCCESS) {
            mosaic_strbuf_printf(log, "error: the loaded program has no kernel '%s': %s\n", name,
                                 mosaic_cuda_error_name(&mosaic_cuda, r));
            err = CL_BUILD_PROGRAM_FAILURE;
        }
        m->max_threads[k] = threads > 0 ? (size_t)threads : 1;
    }
    size_t launch_size = 0;
    if (err == CL_SUCCESS &&
        mosaic_cuda.cuModuleGetGlobal(&m->launch, &launch_size, m->module, MOSAIC_GPU_LAUNCH_SYMBOL) != CUDA_SUCCESS)
        m->launch = 0; /* no kernel reads it */
    if (err == CL_SUCCESS && m->launch && launch_size != sizeof(mosaic_gpu_launch)) {
        mosaic_strbuf_printf(log, "error: the program's %s has %zu bytes, not %zu\n", MOSAIC_GPU_LAUNCH_SYMBOL,
                             launch_size, sizeof(mosaic_gpu_launch));
        err = CL_BUILD_PROGRAM_FAILURE;
    }
    if (err == CL_SUCCESS)
        err = mosaic_cuda_printf_setup(g, m->module, &m->printf_buffer, log);
    if (err != CL_SUCCESS) {
        module_release(m);
        return err;
    }
    *out = m;
    return CL_SUCCESS;
}

cl_int mosaic_cuda_finalize(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                            mosaic_executable **out, char **log_out)
{
    cuda_gpu *g = cuda_gpu_of(device);
    char *log = NULL;
    cl_int err = mosaic_finalize_ptx(&device->compiler_target, executable, options, g->sm, out, &log);
    if (err != CL_SUCCESS) {
        *log_out = log;
        return err;
    }
    mosaic_strbuf more = {0};
    if (log)
        mosaic_strbuf_puts(&more, log);
    free(log);
    gpu_module *m = NULL;
    err = load_module(g, *out, &m, &more);
    if (err == CL_SUCCESS) {
        mosaic_executable_attach(*out, m, module_release);
    } else {
        mosaic_executable_free(*out);
        *out = NULL;
    }
    *log_out = more.data ? more.data : strdup("");
    return err;
}

/* ---- launch decisions ---------------------------------------------------------------- */


size_t mosaic_cuda_preferred_multiple(cl_device_id device, const mosaic_kernel_info *kernel)
{
    (void)kernel;
    return device->preferred_work_group_size_multiple; /* a warp */
}

/* The largest divisor of n that is at most limit. */
static size_t divisor_at_most(size_t n, size_t limit)
{
    for (size_t d = limit < n ? limit : n; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

/* Up to 256 work-items a group (8 warps: room for several blocks on each
 * multiprocessor), the first dimension first so that neighbouring
 * work-items read neighbouring addresses.  A small NDRange gets smaller
 * groups, down to 64 work-items, until there are two for each
 * multiprocessor: 16384 work-items in groups of 256 would leave half of an
 * H200's 132 idle. */
void mosaic_cuda_choose_local_size(cl_device_id device, const mosaic_kernel_info *kernel, cl_uint work_dim,
                                   const size_t global[3], size_t max_group, size_t local[3])
{
    (void)kernel;
    size_t budget = max_group < 256 ? max_group : 256;
    size_t items;
    if (__builtin_mul_overflow(global[0], global[1], &items) || __builtin_mul_overflow(items, global[2], &items))
        items = SIZE_MAX;
    while (budget > 64 && items / budget < 2 * (size_t)device->compute_units)
        budget /= 2;
    for (cl_uint d = 0; d < 3; d++) {
        size_t limit = budget < device->max_work_item_sizes[d] ? budget : device->max_work_item_sizes[d];
        local[d] = d < work_dim ? divisor_at_most(global[d], limit) : 1;
        budget /= local[d];
    }
}

/* ---- launches ------------------------------------------------------------------------ */

/* The kernel's index among its executable's. */
static size_t kernel_index(const mosaic_executable *exe, const mosaic_kernel_info *info)
{
    size_t n = mosaic_executable_num_kernels(exe);
    for (size_t k = 0; k < n; k++)
        if (mosaic_executable_kernel(exe, k) == info)
            return k;
    return n;
}

/* what the kernel's registers allow (the driver said at load) */
size_t mosaic_cuda_kernel_work_group_limit(cl_device_id device, const mosaic_executable *exe,
                                           const mosaic_kernel_info *kernel)
{
    const gpu_module *m = mosaic_executable_attached(exe);
    size_t k = kernel_index(exe, kernel);
    size_t most = m && k < m->num_kernels ? m->max_threads[k] : device->max_work_group_size;
    return most < device->max_work_group_size ? most : device->max_work_group_size;
}

/* The blocks of one part of the NDRange (whole groups, or the smaller last
 * ones in some dimensions): count[d] groups from group first[d], each of
 * block[d] work-items, in launches of at most the GPU's grid. */
typedef struct launch_part {
    size_t first[3], count[3];
    unsigned block[3];
} launch_part;

/* params: the kernel's arguments, and last the address of *l, the
 * launch's values (compiler/gpu/ptx.c makes them the kernel's last
 * parameter), which this fills for each launch */
static cl_int launch_part_run(cuda_gpu *g, gpu_module *m, CUfunction f, const mosaic_ndrange *nd,
                              const launch_part *p, unsigned shared, void **params, mosaic_gpu_launch *l)
{
    memset(l, 0, sizeof *l);
    for (int d = 0; d < 3; d++) {
        l->global_offset[d] = nd->global_offset[d];
        l->global_size[d] = nd->global_size[d];
        l->enqueued_local_size[d] = nd->local_size[d];
        l->num_groups[d] = nd->num_groups[d];
    }
    l->work_dim = nd->work_dim;
    size_t at[3];
    for (at[2] = 0; at[2] < p->count[2]; at[2] += g->max_grid[2])
        for (at[1] = 0; at[1] < p->count[1]; at[1] += g->max_grid[1])
            for (at[0] = 0; at[0] < p->count[0]; at[0] += g->max_grid[0]) {
                unsigned grid[3];
                for (int d = 0; d < 3; d++) {
                    size_t left = p->count[d] - at[d];
                    grid[d] = (unsigned)(left < g->max_grid[d] ? left : g->max_grid[d]);
                    l->group_base[d] = p->first[d] + at[d];
                }
                /* what a function the optimiser did not inline reads: the
                 * module's copy (a copy from pageable memory waits for the
                 * stream: worth sparing) */
                cl_int err = CL_SUCCESS;
                if (m->launch && (!m->written_valid || memcmp(&m->written, l, sizeof *l) != 0)) {
                    m->written_valid = false;
                    err = CUDA_CALL(cuMemcpyHtoDAsync, m->launch, l, sizeof *l, g->stream);
                    if (err == CL_SUCCESS) {
                        m->written = *l;
                        m->written_valid = true;
                    }
                }
                if (err == CL_SUCCESS) /* (cuLaunchKernel copies *l) */
                    err = CUDA_CALL(cuLaunchKernel, f, grid[0], grid[1], grid[2], p->block[0], p->block[1],
                                    p->block[2], shared, g->stream, params, NULL);
                if (err != CL_SUCCESS)
                    return err;
            }
    return CL_SUCCESS;
}

bool mosaic_cuda_kernel_prints(const mosaic_ndrange *nd)
{
    const gpu_module *m = mosaic_executable_attached(nd->executable);
    return m && m->printf_buffer.area;
}

cl_int mosaic_cuda_launch(cl_event command, bool *in_flight)
{
    *in_flight = false;
    cuda_gpu *g = cuda_gpu_of(command->queue->device);
    const mosaic_ndrange *nd = command->payload;
    const mosaic_executable *exe = nd->executable;
    gpu_module *m = mosaic_executable_attached(exe);
    size_t k = kernel_index(exe, nd->info);
    if (!m || k >= m->num_kernels)
        return CL_INVALID_PROGRAM_EXECUTABLE;
    CUfunction f = m->functions[k];

    /* The arguments as the PTX takes them: __local ones as 32-bit offsets
     * into the block's dynamic shared memory, whose first one is at 0. */
    cl_uint n = nd->info->num_args;
    void *small_params[17];
    uint32_t small_offsets[16];
    void **params = n <= 16 ? small_params : calloc(n + 1, sizeof *params);
    uint32_t *offsets = n <= 16 ? small_offsets : calloc(n, sizeof *offsets);
    cl_int err = params && offsets ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    uint64_t base = UINT64_MAX;
    for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++)
        if (nd->info->args[i].kind == MOSAIC_ARG_LOCAL_PTR && *(const uint64_t *)nd->args[i] < base)
            base = *(const uint64_t *)nd->args[i];
    for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++) {
        switch (nd->info->args[i].kind) {
        case MOSAIC_ARG_LOCAL_PTR:
            offsets[i] = (uint32_t)(*(const uint64_t *)nd->args[i] - base);
            params[i] = &offsets[i];
            break;
        case MOSAIC_ARG_BY_VALUE:
        case MOSAIC_ARG_GLOBAL_PTR:
        case MOSAIC_ARG_CONSTANT_PTR:
            params[i] = nd->args[i];
            break;
        default: /* images, samplers, pipes: the device reports none */
            err = CL_INVALID_KERNEL_ARGS;
        }
    }
    mosaic_gpu_launch launch;
    if (params)
        params[n] = &launch;
    unsigned shared = base == UINT64_MAX || nd->local_mem_size <= base ? 0 : (unsigned)(nd->local_mem_size - base);
    int fixed = 0;
    if (err == CL_SUCCESS && shared &&
        (err = CUDA_CALL(cuFuncGetAttribute, &fixed, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f)) == CL_SUCCESS &&
        (size_t)fixed + shared > g->shared_per_block) /* beyond 48 KiB, a kernel must ask */
        err = CUDA_CALL(cuFuncSetAttribute, f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)shared);

    /* whole groups, then in each dimension with a remainder the smaller last group */
    /* (an NDRange of 0 work-items has no groups: nothing runs) */
    size_t whole[3] = {0, 0, 0}, rest[3] = {0, 0, 0};
    for (int d = 0; d < 3 && nd->total_groups; d++) {
        whole[d] = nd->global_size[d] / nd->local_size[d];
        rest[d] = nd->global_size[d] % nd->local_size[d];
    }
    for (unsigned part = 0; part < 8 && err == CL_SUCCESS && nd->total_groups; part++) {
        launch_part p;
        bool empty = false;
        for (int d = 0; d < 3; d++) {
            bool last = part >> d & 1;
            p.first[d] = last ? whole[d] : 0;
            p.count[d] = last ? (rest[d] ? 1 : 0) : whole[d];
            p.block[d] = (unsigned)(last ? rest[d] : nd->local_size[d]);
            empty |= p.count[d] == 0;
        }
        if (!empty)
            err = launch_part_run(g, m, f, nd, &p, shared, params, &launch);
    }
    /* A kernel that prints is waited for here: what it printed is written
     * out before the command completes.  Any other runs on while the
     * executor goes on (cuda_device.c). */
    cl_int waited = CL_SUCCESS;
    if (err == CL_SUCCESS && !m->printf_buffer.area)
        *in_flight = nd->total_groups != 0;
    else if ((waited = CUDA_CALL(cuStreamSynchronize, g->stream)) == CL_SUCCESS && nd->total_groups)
        waited = mosaic_cuda_printf_flush(g, &m->printf_buffer);
    if (params != small_params)
        free(params);
    if (offsets != small_offsets)
        free(offsets);
    return err != CL_SUCCESS ? err : waited;
}
