/* clEnqueueNDRangeKernel, clEnqueueTask and clEnqueueNativeKernel: check the
 * launch, capture the kernel's arguments, and hand the command to the engine. */
#include "core/device.h"
#include "core/engine.h"
#include "api/kernel.h"
#include "api/memory.h"
#include "core/ndrange.h"
#include "core/objects.h"
#include "core/recycle.h"
#include "api/program.h"
#include "core/util.h"
#include "api/entry.h"
#include "api/enqueue.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The launch and everything it captures are one allocation (an enqueue is
 * on the hot path): the mosaic_ndrange, then args[n], mems[n], and the
 * argument bytes. */
static mosaic_ndrange *new_ndrange(cl_kernel kernel)
{
    cl_uint n = kernel->info->num_args, images = 0;
    for (cl_uint i = 0; i < n; i++)
        images += kernel->info->args[i].kind == MOSAIC_ARG_IMAGE;
    /* by-value bytes first (as laid out by the kernel), then one 8-byte slot per pointer argument, then
     * the descriptors of the image arguments (docs/images.md) */
    size_t storage = ((kernel->arg_bytes_size + 7) & ~(size_t)7) + n * sizeof(uint64_t) +
                     images * sizeof(mosaic_image_desc);
    size_t head = (sizeof(mosaic_ndrange) + n * (sizeof(void *) + sizeof(cl_mem)) + 15) & ~(size_t)15;
    mosaic_ndrange *nd = mosaic_recycled_calloc(head + storage);
    if (!nd)
        return NULL;
    nd->args = (void **)(nd + 1);
    nd->mems = (cl_mem *)(nd->args + n);
    nd->arg_storage = (char *)nd + head;
    return nd;
}

void mosaic_free_ndrange(mosaic_ndrange *nd)
{
    for (cl_uint i = 0; i < nd->num_mems; i++)
        mosaic_release_internal(nd->mems[i]);
    if (nd->kernel)
        mosaic_release_internal(nd->kernel);
    mosaic_recycle(nd);
}

static void cleanup_ndrange(cl_event command)
{
    mosaic_free_ndrange(command->payload);
    command->payload = NULL;
}

/* The largest NDRange a device runs, in work-items rounded up to whole
 * work-groups: 2^63.  Devices count work-groups and work-items in size_t and
 * claim groups past the end of the range (a worker's counter may pass the
 * last group by a chunk), so a count near SIZE_MAX would wrap and run
 * nothing, or part of the range, while reporting success. */
#define MAX_WORK_ITEMS ((size_t)1 << 63)

/* The number of work-groups in one dimension, rounded up, without the
 * overflow of (global + local - 1) / local. */
static size_t groups_in(size_t global, size_t local)
{
    return global / local + (global % local != 0);
}

static cl_int check_work_item_count(cl_uint work_dim, const size_t *global, const size_t *local)
{
    size_t total = 1;
    for (cl_uint d = 0; d < work_dim && global; d++) {
        size_t padded;
        if (__builtin_mul_overflow(groups_in(global[d], local[d]), local[d], &padded) ||
            __builtin_mul_overflow(total, padded, &total) || total > MAX_WORK_ITEMS)
            return MOSAIC_ERROR(CL_INVALID_GLOBAL_WORK_SIZE,
                                "the NDRange has more than 2^63 work-items (rounded up to whole work-groups)");
    }
    return CL_SUCCESS;
}

static cl_int check_launch(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim, const size_t *offset,
                           const size_t *global, const size_t *local, size_t *local_out)
{
    cl_device_id device = queue->device;
    const mosaic_kernel_info *info = mosaic_kernel_info_on(kernel, device);
    if (!info)
        return MOSAIC_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "kernel %s was not built for %s", info->name,
                            device->name);
    if (work_dim < 1 || work_dim > 3)
        return MOSAIC_ERROR(CL_INVALID_WORK_DIMENSION, "work_dim must be 1, 2 or 3, not %u", work_dim);
    for (cl_uint d = 0; d < work_dim; d++) {
        size_t g = global ? global[d] : 0, o = offset ? offset[d] : 0;
        if (g > SIZE_MAX - o)
            return MOSAIC_ERROR(CL_INVALID_GLOBAL_OFFSET, "global offset + size overflows in dimension %u", d);
    }
    const size_t *reqd = info->reqd_work_group_size;
    size_t max_wg = mosaic_kernel_max_work_group_size(kernel, device);
    if (!max_wg)
        return MOSAIC_ERROR(CL_OUT_OF_RESOURCES, "kernel %s: one work-item's private memory (%zu bytes) is more than "
                            "the device gives a work-group", info->name, info->private_mem_size);
    if (local) {
        size_t total = 1;
        for (cl_uint d = 0; d < work_dim; d++) {
            if (local[d] == 0 || local[d] > device->max_work_item_sizes[d])
                return MOSAIC_ERROR(CL_INVALID_WORK_ITEM_SIZE, "local_work_size[%u] = %zu is outside 1..%zu", d,
                                    local[d], device->max_work_item_sizes[d]);
            total *= local[d];
        }
        if (total > max_wg)
            return MOSAIC_ERROR(CL_INVALID_WORK_GROUP_SIZE, "a work-group of %zu work-items exceeds the kernel's limit "
                                "of %zu (CL_KERNEL_WORK_GROUP_SIZE; its private memory: %zu bytes a work-item)", total,
                                max_wg, info->private_mem_size);
        if (reqd[0])
            for (cl_uint d = 0; d < 3; d++)
                if ((d < work_dim ? local[d] : 1) != reqd[d])
                    return MOSAIC_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                                        "the kernel requires reqd_work_group_size(%zu,%zu,%zu)", reqd[0], reqd[1], reqd[2]);
        bool non_uniform_ok = mosaic_program_allows_non_uniform(kernel->program);
        for (cl_uint d = 0; d < work_dim; d++)
            if (global && global[d] % local[d] && !non_uniform_ok)
                return MOSAIC_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                                    "global_work_size[%u] = %zu is not a multiple of local_work_size[%u] = %zu "
                                    "(non-uniform work-groups need -cl-std=CL2.0 or later)", d, global[d], d, local[d]);
        for (cl_uint d = 0; d < 3; d++)
            local_out[d] = d < work_dim ? local[d] : 1;
    } else if (reqd[0]) {
        for (cl_uint d = 0; d < 3; d++)
            local_out[d] = reqd[d];
        for (cl_uint d = 0; d < work_dim; d++)
            if (global && global[d] % reqd[d] && !mosaic_program_allows_non_uniform(kernel->program))
                return MOSAIC_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                                    "global_work_size[%u] is not a multiple of the required work-group size", d);
    } else {
        /* the device knows what suits its code (core/device.h) */
        size_t g[3] = { 1, 1, 1 };
        for (cl_uint d = 0; d < work_dim && global; d++)
            g[d] = global[d] ? global[d] : 1;
        device->ops->choose_local_size(device, info, work_dim, g, max_wg, local_out);
    }
    return check_work_item_count(work_dim, global, local_out);
}

/* The kernel's arguments against what the device reports (docs/limits.md,
 * "Kernel arguments"): their bytes together (pointers, images, samplers and
 * pipes count as a pointer, by-value ones their size) and their number, the
 * __constant, image (by access), sampler and pipe ones.  Beyond one the
 * launch fails with CL_OUT_OF_RESOURCES, the specification's code for a
 * kernel the device lacks resources for (its sampler limit's words). */
static cl_int check_kernel_arguments(cl_kernel kernel, cl_device_id device)
{
    const mosaic_kernel_info *info = kernel->info;
    size_t bytes = 0;
    cl_uint constants = 0, reads = 0, writes = 0, read_writes = 0, samplers = 0, pipes = 0;
    for (cl_uint i = 0; i < info->num_args; i++) {
        const mosaic_kernel_arg *arg = &info->args[i];
        bytes += arg->kind == MOSAIC_ARG_BY_VALUE ? arg->size : sizeof(void *);
        constants += arg->kind == MOSAIC_ARG_CONSTANT_PTR;
        samplers += arg->kind == MOSAIC_ARG_SAMPLER;
        pipes += arg->kind == MOSAIC_ARG_PIPE;
        if (arg->kind == MOSAIC_ARG_IMAGE) {
            reads += arg->access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY;
            writes += arg->access_qualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
            read_writes += arg->access_qualifier == CL_KERNEL_ARG_ACCESS_READ_WRITE;
        }
    }
    /* the specification: at the minimum size of 1024, 128 arguments; else 255 */
    cl_uint max_args = device->max_parameter_size <= 1024 ? 128 : 255;
    const struct { size_t have, max; const char *what, *limit; } checks[] = {
        { bytes, device->max_parameter_size, "bytes of arguments", "CL_DEVICE_MAX_PARAMETER_SIZE" },
        { info->num_args, max_args, "arguments", "CL_DEVICE_MAX_PARAMETER_SIZE's count" },
        { constants, device->max_constant_args, "__constant arguments", "CL_DEVICE_MAX_CONSTANT_ARGS" },
        { reads, device->max_read_image_args, "read_only images", "CL_DEVICE_MAX_READ_IMAGE_ARGS" },
        { writes, device->max_write_image_args, "write_only images", "CL_DEVICE_MAX_WRITE_IMAGE_ARGS" },
        { read_writes, device->max_read_write_image_args, "read_write images", "CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS" },
        { samplers, device->max_samplers, "sampler arguments", "CL_DEVICE_MAX_SAMPLERS" },
        { pipes, device->max_pipe_args, "pipe arguments", "CL_DEVICE_MAX_PIPE_ARGS" },
    };
    for (size_t c = 0; c < sizeof checks / sizeof checks[0]; c++)
        if (checks[c].have > checks[c].max)
            return MOSAIC_ERROR(CL_OUT_OF_RESOURCES, "kernel %s has %zu %s; the device allows %zu (%s)", info->name,
                                checks[c].have, checks[c].what, checks[c].max, checks[c].limit);
    return CL_SUCCESS;
}

/* What a kernel receives for an image (compiler.h): its storage on the
 * device and its layout, with height 1 for 1D images and 1D arrays, depth 1
 * unless 3D, array_size 0 unless an array, slice_pitch 0 for 1D and 2D
 * images (for a 1D array, the step between layers). */
static void image_desc(cl_mem mem, cl_device_id device, mosaic_image_desc *d)
{
    const mosaic_image *img = &mem->image;
    cl_mem_object_type t = mem->mem_type;
    bool is_array = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    *d = (mosaic_image_desc){
        .data = mosaic_mem_storage_on(mem, device)->address,
        .width = img->width,
        .height = img->height ? img->height : 1,
        .depth = t == CL_MEM_OBJECT_IMAGE3D ? img->depth : 1,
        .array_size = is_array ? img->array_size : 0,
        .row_pitch = img->row_pitch,
        .slice_pitch = img->slice_pitch,
        .image_type = (uint32_t)t,
        .channel_order = img->format.image_channel_order,
        .channel_data_type = img->format.image_channel_data_type,
        .pixel_size = (uint32_t)img->pixel_size,
        .num_channels = img->num_channels,
    };
}

/* The buffer whose storage mem is, seen through sub-buffers and images made from buffers. */
static cl_mem storage_root(cl_mem mem)
{
    while (mem && (mem->parent || (mem->mem_type != CL_MEM_OBJECT_BUFFER && mem->image.buffer)))
        mem = mem->parent ? mem->parent : mem->image.buffer;
    return mem;
}

/* The launch's counter arguments (mosaic_ndrange.counters): those of the
 * kernel's counter_args set to a buffer of Mosaic's own storage (neither a
 * host pointer nor SVM behind it, which the host or other pointers could
 * reach) that no other argument of the launch shares. */
static void find_counters(cl_kernel kernel, mosaic_ndrange *nd)
{
    const mosaic_kernel_info *info = nd->info;
    uint64_t bits = info->counter_args;
    for (cl_uint i = 0; bits && i < 64 && i < info->num_args && nd->num_counters < MOSAIC_MAX_COUNTERS; i++) {
        cl_mem m = kernel->args[i].mem, root = storage_root(m);
        if (!(bits >> i & 1) || !m || m->mem_type != CL_MEM_OBJECT_BUFFER || m->is_svm_backed ||
            (root->flags & CL_MEM_USE_HOST_PTR))
            continue;
        bool alone = true;
        for (cl_uint j = 0; j < info->num_args && alone; j++)
            alone = j == i || storage_root(kernel->args[j].mem) != root;
        if (alone)
            nd->counters[nd->num_counters++] = (mosaic_counter_arg){
                .arg = i, .width = info->counter_args_wide >> i & 1 ? 8 : 4, .size = m->size};
    }
}

/* Copies the kernel's current arguments into the launch. */
static cl_int capture_args(cl_kernel kernel, cl_device_id device, mosaic_ndrange *nd)
{
    const mosaic_kernel_info *info = kernel->info;
    cl_uint n = info->num_args;
    uint64_t small[16] = { 0 };
    uint64_t *local_offsets = n <= 16 ? small : mosaic_calloc(n, sizeof *local_offsets);
    if (!local_offsets)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = CL_SUCCESS;
    nd->local_mem_size = mosaic_kernel_layout_local_args(kernel, local_offsets);
    if (nd->local_mem_size > device->local_mem_size) {
        err = MOSAIC_ERROR(CL_OUT_OF_RESOURCES, "the kernel needs %zu bytes of __local memory; the device has %llu",
                           nd->local_mem_size, (unsigned long long)device->local_mem_size);
        goto done;
    }
    memcpy(nd->arg_storage, kernel->arg_bytes, kernel->arg_bytes_size);
    uint64_t *slots = (uint64_t *)(nd->arg_storage + ((kernel->arg_bytes_size + 7) & ~(size_t)7));
    mosaic_image_desc *descs = (mosaic_image_desc *)(slots + n);
    for (cl_uint i = 0; i < n; i++) {
        const mosaic_arg_value *arg = &kernel->args[i];
        if (!arg->set) {
            err = MOSAIC_ERROR(CL_INVALID_KERNEL_ARGS, "argument %u (%s) of kernel %s is not set", i,
                               info->args[i].name ? info->args[i].name : "?", info->name);
            goto done;
        }
        switch (info->args[i].kind) {
        case MOSAIC_ARG_BY_VALUE:
            nd->args[i] = nd->arg_storage + kernel->arg_offsets[i];
            break;
        case MOSAIC_ARG_LOCAL_PTR:
            slots[i] = local_offsets[i];
            nd->args[i] = &slots[i];
            break;
        case MOSAIC_ARG_GLOBAL_PTR:
        case MOSAIC_ARG_CONSTANT_PTR:
            if (arg->mem) {
                if ((err = mosaic_mem_check_alignment(arg->mem, device)) != CL_SUCCESS)
                    goto done;
                if (info->args[i].kind == MOSAIC_ARG_CONSTANT_PTR && device->max_constant_buffer_size &&
                    arg->mem->size > device->max_constant_buffer_size) {
                    err = MOSAIC_ERROR(CL_OUT_OF_RESOURCES, "argument %u: a __constant buffer of %zu bytes exceeds "
                                       "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE", i, arg->mem->size);
                    goto done;
                }
                /* the address of the buffer's storage on the device (fixed for its life) */
                slots[i] = (uint64_t)(uintptr_t)mosaic_mem_storage_on(arg->mem, device)->address;
                nd->mems[nd->num_mems++] = arg->mem;
                mosaic_retain_internal(arg->mem);
            } else if (arg->svm && !device->svm_capabilities) { /* another device's SVM, in a shared context */
                err = MOSAIC_ERROR(CL_INVALID_OPERATION, "argument %u is an SVM pointer, which %s cannot address", i,
                                   device->name);
                goto done;
            } else {
                slots[i] = (uint64_t)(uintptr_t)arg->svm;
            }
            nd->args[i] = &slots[i];
            break;
        case MOSAIC_ARG_PIPE: /* set only to a pipe (clSetKernelArg): its storage, the device's pipe */
            slots[i] = (uint64_t)(uintptr_t)mosaic_mem_storage_on(arg->mem, device)->address;
            nd->mems[nd->num_mems++] = arg->mem;
            mosaic_retain_internal(arg->mem);
            nd->args[i] = &slots[i];
            break;
        case MOSAIC_ARG_IMAGE: { /* a pointer to its descriptor, which lives as long as the launch */
            mosaic_image_desc *desc = descs++;
            image_desc(arg->mem, device, desc);
            slots[i] = (uint64_t)(uintptr_t)desc;
            nd->mems[nd->num_mems++] = arg->mem;
            mosaic_retain_internal(arg->mem);
            nd->args[i] = &slots[i];
            break;
        }
        case MOSAIC_ARG_SAMPLER: /* its bits, a pointer-sized integer */
            slots[i] = arg->sampler_bits;
            nd->args[i] = &slots[i];
            break;
        default:
            err = MOSAIC_ERROR(CL_INVALID_KERNEL_ARGS, "argument %u has a type this device cannot take", i);
            goto done;
        }
    }
    find_counters(kernel, nd);
done:
    if (local_offsets != small)
        free(local_offsets);
    return err;
}

/* A host queue and a kernel of its context (a launch's and the suggested
 * local size's first checks). */
cl_int mosaic_check_queue_and_kernel(cl_command_queue queue, cl_kernel kernel)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    if (queue->properties & CL_QUEUE_ON_DEVICE)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue takes no host commands");
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    if (kernel->program->context != queue->context)
        return MOSAIC_ERROR(CL_INVALID_CONTEXT, "the kernel and the queue belong to different contexts");
    return CL_SUCCESS;
}

cl_int mosaic_prepare_ndrange(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t *global_work_offset, const size_t *global_work_size,
                              const size_t *local_work_size, mosaic_ndrange **out)
{
    size_t local[3];
    cl_int err = check_launch(queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size, local);
    if (err == CL_SUCCESS)
        err = check_kernel_arguments(kernel, queue->device);
    if (err != CL_SUCCESS || !out)
        return err;

    mosaic_ndrange *nd = new_ndrange(kernel);
    if (!nd)
        return CL_OUT_OF_HOST_MEMORY;
    nd->info = mosaic_kernel_info_on(kernel, queue->device); /* check_launch found it */
    nd->executable = mosaic_program_build_for(kernel->program, queue->device)->executable;
    err = capture_args(kernel, queue->device, nd);
    if (err != CL_SUCCESS) {
        mosaic_free_ndrange(nd);
        return err;
    }
    nd->kernel = kernel;
    mosaic_retain_internal(kernel);
    nd->work_dim = work_dim;
    nd->total_groups = 1;
    for (cl_uint d = 0; d < 3; d++) {
        nd->global_offset[d] = d < work_dim && global_work_offset ? global_work_offset[d] : 0;
        /* OpenCL 2.1 and later: a NULL or zero global size is a launch that does nothing */
        nd->global_size[d] = d < work_dim ? (global_work_size ? global_work_size[d] : 0) : 1;
        nd->local_size[d] = local[d];
        nd->num_groups[d] = groups_in(nd->global_size[d], local[d]);
        nd->total_groups *= nd->num_groups[d];
    }
    /* code for this launch's shape, when the device has some (the CPU: a K.wg built for one local size) */
    if (queue->device->ops->prepare_launch)
        queue->device->ops->prepare_launch(queue->device, nd);
    *out = nd;
    return CL_SUCCESS;
}

static cl_int enqueue_kernel(cl_command_queue queue, cl_kernel kernel, cl_command_type type, cl_uint work_dim,
                             const size_t *global_work_offset, const size_t *global_work_size,
                             const size_t *local_work_size, cl_uint num_events, const cl_event *wait_list,
                             cl_event *event)
{
    cl_int err = mosaic_check_queue_and_kernel(queue, kernel);
    if (err != CL_SUCCESS)
        return err;
    err = mosaic_check_wait_list(queue->context, num_events, wait_list);
    if (err != CL_SUCCESS)
        return err;
    mosaic_ndrange *nd;
    err = mosaic_prepare_ndrange(queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size, &nd);
    if (err != CL_SUCCESS)
        return err;
    cl_event command = mosaic_command_new(queue, type);
    if (!command) {
        mosaic_free_ndrange(nd);
        return CL_OUT_OF_HOST_MEMORY;
    }
    command->payload = nd;
    command->cleanup = cleanup_ndrange;
    return mosaic_command_enqueue(command, num_events, wait_list, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset,
                       const size_t *global_work_size, const size_t *local_work_size, cl_uint num_events,
                       const cl_event *wait_list, cl_event *event)
{
    return enqueue_kernel(queue, kernel, CL_COMMAND_NDRANGE_KERNEL, work_dim, global_work_offset, global_work_size,
                          local_work_size, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    static const size_t one[1] = { 1 };
    return enqueue_kernel(queue, kernel, CL_COMMAND_TASK, 1, NULL, one, one, num_events, wait_list, event);
}

/* OpenCL 3.1 (and cl_khr_suggested_local_work_size): the local size a
 * launch with a NULL one would get, after the checks that launch would
 * make of the range and the arguments (the same codes). */
CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSuggestedLocalWorkSize(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                  const size_t *global_work_offset, const size_t *global_work_size,
                                  size_t *suggested_local_work_size)
{
    cl_int err = mosaic_check_queue_and_kernel(queue, kernel);
    if (err != CL_SUCCESS)
        return err;
    if (!suggested_local_work_size)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "suggested_local_work_size is NULL");
    if (!global_work_size)
        return MOSAIC_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
    for (cl_uint d = 0; d < work_dim && d < 3; d++)
        if (global_work_size[d] == 0)
            return MOSAIC_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size[%u] is 0", d);
    size_t local[3];
    err = check_launch(queue, kernel, work_dim, global_work_offset, global_work_size, NULL, local);
    if (err == CL_SUCCESS)
        err = check_kernel_arguments(kernel, queue->device);
    for (cl_uint i = 0; err == CL_SUCCESS && i < kernel->info->num_args; i++) {
        const mosaic_arg_value *arg = &kernel->args[i];
        if (!arg->set)
            err = MOSAIC_ERROR(CL_INVALID_KERNEL_ARGS, "argument %u of kernel %s is not set", i, kernel->info->name);
        else if (arg->mem && kernel->info->args[i].kind != MOSAIC_ARG_IMAGE)
            err = mosaic_mem_check_alignment(arg->mem, queue->device);
    }
    if (err != CL_SUCCESS)
        return err;
    memcpy(suggested_local_work_size, local, work_dim * sizeof *local);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSuggestedLocalWorkSizeKHR(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                     const size_t *global_work_offset, const size_t *global_work_size,
                                     size_t *suggested_local_work_size)
{
    return clGetKernelSuggestedLocalWorkSize(queue, kernel, work_dim, global_work_offset, global_work_size,
                                             suggested_local_work_size);
}

/* ---- native kernels ---------------------------------------------------------- */

/* The call and its memory-object list are one allocation; the argument
 * block is a second (when there is one). */
static void free_native_call(mosaic_native_call *call)
{
    for (cl_uint i = 0; i < call->num_mems; i++)
        mosaic_release_internal(call->mems[i]);
    free(call->args);
    free(call);
}

static void cleanup_native(cl_event command)
{
    free_native_call(command->payload);
    command->payload = NULL;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNativeKernel(cl_command_queue queue, void (CL_CALLBACK *user_func)(void *), void *args, size_t cb_args,
                      cl_uint num_mem_objects, const cl_mem *mem_list, const void **args_mem_loc,
                      cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    if (queue->properties & CL_QUEUE_ON_DEVICE)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue takes no host commands");
    cl_int err = mosaic_check_wait_list(queue->context, num_events, wait_list);
    if (err != CL_SUCCESS)
        return err;
    cl_int (*run)(cl_event) = queue->device->ops->native_kernel;
    if (!run)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the queue's device cannot run native kernels");
    if (!user_func)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "user_func is NULL");
    if ((!args && (cb_args || num_mem_objects)) || (args && !cb_args))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "args and cb_args disagree");
    if ((err = mosaic_check_host_memory("args", args, 0, cb_args)))
        return err; /* (copied below) */
    if ((num_mem_objects == 0) != (mem_list == NULL) || (num_mem_objects == 0) != (args_mem_loc == NULL))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_mem_objects, mem_list and args_mem_loc disagree");
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        if (!MOSAIC_IS(mem_list[i], MEM) || mem_list[i]->mem_type != CL_MEM_OBJECT_BUFFER)
            return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "mem_list[%u] is not a buffer", i);
        const char *loc = args_mem_loc[i];
        if (loc < (const char *)args || loc + sizeof(void *) > (const char *)args + cb_args)
            return MOSAIC_ERROR(CL_INVALID_VALUE, "args_mem_loc[%u] is outside args", i);
    }
    mosaic_native_call *call =
        mosaic_calloc(1, sizeof *call + num_mem_objects * (sizeof *call->mems + sizeof *call->mem_offsets));
    if (!call)
        return CL_OUT_OF_HOST_MEMORY;
    call->fn = user_func;
    call->args = cb_args ? malloc(cb_args) : NULL;
    if (cb_args && !call->args) {
        free(call);
        return CL_OUT_OF_HOST_MEMORY;
    }
    if (cb_args) /* the argument block, not a buffer's bytes: the user may reuse it at once */
        memcpy(call->args, args, cb_args);
    /* The device writes each buffer's address into the copy's slot when it runs the call. */
    call->mems = (cl_mem *)(call + 1);
    call->mem_offsets = (size_t *)(call->mems + num_mem_objects);
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        call->mem_offsets[i] = (size_t)((const char *)args_mem_loc[i] - (const char *)args);
        call->mems[i] = mem_list[i];
        mosaic_retain_internal(mem_list[i]);
    }
    call->num_mems = num_mem_objects;
    cl_event command = mosaic_command_new(queue, CL_COMMAND_NATIVE_KERNEL);
    if (!command) {
        free_native_call(call);
        return CL_OUT_OF_HOST_MEMORY;
    }
    command->run = run;
    command->cleanup = cleanup_native;
    command->payload = call;
    return mosaic_command_enqueue(command, num_events, wait_list, event, false);
}
