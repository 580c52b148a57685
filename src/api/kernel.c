/* Kernels: creation, arguments and queries.  The argument layout comes from
 * the compiler's mosaic_kernel_info (compiler.h). */
#include "api/kernel.h"

#include "api/api.h"
#include "api/entry.h"
#include "api/memory.h"
#include "api/program.h"
#include "core/objects.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static void destroy_kernel(void *p)
{
    cl_kernel kernel = p;
    free(kernel->args);
    free(kernel->arg_offsets);
    free(kernel->arg_bytes);
    free(kernel->svm_pointers);
    free(kernel->usm_pointers);
    free(kernel->infos);
    atomic_fetch_sub(&kernel->program->num_kernels, 1);
    mosaic_release_internal(kernel->program);
    free(kernel);
}

static size_t align_up(size_t n, size_t a)
{
    return a ? (n + a - 1) / a * a : n;
}

/* The kernel `name` of program's builds: NULL with *err set when no build
 * has it. */
static cl_kernel new_kernel(cl_program program, const char *name, cl_int *err)
{
    const mosaic_kernel_info **infos = mosaic_calloc(program->num_builds, sizeof *infos);
    if (!infos) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    const mosaic_kernel_info *info = NULL;
    for (cl_uint b = 0; b < program->num_builds; b++) {
        const mosaic_executable *exe = program->builds[b].executable;
        infos[b] = exe ? mosaic_executable_find_kernel(exe, name) : NULL;
        if (!info)
            info = infos[b];
    }
    if (!info) {
        free(infos);
        *err = MOSAIC_ERROR(CL_INVALID_KERNEL_NAME, "no kernel named '%s' in the program", name);
        return NULL;
    }
    for (cl_uint b = 0; b < program->num_builds; b++)
        if (infos[b] && infos[b]->num_args != info->num_args) {
            *err = MOSAIC_ERROR(CL_INVALID_KERNEL_DEFINITION, "kernel %s has %u arguments on %s and %u on %s", name,
                                info->num_args, program->builds[0].device->name, infos[b]->num_args,
                                program->builds[b].device->name);
            free(infos); /* (after the message, which reads it) */
            return NULL;
        }
    *err = CL_OUT_OF_HOST_MEMORY;
    cl_kernel kernel = mosaic_calloc(1, sizeof *kernel);
    if (!kernel) {
        free(infos);
        return NULL;
    }
    kernel->infos = infos;
    kernel->args = mosaic_calloc(info->num_args, sizeof *kernel->args);
    kernel->arg_offsets = mosaic_calloc(info->num_args, sizeof *kernel->arg_offsets);
    size_t bytes = 0;
    for (cl_uint i = 0; i < info->num_args; i++) {
        if (info->args[i].kind != MOSAIC_ARG_BY_VALUE)
            continue;
        bytes = align_up(bytes, info->args[i].alignment);
        kernel->arg_offsets[i] = bytes;
        bytes += info->args[i].size;
    }
    kernel->arg_bytes = mosaic_calloc(bytes, 1);
    kernel->arg_bytes_size = bytes;
    if (!kernel->args || !kernel->arg_offsets || !kernel->arg_bytes) {
        free(kernel->args);
        free(kernel->arg_offsets);
        free(kernel->arg_bytes);
        free(infos);
        free(kernel);
        return NULL;
    }
    mosaic_object_init(kernel, MOSAIC_KERNEL, &mosaic_dispatch, destroy_kernel);
    kernel->program = program;
    kernel->info = info;
    mosaic_retain_internal(program);
    atomic_fetch_add(&program->num_kernels, 1);
    *err = CL_SUCCESS;
    return kernel;
}

const mosaic_kernel_info *mosaic_kernel_info_on(cl_kernel kernel, cl_device_id device)
{
    const mosaic_program_build *build = mosaic_program_build_for(kernel->program, device);
    return build ? kernel->infos[build - kernel->program->builds] : NULL;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(program, PROGRAM, errcode_ret);
    if (!mosaic_program_any_executable(program)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built"));
        return NULL;
    }
    if (!kernel_name) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "kernel_name is NULL"));
        return NULL;
    }
    cl_int err;
    cl_kernel kernel = new_kernel(program, kernel_name, &err);
    mosaic_set_error(errcode_ret, err);
    return kernel;
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels, cl_uint *num_kernels_ret)
{
    MOSAIC_CHECK_HANDLE(program, PROGRAM);
    const mosaic_executable *exe = mosaic_program_any_executable(program);
    if (!exe)
        return MOSAIC_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built");
    size_t n = mosaic_executable_num_kernels(exe);
    if (kernels && num_kernels < n)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_kernels (%u) is less than the %zu kernels of the program",
                            num_kernels, n);
    if (kernels) {
        for (size_t i = 0; i < n; i++) {
            cl_int err;
            kernels[i] = new_kernel(program, mosaic_executable_kernel(exe, i)->name, &err);
            if (!kernels[i]) {
                while (i-- > 0)
                    mosaic_release(kernels[i]);
                return err;
            }
        }
    }
    if (num_kernels_ret)
        *num_kernels_ret = (cl_uint)n;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(source, KERNEL, errcode_ret);
    cl_int err;
    cl_kernel kernel = new_kernel(source->program, source->info->name, &err);
    if (!kernel) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    memcpy(kernel->args, source->args, source->info->num_args * sizeof *kernel->args);
    memcpy(kernel->arg_bytes, source->arg_bytes, source->arg_bytes_size);
    if (source->num_svm_pointers) {
        kernel->svm_pointers = malloc(source->num_svm_pointers * sizeof(void *));
        if (kernel->svm_pointers) {
            memcpy(kernel->svm_pointers, source->svm_pointers, source->num_svm_pointers * sizeof(void *));
            kernel->num_svm_pointers = source->num_svm_pointers;
        }
    }
    kernel->fine_grain_system_svm = source->fine_grain_system_svm;
    if (source->num_usm_pointers) {
        kernel->usm_pointers = malloc(source->num_usm_pointers * sizeof(void *));
        if (kernel->usm_pointers) {
            memcpy(kernel->usm_pointers, source->usm_pointers, source->num_usm_pointers * sizeof(void *));
            kernel->num_usm_pointers = source->num_usm_pointers;
        }
    }
    kernel->usm_indirect = source->usm_indirect;
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return kernel;
}

MOSAIC_RETAIN_RELEASE(Kernel, cl_kernel, KERNEL)

/* Sets the buffer of argument `index`.  A kernel argument holds no reference:
 * the user may release a buffer that is still set as an argument, and it is
 * destroyed then (its destructor callbacks run); clEnqueueNDRangeKernel holds
 * the buffers of each launch until the launch completes. */
static void set_mem_arg(cl_kernel kernel, cl_uint index, cl_mem mem)
{
    mosaic_arg_value *arg = &kernel->args[index];
    arg->mem = mem;
    arg->svm = NULL;
}

/* The image type a kernel argument's type name declares (image2d_t,
 * image2d_array_depth_t...; 0 for one Mosaic does not know, such as the
 * MSAA images), and whether it is a depth image. */
static cl_mem_object_type declared_image_type(const char *type_name, bool *depth)
{
    static const struct { const char *name; cl_mem_object_type type; bool depth; } types[] = {
        { "image1d_t", CL_MEM_OBJECT_IMAGE1D, false },
        { "image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER, false },
        { "image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY, false },
        { "image2d_t", CL_MEM_OBJECT_IMAGE2D, false },
        { "image2d_depth_t", CL_MEM_OBJECT_IMAGE2D, true },
        { "image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY, false },
        { "image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY, true },
        { "image3d_t", CL_MEM_OBJECT_IMAGE3D, false },
    };
    const char *name = strstr(type_name, "image"); /* past an access qualifier, if the name has one */
    for (size_t i = 0; name && i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(name, types[i].name)) {
            *depth = types[i].depth;
            return types[i].type;
        }
    return 0;
}

/* clSetKernelArg's rules for an image argument: an image of the kernel's
 * context, of the declared type (a depth image for image2d_depth_t...),
 * and not WRITE_ONLY for a read_only argument nor READ_ONLY for a
 * write_only one. */
static cl_int check_image_arg(cl_kernel kernel, const mosaic_kernel_arg *formal, cl_mem mem)
{
    if (!mosaic_mem_is_image(mem))
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "argument %s (%s) needs a valid image", formal->name,
                            formal->type_name);
    if (mem->context != kernel->program->context)
        return MOSAIC_ERROR(CL_INVALID_CONTEXT, "argument %s: the image belongs to another context", formal->name);
    bool depth = false;
    cl_mem_object_type type = declared_image_type(formal->type_name, &depth);
    if (type != mem->mem_type || depth != (mem->image.format.image_channel_order == CL_DEPTH))
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "argument %s is a %s: the image (type 0x%x, channel order 0x%x) "
                            "does not match", formal->name, formal->type_name, mem->mem_type,
                            mem->image.format.image_channel_order);
    if (formal->access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY && (mem->flags & CL_MEM_WRITE_ONLY))
        return MOSAIC_ERROR(CL_INVALID_ARG_VALUE, "argument %s is read_only: the image is CL_MEM_WRITE_ONLY",
                            formal->name);
    if (formal->access_qualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && (mem->flags & CL_MEM_READ_ONLY))
        return MOSAIC_ERROR(CL_INVALID_ARG_VALUE, "argument %s is write_only: the image is CL_MEM_READ_ONLY",
                            formal->name);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value)
{
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    if (arg_index >= kernel->info->num_args)
        return MOSAIC_ERROR(CL_INVALID_ARG_INDEX, "kernel %s has %u arguments, not %u", kernel->info->name,
                            kernel->info->num_args, arg_index + 1);
    const mosaic_kernel_arg *formal = &kernel->info->args[arg_index];
    mosaic_arg_value *arg = &kernel->args[arg_index];
    switch (formal->kind) {
    case MOSAIC_ARG_GLOBAL_PTR:
    case MOSAIC_ARG_CONSTANT_PTR: {
        if (arg_size != sizeof(cl_mem))
            return MOSAIC_ERROR(CL_INVALID_ARG_SIZE, "argument %u (%s) is a buffer: arg_size must be sizeof(cl_mem)",
                                arg_index, formal->name);
        cl_mem mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        if (mem && !MOSAIC_IS(mem, MEM))
            return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "argument %u (%s) is not a valid memory object", arg_index,
                                formal->name);
        if (mem && (mem->mem_type != CL_MEM_OBJECT_BUFFER || mem->context != kernel->program->context))
            return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "argument %u (%s) must be a buffer of the kernel's context",
                                arg_index, formal->name);
        set_mem_arg(kernel, arg_index, mem);
        break;
    }
    case MOSAIC_ARG_LOCAL_PTR:
        if (arg_value)
            return MOSAIC_ERROR(CL_INVALID_ARG_VALUE, "argument %u (%s) is __local: arg_value must be NULL", arg_index,
                                formal->name);
        /* 0 bytes: allowed from OpenCL 3.1, the platform's version (the
         * kernel gets an address it must not read or write) */
        arg->local_size = arg_size;
        break;
    case MOSAIC_ARG_BY_VALUE:
        if (arg_size != formal->size)
            return MOSAIC_ERROR(CL_INVALID_ARG_SIZE, "argument %u (%s %s) takes %zu bytes, not %zu", arg_index,
                                formal->type_name, formal->name, formal->size, arg_size);
        if (!arg_value)
            return MOSAIC_ERROR(CL_INVALID_ARG_VALUE, "argument %u (%s) needs a value", arg_index, formal->name);
        if (!strcmp(formal->type_name, "queue_t")) {
            /* found among the device queues, not read through: any value may come here */
            cl_command_queue q = mosaic_device_queue_hold(*(void *const *)arg_value);
            if (!q)
                return MOSAIC_ERROR(CL_INVALID_DEVICE_QUEUE, "argument %u (%s) is a queue_t: %p is not a device queue",
                                    arg_index, formal->name, *(void *const *)arg_value);
            mosaic_release_internal(q);
        }
        memcpy(kernel->arg_bytes + kernel->arg_offsets[arg_index], arg_value, arg_size);
        break;
    case MOSAIC_ARG_PIPE: {
        if (arg_size != sizeof(cl_mem))
            return MOSAIC_ERROR(CL_INVALID_ARG_SIZE, "argument %u (%s) is a pipe: arg_size must be sizeof(cl_mem)",
                                arg_index, formal->name);
        cl_mem mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        if (!MOSAIC_IS(mem, MEM) || mem->mem_type != CL_MEM_OBJECT_PIPE)
            return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "argument %u (%s) must be a pipe object", arg_index,
                                formal->name);
        if (mem->context != kernel->program->context)
            return MOSAIC_ERROR(CL_INVALID_CONTEXT, "argument %u (%s): the pipe belongs to another context",
                                arg_index, formal->name);
        set_mem_arg(kernel, arg_index, mem);
        break;
    }
    case MOSAIC_ARG_IMAGE: {
        if (arg_size != sizeof(cl_mem))
            return MOSAIC_ERROR(CL_INVALID_ARG_SIZE, "argument %u (%s) is an image: arg_size must be sizeof(cl_mem)",
                                arg_index, formal->name);
        cl_mem mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        cl_int err = check_image_arg(kernel, formal, mem);
        if (err != CL_SUCCESS)
            return err;
        set_mem_arg(kernel, arg_index, mem);
        break;
    }
    case MOSAIC_ARG_SAMPLER: {
        if (arg_size != sizeof(cl_sampler))
            return MOSAIC_ERROR(CL_INVALID_ARG_SIZE, "argument %u (%s) is a sampler: arg_size must be "
                                "sizeof(cl_sampler)", arg_index, formal->name);
        cl_sampler sampler = arg_value ? *(const cl_sampler *)arg_value : NULL;
        if (!MOSAIC_IS(sampler, SAMPLER))
            return MOSAIC_ERROR(CL_INVALID_SAMPLER, "argument %u (%s) needs a valid sampler", arg_index,
                                formal->name);
        if (sampler->context != kernel->program->context)
            return MOSAIC_ERROR(CL_INVALID_CONTEXT, "argument %u (%s): the sampler belongs to another context",
                                arg_index, formal->name);
        arg->sampler_bits = sampler->bits; /* what the kernel receives (docs/images.md) */
        break;
    }
    }
    arg->set = true;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    if (!kernel->program->devices[0]->svm_capabilities)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "no device of the kernel's context supports SVM");
    return mosaic_kernel_set_pointer_arg(__func__, kernel, arg_index, arg_value);
}

cl_int mosaic_kernel_set_pointer_arg(const char *function, cl_kernel kernel, cl_uint index, const void *value)
{
    if (index >= kernel->info->num_args) {
        mosaic_debug(function, "kernel %s has %u arguments", kernel->info->name, kernel->info->num_args);
        return CL_INVALID_ARG_INDEX;
    }
    mosaic_arg_kind kind = kernel->info->args[index].kind;
    if (kind != MOSAIC_ARG_GLOBAL_PTR && kind != MOSAIC_ARG_CONSTANT_PTR) {
        mosaic_debug(function, "argument %u is not a global or constant pointer", index);
        return CL_INVALID_ARG_VALUE;
    }
    set_mem_arg(kernel, index, NULL);
    kernel->args[index].svm = (void *)value;
    kernel->args[index].set = true;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size, const void *param_value)
{
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    cl_int err;
    if (mosaic_usm_kernel_exec_info(kernel, param_name, param_value_size, param_value, &err))
        return err;
    if (!kernel->program->devices[0]->svm_capabilities)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "no device of the kernel's context supports SVM");
    /* (0, NULL) for CL_KERNEL_EXEC_INFO_SVM_PTRS clears the list (OpenCL 3.0;
     * test_svm svm_set_kernel_exec_info_svm_ptrs). */
    if (param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS && param_value_size == 0 && !param_value) {
        free(kernel->svm_pointers);
        kernel->svm_pointers = NULL;
        kernel->num_svm_pointers = 0;
        return CL_SUCCESS;
    }
    if (!param_value)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "param_value is NULL");
    switch (param_name) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
        if (param_value_size % sizeof(void *))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "param_value_size is not a multiple of sizeof(void *)");
        size_t n = param_value_size / sizeof(void *);
        void **copy = mosaic_calloc(n, sizeof *copy);
        if (!copy)
            return CL_OUT_OF_HOST_MEMORY;
        memcpy(copy, param_value, param_value_size);
        free(kernel->svm_pointers);
        kernel->svm_pointers = copy;
        kernel->num_svm_pointers = n;
        return CL_SUCCESS;
    }
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
        if (param_value_size != sizeof(cl_bool))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "param_value_size must be sizeof(cl_bool)");
        if (*(const cl_bool *)param_value &&
            !(kernel->program->devices[0]->svm_capabilities & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM))
            return MOSAIC_ERROR(CL_INVALID_OPERATION, "the device does not support fine-grained system SVM");
        kernel->fine_grain_system_svm = *(const cl_bool *)param_value;
        return CL_SUCCESS;
    default:
        return MOSAIC_ERROR(CL_INVALID_VALUE, "unknown kernel exec info 0x%x", param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size, void *param_value,
                size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME: MOSAIC_INFO_STRING(kernel->info->name);
    case CL_KERNEL_NUM_ARGS: MOSAIC_INFO_SCALAR(cl_uint, kernel->info->num_args);
    case CL_KERNEL_REFERENCE_COUNT: MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(kernel));
    case CL_KERNEL_CONTEXT: MOSAIC_INFO_SCALAR(cl_context, kernel->program->context);
    case CL_KERNEL_PROGRAM: MOSAIC_INFO_SCALAR(cl_program, kernel->program);
    case CL_KERNEL_ATTRIBUTES: MOSAIC_INFO_STRING(kernel->info->attributes ? kernel->info->attributes : "");
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

size_t mosaic_kernel_max_work_group_size(cl_kernel kernel, cl_device_id device)
{
    const mosaic_program_build *build = mosaic_program_build_for(kernel->program, device);
    const mosaic_kernel_info *built = build ? kernel->infos[build - kernel->program->builds] : NULL;
    const mosaic_kernel_info *info = built ? built : kernel->info; /* not built for it: what its arguments say */
    const mosaic_executable *exe = built ? build->executable : NULL;
    const size_t *reqd = info->reqd_work_group_size;
    size_t max = reqd[0] ? reqd[0] * reqd[1] * reqd[2] : device->max_work_group_size;
    /* the device may allow fewer: its work-items' private memory, its registers */
    size_t fits = device->ops->kernel_work_group_limit && exe ? device->ops->kernel_work_group_limit(device, exe, info)
                                                              : max;
    return fits < max ? fits : max;
}

size_t mosaic_kernel_layout_local_args(cl_kernel kernel, uint64_t *offsets)
{
    size_t total = kernel->info->static_local_mem_size;
    for (cl_uint i = 0; i < kernel->info->num_args; i++) {
        if (kernel->info->args[i].kind != MOSAIC_ARG_LOCAL_PTR)
            continue;
        total = align_up(total, 128); /* enough for any OpenCL type, and a cache line */
        if (offsets)
            offsets[i] = total;
        total += kernel->args[i].local_size;
    }
    return total;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
                         size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    cl_program program = kernel->program;
    if (!device && program->num_devices == 1)
        device = program->devices[0];
    bool known = false;
    for (cl_uint i = 0; i < program->num_devices; i++)
        known |= device == program->devices[i];
    if (!known)
        return MOSAIC_ERROR(CL_INVALID_DEVICE, "device is not a device of the kernel's program");
    const mosaic_kernel_info *info = mosaic_kernel_info_on(kernel, device);
    if (!info)
        info = kernel->info;
    switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE: MOSAIC_INFO_SCALAR(size_t, mosaic_kernel_max_work_group_size(kernel, device));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: MOSAIC_INFO_ARRAY(kernel->info->reqd_work_group_size, 3);
    case CL_KERNEL_LOCAL_MEM_SIZE: MOSAIC_INFO_SCALAR(cl_ulong, mosaic_kernel_layout_local_args(kernel, NULL));
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: /* what the device's code runs at once */
        MOSAIC_INFO_SCALAR(size_t, device->ops->kernel_preferred_multiple(device, info));
    case CL_KERNEL_PRIVATE_MEM_SIZE: MOSAIC_INFO_SCALAR(cl_ulong, info->private_mem_size);
    case CL_KERNEL_GLOBAL_WORK_SIZE:
        return MOSAIC_ERROR(CL_INVALID_VALUE, "CL_KERNEL_GLOBAL_WORK_SIZE is only for custom devices and built-in kernels");
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    if (arg_index >= kernel->info->num_args)
        return MOSAIC_ERROR(CL_INVALID_ARG_INDEX, "kernel %s has %u arguments", kernel->info->name, kernel->info->num_args);
    const mosaic_kernel_arg *arg = &kernel->info->args[arg_index];
    /* only a program built from source has it (the spec); the SPIR-V
     * translator's type names are not the source's */
    if (kernel->program->il)
        return MOSAIC_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "the program was created from SPIR-V");
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: MOSAIC_INFO_SCALAR(cl_kernel_arg_address_qualifier, arg->address_qualifier);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: MOSAIC_INFO_SCALAR(cl_kernel_arg_access_qualifier, arg->access_qualifier);
    case CL_KERNEL_ARG_TYPE_NAME: MOSAIC_INFO_STRING(arg->type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER: MOSAIC_INFO_SCALAR(cl_kernel_arg_type_qualifier, arg->type_qualifier);
    case CL_KERNEL_ARG_NAME:
        if (!arg->name)
            return MOSAIC_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "no argument names were recorded");
        MOSAIC_INFO_STRING(arg->name);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

/* The work-items of a local size given as the input of a sub-group query
 * (an array of 1 to 3 size_t): 0 when the input is not one. */
static size_t sub_group_query_items(size_t input_value_size, const void *input_value)
{
    if (!input_value || !input_value_size || input_value_size % sizeof(size_t) || input_value_size > 3 * sizeof(size_t))
        return 0;
    size_t local[3], items = 1;
    memcpy(local, input_value, input_value_size);
    for (size_t d = 0; d < input_value_size / sizeof(size_t); d++)
        items *= local[d];
    return items;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                        size_t input_value_size, const void *input_value, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    cl_program program = kernel->program;
    if (!device && program->num_devices == 1)
        device = program->devices[0];
    bool known = false;
    for (cl_uint i = 0; i < program->num_devices; i++)
        known |= device && device == program->devices[i];
    if (!known)
        return MOSAIC_ERROR(CL_INVALID_DEVICE, device ? "device is not a device of the kernel's program"
                                                      : "device is NULL and the kernel's program has several devices");
    size_t sg = device->sub_group_size;
    if (!sg)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the device does not support sub-groups");
    switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
        /* sub-groups are sg consecutive work-items in local linear id, the last one partial */
        size_t items = sub_group_query_items(input_value_size, input_value);
        if (!input_value)
            return MOSAIC_ERROR(CL_INVALID_VALUE, "input_value is NULL: it must be the local work size");
        if (!items && (!input_value_size || input_value_size % sizeof(size_t) || input_value_size > 3 * sizeof(size_t)))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "input_value_size %zu is not 1, 2 or 3 times sizeof(size_t)",
                                input_value_size);
        if (param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
            MOSAIC_INFO_SCALAR(size_t, items < sg ? items : sg);
        MOSAIC_INFO_SCALAR(size_t, (items + sg - 1) / sg);
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        if (!input_value)
            return MOSAIC_ERROR(CL_INVALID_VALUE, "input_value is NULL: it must be the sub-group count");
        if (input_value_size != sizeof(size_t))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "input_value_size %zu is not sizeof(size_t)", input_value_size);
        if (param_value && (param_value_size < sizeof(size_t) || param_value_size % sizeof(size_t) ||
                            param_value_size > 3 * sizeof(size_t)))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "param_value_size %zu is not 1, 2 or 3 times sizeof(size_t)",
                                param_value_size);
        size_t count, dims = param_value ? param_value_size / sizeof(size_t) : 1;
        memcpy(&count, input_value, sizeof count);
        /* one dimension of count whole sub-groups, the others 1; all 0 when no group can have count */
        size_t local[3] = {count * sg, 1, 1};
        if (!count || count > mosaic_kernel_max_work_group_size(kernel, device) / sg ||
            count * sg > device->max_work_item_sizes[0])
            local[0] = local[1] = local[2] = 0;
        MOSAIC_INFO_ARRAY(local, dims);
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS:
        MOSAIC_INFO_SCALAR(size_t, (mosaic_kernel_max_work_group_size(kernel, device) + sg - 1) / sg);
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
        MOSAIC_INFO_SCALAR(size_t, 0); /* OpenCL C has no attribute that sets it */
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}
