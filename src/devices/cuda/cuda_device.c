/*
 * The GPU device's life: opening NVIDIA's driver and finding the GPUs, what
 * each GPU reports (describe, from the driver's attributes), and the
 * executor thread that runs its commands.
 *
 * Commands run one at a time per GPU, in the order the engine submits them
 * (it submits a command only once everything it waits for is complete), on
 * the GPU's stream, and each is waited for before it completes: simple, and
 * every ordering rule of docs/events.md holds because completion means the
 * GPU is done.  Overlapping a command with the next is for later
 * (docs/gpu.md, "How commands run").
 */
#define _GNU_SOURCE
#include "devices/cuda/cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "base/settings.h"
#include "compiler/gpu/ptx.h"
#include "core/engine.h"

mosaic_cuda_driver mosaic_cuda;

cl_int mosaic_cuda_check(CUresult r, const char *call)
{
    if (r != CUDA_SUCCESS && mosaic_debugging(MOSAIC_DEBUG_DEVICE))
        fprintf(stderr, "mosaic: GPU: %s failed: %s\n", call, mosaic_cuda_error_name(&mosaic_cuda, r));
    return mosaic_cuda_cl_error(r);
}

/* CUDA gives a child of fork() nothing of what its parent had opened (nor the
 * GPU's executor thread, which fork does not copy): there, every command on
 * the GPU fails at once, rather than wait for a thread that is not there.
 * A handler of fork() says so (registered when the driver is opened): no
 * system call on each op. */
static bool in_forked_child;

static void note_forked_child(void) { in_forked_child = true; }

static bool forked_away(cuda_gpu *g)
{
    if (!in_forked_child)
        return false;
    if (mosaic_debugging(MOSAIC_DEBUG_DEVICE))
        fprintf(stderr, "mosaic: GPU %u: this process is a child of fork(); CUDA cannot be used here\n", g->ordinal);
    return true;
}

cl_int mosaic_cuda_enter(cuda_gpu *g)
{
    if (forked_away(g))
        return CL_OUT_OF_RESOURCES;
    static __thread CUcontext current; /* what this thread made current last */
    if (current == g->context)
        return CL_SUCCESS;
    cl_int err = CUDA_CALL(cuCtxSetCurrent, g->context);
    if (err == CL_SUCCESS)
        current = g->context;
    return err;
}

/* ---- finding the GPUs ------------------------------------------------------------ */

static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
static unsigned num_gpus;

static void open_driver(void)
{
    const struct mosaic_settings *s = mosaic_settings();
    bool say = mosaic_debugging(MOSAIC_DEBUG_DEVICE);
    if (s->gpu == 0) {
        if (say)
            fprintf(stderr, "mosaic: GPU: not looked for (MOSAIC_GPU=0)\n");
        return;
    }
    if (!mc_ptx_available()) { /* no built-ins: no program could be built for it */
        if (say)
            fprintf(stderr, "mosaic: GPU: none offered: Mosaic was built without libclc's NVPTX library\n");
        return;
    }
    char why[512];
    if (!mosaic_cuda_driver_open(&mosaic_cuda, s->cuda_driver, why, sizeof why)) {
        if (say)
            fprintf(stderr, "mosaic: GPU: none offered: %s\n", why);
        return;
    }
    pthread_atfork(NULL, NULL, note_forked_child);
    int count = 0;
    if (CUDA_CALL(cuDeviceGetCount, &count) != CL_SUCCESS || count < 0)
        count = 0;
    num_gpus = (unsigned)count;
    if (say)
        fprintf(stderr, "mosaic: GPU: CUDA driver %d.%d, %u GPU%s\n", mosaic_cuda.version / 1000,
                mosaic_cuda.version % 1000 / 10, num_gpus, num_gpus == 1 ? "" : "s");
}

unsigned mosaic_cuda_device_count(void)
{
    pthread_once(&driver_once, open_driver);
    return num_gpus;
}

/* ---- describe ----------------------------------------------------------------------- */

static int attribute(cuda_gpu *g, CUdevice_attribute a, int fallback)
{
    int value = 0;
    return CUDA_CALL(cuDeviceGetAttribute, &value, a, g->device) == CL_SUCCESS ? value : fallback;
}

/* What kernels may use, and say so in OpenCL C (clang's -cl-ext) and in
 * CL_DEVICE_EXTENSIONS: only what libclc's NVPTX build gives and the tests
 * run on a GPU (docs/gpu.md, "What the device supports"). */
static const char *const c_extensions[] = {
    "cl_khr_fp64",
    "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    /* sub-groups are warps (builtins/nvptx/subgroups.cl), from compute
     * capability 7.0 (shfl.sync; warps scheduled independently): these stay
     * last, left out below that */
    MOSAIC_SUB_GROUP_EXTENSIONS,
};
static const char *const runtime_extensions[] = {
    "cl_khr_icd",
    "cl_khr_device_uuid",
    "cl_khr_suggested_local_work_size",
    "cl_khr_create_command_queue",
    "cl_khr_priority_hints",
    "cl_khr_throttle_hints",
};
static const char *const c_features[] = {
    "__opencl_c_int64",
    "__opencl_c_fp64",
    /* OpenCL 2.0's atomics (builtins/atomics.cl), as relaxed atomics between
     * membar fences (compiler/workgroup/atomics.c) */
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    /* the GPU's generic addresses (builtins/nvptx/address.cl) */
    "__opencl_c_generic_address_space",
    /* a module's .global variables, which the driver loads with it */
    "__opencl_c_program_scope_global_variables",
    /* last, as above */
    "__opencl_c_subgroups",
};
#define SUB_GROUP_FEATURES 1
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void describe_text(cl_device_id device)
{
    cuda_gpu *g = cuda_gpu_of(device);
    size_t less = g->sub_groups ? 0 : 1;
    mosaic_device_set_extensions(device, runtime_extensions, COUNT(runtime_extensions), c_extensions,
                                 COUNT(c_extensions) - less * MOSAIC_NUM_SUB_GROUP_EXTENSIONS, c_features,
                                 COUNT(c_features) - less * SUB_GROUP_FEATURES, g->extensions,
                                 sizeof g->extensions, g->clang_features, sizeof g->clang_features);
    /* printf calls become __mosaic_printf calls (builtins/nvptx/printf.cl) */
    static const struct mosaic_runtime_symbol symbols[] = {{"__mosaic_printf", NULL}};
    device->compiler_target.runtime_symbols = symbols;
    device->compiler_target.num_runtime_symbols = 1;
    device->il_version = "";
    device->compiler_target.triple = MC_PTX_TRIPLE;
}

static void describe(cl_device_id device)
{
    cuda_gpu *g = cuda_gpu_of(device);
    device->mem_domain = device;
    device->version = CL_MAKE_VERSION(3, 0, 0);
    if (CUDA_CALL(cuDeviceGetName, device->name, (int)sizeof device->name, g->device) != CL_SUCCESS)
        snprintf(device->name, sizeof device->name, "NVIDIA GPU %u", g->ordinal);
    snprintf(device->vendor, sizeof device->vendor, "NVIDIA Corporation");
    device->vendor_id = 0x10de; /* NVIDIA's PCI vendor ID */
    CUuuid uuid;
    if (CUDA_CALL(cuDeviceGetUuid, &uuid, g->device) == CL_SUCCESS)
        memcpy(device->uuid, uuid.bytes, sizeof device->uuid);

    device->compute_units = (cl_uint)attribute(g, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 1);
    device->max_clock_frequency = (cl_uint)(attribute(g, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 0) / 1000);
    size_t total = 0;
    if (CUDA_CALL(cuDeviceTotalMem, &total, g->device) != CL_SUCCESS)
        total = 0;
    device->global_mem_size = total;
    /* OpenCL's least: a quarter of the memory, and at least 128 MiB */
    device->max_mem_alloc_size = total / 4 > ((cl_ulong)128 << 20) ? total / 4 : total;
    device->global_mem_cache_size = (cl_ulong)attribute(g, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 0);
    device->global_mem_cacheline_size = 128;
    device->error_correction = attribute(g, CU_DEVICE_ATTRIBUTE_ECC_ENABLED, 0) != 0;

    /* __local is shared memory: what a block may have once its kernel asks
     * (cuda_kernels.c raises the kernel's limit when a launch needs it) */
    g->shared_per_block = (size_t)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 48 * 1024);
    g->shared_optin = (size_t)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 0);
    if (g->shared_optin < g->shared_per_block)
        g->shared_optin = g->shared_per_block;
    device->local_mem_size = g->shared_optin;
    device->local_mem_type = CL_LOCAL;
    /* __constant pointers are global memory read through the caches */
    device->max_constant_buffer_size = 64 * 1024;
    device->max_constant_args = 8;
    /* cuLaunchKernel takes 4 KiB, but beyond 1024 bytes OpenCL promises 255
     * arguments only (checked at launch), fewer than 4 KiB of 8-byte ones:
     * 2040 bytes is 255 of them, which api's min_max_parameter_size tries */
    device->max_parameter_size = 255 * 8;
    device->max_global_variable_size = 64 * 1024; /* each variable: OpenCL's minimum */

    device->max_work_group_size = (size_t)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024);
    device->max_work_item_sizes[0] = (size_t)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024);
    device->max_work_item_sizes[1] = (size_t)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024);
    device->max_work_item_sizes[2] = (size_t)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64);
    g->max_grid[0] = (unsigned)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 65535);
    g->max_grid[1] = (unsigned)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535);
    g->max_grid[2] = (unsigned)attribute(g, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535);
    device->preferred_work_group_size_multiple = (size_t)attribute(g, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32);
    /* a sub-group is a warp; a block's warps make progress independently */
    device->sub_group_size = g->sub_groups ? 32 : 0; /* every NVIDIA warp, as subgroups.cl assumes */
    device->sub_group_forward_progress = g->sub_groups;

    /* one element at a time: a GPU's lanes are its threads */
    for (int t = 0; t < MOSAIC_VECTOR_TYPES; t++)
        device->preferred_vector_width[t] = device->native_vector_width[t] = t == MOSAIC_VECTOR_HALF ? 0 : 1;
    device->address_bits = 64;
    device->endian_little = true;
    device->single_fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA;
    device->double_fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                               CL_FP_ROUND_TO_INF | CL_FP_FMA;
    device->half_fp_config = 0;
    device->execution_capabilities = CL_EXEC_KERNEL;
    device->queue_on_host_properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
    device->host_unified_memory = false;
    device->printf_buffer_size = mosaic_cuda_printf_buffer_size();
    device->mem_base_addr_align_bits = 128 * 8; /* a cache line; cuMemAlloc gives 256 bytes or more */
    device->svm_capabilities = 0;
    device->image_support = false;
    device->max_on_device_queues = 0;
    describe_text(device);
    device->compiler_target.max_global_variable_size = device->max_global_variable_size;
    device->compiler_target.max_global_variables_total = (size_t)device->max_mem_alloc_size;
    device->compiler_target.max_constant_variables = (size_t)device->max_constant_buffer_size;
}

/* ---- the executor ------------------------------------------------------------------- */

/* Runs one command on the calling thread (the executor's) and completes it. */
static void run(cl_device_id device, cl_event command)
{
    cuda_gpu *g = cuda_gpu_of(device);
    mosaic_command_running(command);
    cl_int status = mosaic_cuda_enter(g);
    if (status == CL_SUCCESS)
        status = command->run ? command->run(command) : mosaic_cuda_launch(command);
    mosaic_command_complete(command, status == CL_SUCCESS ? CL_COMPLETE : status);
}

static void run_job(void *command)
{
    run(((cl_event)command)->queue->device, command);
}

static void submit(cl_device_id device, cl_event command)
{
    cuda_gpu *g = cuda_gpu_of(device);
    if (forked_away(g)) { /* (and the parent's executor may have held its queue's lock at the fork) */
        mosaic_command_complete(command, CL_OUT_OF_RESOURCES);
        return;
    }
    if (!mosaic_serial_post(&g->executor, run_job, command))
        mosaic_command_complete(command, CL_OUT_OF_RESOURCES); /* no memory, or no thread */
}

bool mosaic_cuda_init_device(cl_device_id device, unsigned ordinal)
{
    MOSAIC_ASSERT(ordinal < mosaic_cuda_device_count());
    cuda_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return false;
    g->ordinal = ordinal;
    bool fine = CUDA_CALL(cuDeviceGet, &g->device, (int)ordinal) == CL_SUCCESS &&
                CUDA_CALL(cuDevicePrimaryCtxRetain, &g->context, g->device) == CL_SUCCESS &&
                mosaic_cuda_enter(g) == CL_SUCCESS &&
                CUDA_CALL(cuStreamCreate, &g->stream, CU_STREAM_NON_BLOCKING) == CL_SUCCESS;
    int major = fine ? attribute(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0) : 0;
    int minor = fine ? attribute(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0) : 0;
    /* LLVM 16's NVPTX writes PTX up to sm_90 */
    if (fine && major * 10 + minor > 90) {
        major = 9;
        minor = 0;
    }
    snprintf(g->sm, sizeof g->sm, "sm_%d%d", major, minor);
    g->sub_groups = major >= 7;
    fine = fine && major >= 5 && mosaic_serial_init(&g->executor, "GPU executor");
    device->impl = g;
    if (!fine) {
        if (mosaic_debugging(MOSAIC_DEBUG_DEVICE))
            fprintf(stderr, "mosaic: GPU %u left out: the driver refused its context or stream, or it is older "
                            "than compute capability 5.0 (%s)\n", ordinal, g->sm);
        device->impl = NULL;
        free(g); /* the context and stream stay with the driver: the process is left with them */
        return false;
    }
    describe(device);
    return true;
}

const mosaic_device_ops mosaic_cuda_ops = {
    .describe = describe,
    .compile = mosaic_cuda_compile,
    .link = mosaic_cuda_link,
    .check_binary = mosaic_cuda_check_binary,
    .kernel_work_group_limit = mosaic_cuda_kernel_work_group_limit,
    .finalize = mosaic_cuda_finalize,
    .kernel_preferred_multiple = mosaic_cuda_preferred_multiple,
    .choose_local_size = mosaic_cuda_choose_local_size,
    .mem_alloc = mosaic_cuda_mem_alloc,
    .mem_free = mosaic_cuda_mem_free,
    .storage_read = mosaic_cuda_storage_read,
    .storage_write = mosaic_cuda_storage_write,
    .map_address = mosaic_cuda_map_address,
    .submit = submit,
    .read = mosaic_cuda_read,
    .write = mosaic_cuda_write,
    .copy = mosaic_cuda_copy,
    .fill = mosaic_cuda_fill,
    .map = mosaic_cuda_map,
    .unmap = mosaic_cuda_unmap,
};
