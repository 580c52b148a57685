/*
 * The GPU device's life: opening NVIDIA's driver and finding the GPUs, what
 * each GPU reports (describe, from the driver's attributes), and the
 * executor thread that runs its commands.
 *
 * Commands run in the order the engine submits them, on the GPU's stream.
 * The executor thread queues each (or the submitting thread, when nothing
 * waits before it: submit); a kernel, a memset or a small copy runs on
 * while the executor goes on to the next command, which the engine may
 * have submitted before the first completed (an in-order queue's next
 * command: the device runs_in_submission_order).  The completer thread
 * waits for each command to end, in the same order, and only then
 * completes it: every ordering rule of docs/events.md holds because
 * completion means the GPU is done (docs/gpu.md, "How commands run").
 */
#define _GNU_SOURCE
#include "devices/cuda/cuda_internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "base/settings.h"
#include "compiler/gpu/ptx.h"
#include "core/engine.h"
#include "core/util.h"

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
    /* the GPU's f16 arithmetic; the functions in float (builtins/half.cl) */
    "cl_khr_fp16",
    /* the CPU's builtins/bit_ops.cl and dot_product.cl, built for the GPU */
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    /* clang's __builtin_expect and __builtin_assume; SPIR-V's OpExpectKHR and OpAssumeTrueKHR */
    "cl_khr_expect_assume",
    /* %globaltimer for the device, %clock64 for work-groups and sub-groups
     * (builtins/nvptx/kernel_clock.cl) */
    "cl_khr_kernel_clock",
    /* and, or, xor, mul and the logical ones over the work-group (builtins/collectives.cl) */
    "cl_khr_work_group_uniform_arithmetic",
    /* sub-groups are warps (builtins/nvptx/subgroups.cl), from compute
     * capability 7.0 (shfl.sync; warps scheduled independently): these stay
     * last, left out below that */
    MOSAIC_SUB_GROUP_EXTENSIONS,
};
static const char *const runtime_extensions[] = {
    "cl_khr_icd",
    /* api/command_buffer.c: recorded commands replayed through the engine,
     * as on the CPU (docs/command-buffers.md) */
    "cl_khr_command_buffer",
    "cl_khr_command_buffer_mutable_dispatch",
    /* SPIR-V programs: the CPU's front end, then its module made NVPTX's
     * (compiler/frontend/spirv_nvptx.c) */
    "cl_khr_il_program",
    "cl_khr_spirv_no_integer_wrap_decoration",
    "cl_khr_spirv_linkonce_odr",
    "cl_khr_spirv_queries",
    "cl_khr_device_uuid",
    "cl_khr_suggested_local_work_size",
    "cl_khr_create_command_queue",
    "cl_khr_priority_hints",
    "cl_khr_throttle_hints",
};
static const char *const c_features[] = {
    "__opencl_c_int64",
    "__opencl_c_fp64",
    "__opencl_c_fp16",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group",
    /* the CPU's builtins/collectives.cl with a block's shared scratch */
    "__opencl_c_work_group_collective_functions",
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
    device->il_version = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"; /* as the CPU's */
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
        device->preferred_vector_width[t] = device->native_vector_width[t] = 1;
    device->address_bits = 64;
    device->endian_little = true;
    device->single_fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA;
    device->double_fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                               CL_FP_ROUND_TO_INF | CL_FP_FMA;
    /* f16 instructions keep subnormals and round to nearest even */
    device->half_fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA;
    device->execution_capabilities = CL_EXEC_KERNEL;
    device->queue_on_host_properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
    device->host_unified_memory = false;
    device->printf_buffer_size = mosaic_cuda_printf_buffer_size();
    device->mem_base_addr_align_bits = 128 * 8; /* a cache line; cuMemAlloc gives 256 bytes or more */
    /* SVM is managed memory (cuda_memory.c): coarse-grained buffers where the
     * GPU has it, fine-grained where the host may touch it while kernels run
     * (concurrent managed access); no SVM atomics between host and GPU */
    if (attribute(g, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0) && attribute(g, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 0))
        device->svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                   (attribute(g, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 0)
                                        ? CL_DEVICE_SVM_FINE_GRAIN_BUFFER
                                        : 0);
    device->image_support = false;
    device->max_on_device_queues = 0;
    describe_text(device);
    device->compiler_target.max_global_variable_size = device->max_global_variable_size;
    device->compiler_target.max_global_variables_total = (size_t)device->max_mem_alloc_size;
    device->compiler_target.max_constant_variables = (size_t)device->max_constant_buffer_size;
}

/* ---- the executor and the completer ------------------------------------------------ */

/* An event recorded on the stream after a kernel, for the completer to wait
 * on: a spare one when there is one (creating one costs more than reusing). */
static CUevent take_event(cuda_gpu *g)
{
    CUevent e = NULL;
    pthread_mutex_lock(&g->spare_lock);
    if (g->num_spare)
        e = g->spare[--g->num_spare];
    pthread_mutex_unlock(&g->spare_lock);
    if (!e && CUDA_CALL(cuEventCreate, &e, CU_EVENT_DISABLE_TIMING) != CL_SUCCESS)
        e = NULL;
    return e;
}

static void give_back_event(cuda_gpu *g, CUevent e)
{
    pthread_mutex_lock(&g->spare_lock);
    if (g->num_spare == g->cap_spare) {
        size_t cap = g->cap_spare ? 2 * g->cap_spare : 16;
        CUevent *more = realloc(g->spare, cap * sizeof *more);
        if (more) {
            g->spare = more;
            g->cap_spare = cap;
        }
    }
    bool kept = g->num_spare < g->cap_spare;
    if (kept)
        g->spare[g->num_spare++] = e;
    pthread_mutex_unlock(&g->spare_lock);
    if (!kept)
        CUDA_CALL(cuEventDestroy, e);
}

/* What the executor hands the completer for one command. */
typedef struct completion {
    cl_event command;
    CUevent done;   /* recorded after a command still running; NULL: it has ended */
    bool running;   /* mosaic_command_running was called */
    cl_int status;
    cuda_after_end after; /* a read's bytes to copy out of the staging memory */
} completion;

/* On the completer: the commands before this one have completed, so this
 * one runs on the GPU now (its profiling START), until its event. */
static void complete_job(void *p)
{
    completion *c = p;
    cuda_gpu *g = cuda_gpu_of(c->command->queue->device);
    if (!c->running)
        mosaic_command_running(c->command);
    if (c->done) {
        cl_int err = mosaic_cuda_enter(g);
        if (err == CL_SUCCESS)
            err = CUDA_CALL(cuEventSynchronize, c->done);
        if (c->status == CL_SUCCESS)
            c->status = err; /* (a fault in the kernel shows here) */
        give_back_event(g, c->done);
    }
    mosaic_cuda_after_end(g, &c->after, c->status == CL_SUCCESS);
    mosaic_command_complete(c->command, c->status == CL_SUCCESS ? CL_COMPLETE : c->status);
    free(c);
    __atomic_fetch_sub(&g->unfinished, 1, __ATOMIC_RELEASE);
}

static bool all_finished(const void *g)
{
    return __atomic_load_n(&((const cuda_gpu *)g)->unfinished, __ATOMIC_ACQUIRE) == 0;
}

/* Until the completer has completed every command given to it: they have
 * ended on the GPU, and their ends are told.  (It never waits for the
 * executor: the issue lock, which the executor holds, is only tried.) */
static void wait_for_the_rest(cuda_gpu *g)
{
    while (!mosaic_spin_until(all_finished, g))
        sched_yield();
}

/* Completes a command the completer cannot be given (no memory): after the
 * ones before it. */
static void complete_after_the_rest(cuda_gpu *g, cl_event command, cl_int status)
{
    wait_for_the_rest(g);
    mosaic_command_complete(command, status);
}

/* Hands a command to the completer (its status, its event when it still
 * runs); with g->issue held, so that the completer's order is the stream's. */
static void hand_over(cuda_gpu *g, completion *c)
{
    __atomic_fetch_add(&g->unfinished, 1, __ATOMIC_RELAXED);
    if (!mosaic_serial_post(&g->completer, complete_job, c)) { /* no memory, or no thread */
        __atomic_fetch_sub(&g->unfinished, 1, __ATOMIC_RELAXED);
        cl_event command = c->command;
        cl_int status = c->status;
        if (c->done) { /* its end, here: the staging bytes are read then */
            CUDA_CALL(cuStreamSynchronize, g->stream);
            give_back_event(g, c->done);
        }
        mosaic_cuda_after_end(g, &c->after, status == CL_SUCCESS);
        free(c);
        complete_after_the_rest(g, command, status == CL_SUCCESS ? CL_OUT_OF_RESOURCES : status);
    }
}

/* Queues a command that the stream does by itself (a kernel that does not
 * print, a memset, a copy between buffers, a small read or write through
 * the staging memory) and hands it to the completer, with an event recorded
 * after it; called with g->issue held.  Nothing waits here for the GPU.
 * false: the command is none of those (or the staging memory is full);
 * nothing was done. */
static bool queue_on_stream(cuda_gpu *g, cl_event command)
{
    if (command->run ? !mosaic_cuda_queueable(command) : mosaic_cuda_kernel_prints(command->payload))
        return false;
    completion *c = malloc(sizeof *c);
    if (!c)
        return false; /* (run reports it) */
    *c = (completion){.command = command};
    bool in_flight = false;
    cl_int status = mosaic_cuda_enter(g);
    if (status == CL_SUCCESS && !command->run) {
        status = mosaic_cuda_launch(command, &in_flight);
    } else if (status == CL_SUCCESS && !mosaic_cuda_queue(command, &status, &in_flight, &c->after)) {
        free(c);
        return false;
    }
    if (in_flight && (c->done = take_event(g)) != NULL &&
        CUDA_CALL(cuEventRecord, c->done, g->stream) != CL_SUCCESS) {
        give_back_event(g, c->done);
        c->done = NULL;
    }
    if (in_flight && !c->done)
        status = CUDA_CALL(cuStreamSynchronize, g->stream); /* no event: wait here */
    c->status = status;
    hand_over(g, c);
    return true;
}

/* Runs one command on the executor, with g->issue held: on the stream when
 * it can go there, else by its op, which returns once it is done (a copy
 * between host memory and the GPU's, a map, a host function) and starts
 * once the commands before it have completed. */
static void run(cuda_gpu *g, cl_event command)
{
    if (queue_on_stream(g, command))
        return;
    completion *c = malloc(sizeof *c);
    if (!c) {
        complete_after_the_rest(g, command, CL_OUT_OF_HOST_MEMORY);
        return;
    }
    *c = (completion){.command = command};
    cl_int status = mosaic_cuda_enter(g);
    if (status == CL_SUCCESS && !command->run) {
        bool in_flight = false; /* a kernel that prints: waited for in the launch */
        status = mosaic_cuda_launch(command, &in_flight);
        if (in_flight)
            status = CUDA_CALL(cuStreamSynchronize, g->stream);
    } else if (status == CL_SUCCESS) {
        /* the ops copy with calls that do not wait for the stream; and the
         * command starts after the one before it has completed */
        wait_for_the_rest(g);
        c->running = true;
        mosaic_command_running(command);
        status = command->run(command);
    }
    c->status = status;
    hand_over(g, c);
}

static void run_job(void *command)
{
    cuda_gpu *g = cuda_gpu_of(((cl_event)command)->queue->device);
    pthread_mutex_lock(&g->issue);
    run(g, command);
    __atomic_fetch_sub(&g->queued, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g->issue);
}

/* The most commands the submitting thread queues on the stream ahead of
 * the completer: well inside the driver's queue of launches, where a
 * launch would wait for room. */
enum { QUEUED_AHEAD_MOST = 64 };

/* A command the stream does by itself (queue_on_stream) is queued by the
 * submitting thread itself when the executor has nothing before it: no
 * hand-over to a thread that may be asleep, where the command's latency is
 * all there is to save.  Anything else goes to the executor, in order, as
 * does everything while the executor has commands or the completer has
 * many: a long stream of launches is the executor's, and the enqueuing
 * thread goes on.  (submit may be called on the completer, which completed
 * the command this one waited for: nothing here waits for it.) */
static void submit(cl_device_id device, cl_event command)
{
    cuda_gpu *g = cuda_gpu_of(device);
    if (forked_away(g)) { /* (and the parent's executor may have held its queue's lock at the fork) */
        mosaic_command_complete(command, CL_OUT_OF_RESOURCES);
        return;
    }
    if (__atomic_load_n(&g->queued, __ATOMIC_ACQUIRE) == 0 &&
        __atomic_load_n(&g->unfinished, __ATOMIC_ACQUIRE) < QUEUED_AHEAD_MOST &&
        pthread_mutex_trylock(&g->issue) == 0) {
        /* (an executor job waits for issue) */
        bool done = __atomic_load_n(&g->queued, __ATOMIC_ACQUIRE) == 0 && queue_on_stream(g, command);
        pthread_mutex_unlock(&g->issue);
        if (done)
            return;
    }
    __atomic_fetch_add(&g->queued, 1, __ATOMIC_ACQ_REL);
    if (!mosaic_serial_post(&g->executor, run_job, command)) {
        __atomic_fetch_sub(&g->queued, 1, __ATOMIC_RELEASE);
        mosaic_command_complete(command, CL_OUT_OF_RESOURCES); /* no memory, or no thread */
    }
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
    fine = fine && major >= 5 && mosaic_serial_init(&g->executor, "GPU executor", true) &&
           mosaic_serial_init(&g->completer, "GPU completer", true) &&
           pthread_mutex_init(&g->spare_lock, NULL) == 0 && pthread_mutex_init(&g->issue, NULL) == 0;
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
    device->runs_in_submission_order = true;
    return true;
}

const mosaic_device_ops mosaic_cuda_ops = {
    .describe = describe,
    .compile = mosaic_target_compile,
    .link = mosaic_target_link,
    .check_binary = mosaic_target_check_binary,
    .check_il = mosaic_target_check_il,
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
    .svm_alloc = mosaic_cuda_svm_alloc,
    .svm_free = mosaic_cuda_svm_free,
    .svm_copy = mosaic_host_svm_copy,
    .svm_fill = mosaic_host_svm_fill,
};
