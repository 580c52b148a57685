/*
 * cl_intel_unified_shared_memory: host, device and shared allocations,
 * their queries, kernel arguments and indirect access, and the memcpy,
 * fill, migrate and advise commands.
 *
 * USM is SVM with other names and more bookkeeping (docs/memory.md), so it
 * is built from SVM's parts (api/svm.h): every allocation comes from the
 * device's ops->svm_alloc as fine-grained SVM and goes into the SVM
 * registry with its kind, flags and device; the commands are SVM's
 * commands with USM's command types.  On the CPU device host and device are
 * one processor with one coherent memory, so the three kinds differ only in
 * what they report: each is readable and writable, atomically too, by the
 * host and by kernels at the same time, wherever the pointer was stored;
 * the indirect-access declarations are kept and need nothing more, and a
 * migration or a piece of advice has nothing to move or tune (ordering-only
 * commands).
 *
 * Lifetime: an allocation lives until clMemFreeINTEL or
 * clMemBlockingFreeINTEL, or until its context is destroyed
 * (mosaic_allocations_free_context); it holds no reference on the context,
 * so releasing the context releases its memory.
 */
#include "api/api.h"
#include "api/context.h"
#include "api/entry.h"
#include "api/kernel.h"
#include "api/svm.h"
#include "core/engine.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

#define USM_EXTENSION "cl_intel_unified_shared_memory"

#define USM_ALLOC_FLAGS \
    (CL_MEM_ALLOC_WRITE_COMBINED_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | \
     CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL)
#define USM_PLACEMENT_FLAGS (CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL)

/* ---- capabilities ---------------------------------------------------------------- */

/* Each kind's guarantees are those of an SVM capability the device has:
 * fine-grained buffers (host and device read and write one allocation at
 * the same time, coherently) for the host, device and shared kinds, and
 * fine-grained system SVM for memory from malloc; SVM atomics make both
 * atomic. */
cl_bitfield mosaic_usm_capabilities(cl_device_id device, cl_device_info param)
{
    if (!mosaic_device_has_extension(device, USM_EXTENSION))
        return 0;
    cl_device_svm_capabilities svm = device->svm_capabilities;
    cl_device_svm_capabilities needed =
        param == CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL ? CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
                                                                : CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
    if (!(svm & needed))
        return 0;
    cl_bitfield caps = CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL;
    if (svm & CL_DEVICE_SVM_ATOMICS)
        caps |= CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;
    return caps;
}

/* The capability query that says whether a device takes allocations of
 * `kind` (shared: either shared query). */
static bool device_supports(cl_device_id device, mosaic_allocation_kind kind)
{
    switch (kind) {
    case MOSAIC_ALLOC_USM_HOST: return mosaic_usm_capabilities(device, CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL) != 0;
    case MOSAIC_ALLOC_USM_DEVICE:
        return mosaic_usm_capabilities(device, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL) != 0;
    case MOSAIC_ALLOC_USM_SHARED:
        return mosaic_usm_capabilities(device, CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL) != 0 ||
               mosaic_usm_capabilities(device, CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL) != 0;
    default: return false;
    }
}

static bool supports_usm(cl_device_id device)
{
    return device_supports(device, MOSAIC_ALLOC_USM_HOST) || device_supports(device, MOSAIC_ALLOC_USM_DEVICE) ||
           device_supports(device, MOSAIC_ALLOC_USM_SHARED);
}

/* The first device of the context that takes allocations of `kind` (NULL:
 * none); *min_alloc receives the smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE of
 * all those that do. */
static cl_device_id context_usm_device(cl_context context, mosaic_allocation_kind kind, cl_ulong *min_alloc)
{
    cl_device_id first = NULL;
    *min_alloc = (cl_ulong)SIZE_MAX;
    for (cl_uint i = 0; i < context->num_devices; i++) {
        cl_device_id d = context->devices[i];
        if (!device_supports(d, kind))
            continue;
        first = first ? first : d;
        if (d->max_mem_alloc_size && d->max_mem_alloc_size < *min_alloc)
            *min_alloc = d->max_mem_alloc_size;
    }
    return first;
}

static bool context_supports(cl_context context, bool (*supports)(cl_device_id))
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (supports(context->devices[i]))
            return true;
    return false;
}

/* ---- allocating and freeing ---------------------------------------------------------- */

static const char *kind_name(mosaic_allocation_kind kind)
{
    return kind == MOSAIC_ALLOC_USM_HOST ? "host" : kind == MOSAIC_ALLOC_USM_DEVICE ? "device" : "shared";
}

/* CL_MEM_ALLOC_FLAGS_INTEL, once, with known bits; the placement hints only
 * for shared allocations, and not both. */
static cl_int parse_properties(const char *function, const cl_mem_properties_intel *properties,
                               mosaic_allocation_kind kind, cl_mem_alloc_flags_intel *flags)
{
    *flags = 0;
    bool seen_flags = false;
    for (size_t i = 0; properties && properties[i]; i += 2) {
        if (properties[i] != CL_MEM_ALLOC_FLAGS_INTEL) {
            mosaic_debug(function, "unsupported property 0x%llx", (unsigned long long)properties[i]);
            return CL_INVALID_PROPERTY;
        }
        if (seen_flags) {
            mosaic_debug(function, "CL_MEM_ALLOC_FLAGS_INTEL given twice");
            return CL_INVALID_PROPERTY;
        }
        seen_flags = true;
        cl_mem_alloc_flags_intel value = (cl_mem_alloc_flags_intel)properties[i + 1];
        if (value & ~(cl_mem_alloc_flags_intel)USM_ALLOC_FLAGS) {
            mosaic_debug(function, "unknown bits in CL_MEM_ALLOC_FLAGS_INTEL 0x%llx", (unsigned long long)value);
            return CL_INVALID_PROPERTY;
        }
        if ((value & USM_PLACEMENT_FLAGS) && kind != MOSAIC_ALLOC_USM_SHARED) {
            mosaic_debug(function, "an initial placement flag for a %s allocation (shared allocations only)",
                         kind_name(kind));
            return CL_INVALID_PROPERTY;
        }
        if ((value & USM_PLACEMENT_FLAGS) == USM_PLACEMENT_FLAGS) {
            mosaic_debug(function, "both CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL and _HOST_INTEL");
            return CL_INVALID_PROPERTY;
        }
        *flags = value;
    }
    return CL_SUCCESS;
}

/* The three allocation functions: `device` is NULL for a host allocation
 * and may be for a shared one.  The checks in the order the extension
 * lists its errors. */
static void *usm_alloc(const char *function, cl_context context, cl_device_id device,
                       mosaic_allocation_kind kind, const cl_mem_properties_intel *properties, size_t size,
                       cl_uint alignment, cl_int *errcode_ret)
{
    if (!MOSAIC_IS(context, CONTEXT)) {
        mosaic_set_error(errcode_ret, mosaic_invalid_handle(function, "context", MOSAIC_CONTEXT, context));
        return NULL;
    }
    bool named = kind != MOSAIC_ALLOC_USM_HOST && device;
    if (kind == MOSAIC_ALLOC_USM_DEVICE || named) {
        if (!MOSAIC_IS(device, DEVICE) || !mosaic_context_has_device(context, device)) {
            mosaic_debug(function, "device %p is not a device of the context", (void *)device);
            mosaic_set_error(errcode_ret, CL_INVALID_DEVICE);
            return NULL;
        }
    }
    cl_ulong max_size;
    cl_device_id allocator;
    if (named) {
        allocator = device_supports(device, kind) ? device : NULL;
        max_size = device->max_mem_alloc_size;
    } else {
        allocator = context_usm_device(context, kind, &max_size);
    }
    if (!allocator) {
        mosaic_debug(function, "%s supports %s USM allocations", named ? "the device not" : "no device of the context",
                     kind_name(kind));
        mosaic_set_error(errcode_ret, CL_INVALID_OPERATION);
        return NULL;
    }
    /* The largest data type is long16 (or double16) on every Mosaic device. */
    if ((alignment & (alignment - 1)) || alignment > MOSAIC_SVM_MAX_ALIGN) {
        mosaic_debug(function, "alignment %u is not 0 or a power of two up to %u", alignment, MOSAIC_SVM_MAX_ALIGN);
        mosaic_set_error(errcode_ret, CL_INVALID_VALUE);
        return NULL;
    }
    cl_mem_alloc_flags_intel flags;
    cl_int err = parse_properties(function, properties, kind, &flags);
    if (err) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    if (size == 0 || (cl_ulong)size > max_size) {
        mosaic_debug(function, "size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu)", size,
                     (unsigned long long)max_size);
        mosaic_set_error(errcode_ret, CL_INVALID_BUFFER_SIZE);
        return NULL;
    }
    mosaic_allocation a = { .size = size, .kind = kind, .flags = flags, .context = context,
                            .allocator = allocator, .device = kind == MOSAIC_ALLOC_USM_HOST ? NULL : device };
    /* What every kind is on a device that supports it (the capabilities
     * above): fine-grained SVM, with atomics where the device has them. */
    cl_svm_mem_flags svm_flags = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER |
                                 (allocator->svm_capabilities & CL_DEVICE_SVM_ATOMICS ? CL_MEM_SVM_ATOMICS : 0);
    void *p = mosaic_allocation_new(&a, svm_flags, alignment ? alignment : MOSAIC_SVM_MAX_ALIGN);
    if (!p) {
        mosaic_debug(function, "cannot allocate %zu bytes", size);
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return p;
}

CL_API_ENTRY void *CL_API_CALL
clHostMemAllocINTEL(cl_context context, const cl_mem_properties_intel *properties, size_t size, cl_uint alignment,
                    cl_int *errcode_ret)
{
    return usm_alloc(__func__, context, NULL, MOSAIC_ALLOC_USM_HOST, properties, size, alignment, errcode_ret);
}

CL_API_ENTRY void *CL_API_CALL
clDeviceMemAllocINTEL(cl_context context, cl_device_id device, const cl_mem_properties_intel *properties,
                      size_t size, cl_uint alignment, cl_int *errcode_ret)
{
    return usm_alloc(__func__, context, device, MOSAIC_ALLOC_USM_DEVICE, properties, size, alignment, errcode_ret);
}

CL_API_ENTRY void *CL_API_CALL
clSharedMemAllocINTEL(cl_context context, cl_device_id device, const cl_mem_properties_intel *properties,
                      size_t size, cl_uint alignment, cl_int *errcode_ret)
{
    return usm_alloc(__func__, context, device, MOSAIC_ALLOC_USM_SHARED, properties, size, alignment, errcode_ret);
}

/* ptr NULL, or the start of a USM allocation of context (which `wait`
 * frees only after every command enqueued before has ended). */
static cl_int usm_free(const char *function, cl_context context, void *ptr, bool wait)
{
    if (!MOSAIC_IS(context, CONTEXT))
        return mosaic_invalid_handle(function, "context", MOSAIC_CONTEXT, context);
    if (!ptr)
        return CL_SUCCESS;
    mosaic_allocation a;
    if (!mosaic_allocation_lookup(context, ptr, &a) || a.kind == MOSAIC_ALLOC_SVM || a.base != (uintptr_t)ptr) {
        mosaic_debug(function, "%p is not the start of a USM allocation of context %p (or was freed already)", ptr,
                     (void *)context);
        return CL_INVALID_VALUE;
    }
    /* Which commands use ptr cannot be told (a kernel may reach it through
     * any pointer in memory), so the blocking free waits for all of the
     * context's. */
    cl_int err;
    if (wait && (err = mosaic_context_finish(context)) != CL_SUCCESS)
        return err;
    if (!mosaic_allocation_free(context, ptr, true)) {
        mosaic_debug(function, "%p was freed by another thread meanwhile", ptr);
        return CL_INVALID_VALUE;
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clMemFreeINTEL(cl_context context, void *ptr)
{
    return usm_free(__func__, context, ptr, false);
}

CL_API_ENTRY cl_int CL_API_CALL
clMemBlockingFreeINTEL(cl_context context, void *ptr)
{
    return usm_free(__func__, context, ptr, true);
}

/* ---- queries ------------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL
clGetMemAllocInfoINTEL(cl_context context, const void *ptr, cl_mem_info_intel param_name, size_t param_value_size,
                       void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(context, CONTEXT);
    /* Anything but a USM allocation of the context (an SVM allocation, a
     * malloc'd address, NULL) is of the unknown kind: no base, size, device
     * or flags. */
    mosaic_allocation a;
    bool known = mosaic_allocation_lookup(context, ptr, &a) && a.kind != MOSAIC_ALLOC_SVM;
    if (!known)
        memset(&a, 0, sizeof a);
    switch (param_name) {
    case CL_MEM_ALLOC_TYPE_INTEL:
        MOSAIC_INFO_SCALAR(cl_unified_shared_memory_type_intel,
                           !known                              ? CL_MEM_TYPE_UNKNOWN_INTEL
                           : a.kind == MOSAIC_ALLOC_USM_HOST   ? CL_MEM_TYPE_HOST_INTEL
                           : a.kind == MOSAIC_ALLOC_USM_DEVICE ? CL_MEM_TYPE_DEVICE_INTEL
                                                               : CL_MEM_TYPE_SHARED_INTEL);
    case CL_MEM_ALLOC_BASE_PTR_INTEL: MOSAIC_INFO_SCALAR(void *, (void *)a.base);
    case CL_MEM_ALLOC_SIZE_INTEL: MOSAIC_INFO_SCALAR(size_t, a.size);
    case CL_MEM_ALLOC_DEVICE_INTEL: MOSAIC_INFO_SCALAR(cl_device_id, a.device);
    case CL_MEM_ALLOC_FLAGS_INTEL: MOSAIC_INFO_SCALAR(cl_mem_alloc_flags_intel, a.flags);
    default: MOSAIC_INFO_UNKNOWN(param_name);
    }
}

/* ---- kernels ------------------------------------------------------------------------- */

/* Since version 1.1.0 any pointer value is a valid argument: whether a
 * kernel may dereference it is the application's business. */
CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
    MOSAIC_CHECK_HANDLE(kernel, KERNEL);
    return mosaic_kernel_set_pointer_arg(__func__, kernel, arg_index, arg_value);
}

static bool supports_host(cl_device_id d) { return device_supports(d, MOSAIC_ALLOC_USM_HOST); }
static bool supports_device(cl_device_id d) { return device_supports(d, MOSAIC_ALLOC_USM_DEVICE); }
static bool supports_shared(cl_device_id d) { return device_supports(d, MOSAIC_ALLOC_USM_SHARED); }

bool mosaic_usm_kernel_exec_info(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                                 const void *param_value, cl_int *err)
{
    static const char function[] = "clSetKernelExecInfo";
    cl_context context = kernel->program->context;
    unsigned bit;
    bool (*supports)(cl_device_id);
    const char *kind;
    switch (param_name) {
    case CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL: {
        *err = CL_SUCCESS;
        if (!context_supports(context, supports_usm)) {
            mosaic_debug(function, "no device of the kernel's context supports USM");
            *err = CL_INVALID_OPERATION;
        } else if (param_value_size % sizeof(void *) || (param_value_size && !param_value)) {
            mosaic_debug(function, "CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL: param_value_size %zu is not a multiple of "
                         "sizeof(void *), or param_value is NULL", param_value_size);
            *err = CL_INVALID_VALUE;
        } else { /* the new set replaces the old; (0, NULL) empties it */
            size_t n = param_value_size / sizeof(void *);
            void **copy = n ? malloc(param_value_size) : NULL;
            if (n && !copy) {
                *err = CL_OUT_OF_HOST_MEMORY;
                return true;
            }
            if (n)
                memcpy(copy, param_value, param_value_size);
            free(kernel->usm_pointers);
            kernel->usm_pointers = copy;
            kernel->num_usm_pointers = n;
        }
        return true;
    }
    case CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL:
        bit = MOSAIC_USM_INDIRECT_HOST, supports = supports_host, kind = "host";
        break;
    case CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL:
        bit = MOSAIC_USM_INDIRECT_DEVICE, supports = supports_device, kind = "device";
        break;
    case CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL:
        bit = MOSAIC_USM_INDIRECT_SHARED, supports = supports_shared, kind = "shared";
        break;
    default:
        return false;
    }
    if (!context_supports(context, supports)) {
        mosaic_debug(function, "no device of the kernel's context supports %s USM allocations", kind);
        *err = CL_INVALID_OPERATION;
    } else if (!param_value || param_value_size != sizeof(cl_bool)) {
        mosaic_debug(function, "indirect %s access takes a cl_bool (param_value_size %zu, param_value %p)", kind,
                     param_value_size, param_value);
        *err = CL_INVALID_VALUE;
    } else {
        /* Recorded for what it says; on one coherent memory a kernel reaches
         * any allocation through any pointer with nothing prepared. */
        if (*(const cl_bool *)param_value)
            kernel->usm_indirect |= bit;
        else
            kernel->usm_indirect &= ~bit;
        *err = CL_SUCCESS;
    }
    return true;
}

/* ---- commands ------------------------------------------------------------------------ */

static cl_int check_queue(const char *function, cl_command_queue queue, cl_uint num_events, const cl_event *wait_list)
{
    return mosaic_check_pointer_queue(function, queue, supports_usm, "USM", num_events, wait_list);
}

/* Any address the host can reach is one a CPU kernel can (shared system
 * allocations), so the commands take any mapped memory, as SVM's do. */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemFillINTEL(cl_command_queue command_queue, void *dst_ptr, const void *pattern, size_t pattern_size,
                      size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    return mosaic_enqueue_host_fill(__func__, command_queue, CL_COMMAND_MEMFILL_INTEL, dst_ptr, "dst_ptr", pattern,
                                    pattern_size, size, num_events_in_wait_list, event_wait_list, event);
}

/* The deprecated byte fill: clEnqueueMemFillINTEL with a one-byte pattern. */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemsetINTEL(cl_command_queue command_queue, void *dst_ptr, cl_int value, size_t size,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    cl_uchar byte = (cl_uchar)value;
    return mosaic_enqueue_host_fill(__func__, command_queue, CL_COMMAND_MEMFILL_INTEL, dst_ptr, "dst_ptr", &byte, 1,
                                    size, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking, void *dst_ptr, const void *src_ptr,
                     size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    return mosaic_enqueue_host_copy(__func__, command_queue, CL_COMMAND_MEMCPY_INTEL, blocking, dst_ptr, src_ptr,
                                    size, num_events_in_wait_list, event_wait_list, event);
}

/* A hint's region: not NULL and not wrapping around the address space. */
static cl_int check_region(const char *function, const void *ptr, size_t size)
{
    if (!ptr) {
        mosaic_debug(function, "ptr is NULL");
        return CL_INVALID_VALUE;
    }
    if (size > UINTPTR_MAX - (uintptr_t)ptr) {
        mosaic_debug(function, "%zu bytes from %p wrap around the address space", size, ptr);
        return CL_INVALID_VALUE;
    }
    return CL_SUCCESS;
}

/* Flags 0 is valid since version 1.2.0 (migrate to the queue's device). */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMigrateMemINTEL(cl_command_queue command_queue, const void *ptr, size_t size, cl_mem_migration_flags flags,
                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if ((err = check_region(__func__, ptr, size)))
        return err;
    if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "invalid migration flags 0x%llx", (unsigned long long)flags);
    return mosaic_enqueue_migration(command_queue, CL_COMMAND_MIGRATEMEM_INTEL, 1, &ptr, &size, flags,
                                    num_events_in_wait_list, event_wait_list, event);
}

/* No advice values are defined (by this extension or another), and "a
 * memory advice hint not supported by the device is ignored": every value
 * is taken, and the command only orders. */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemAdviseINTEL(cl_command_queue command_queue, const void *ptr, size_t size, cl_mem_advice_intel advice,
                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if ((err = check_region(__func__, ptr, size)))
        return err;
    (void)advice;
    return mosaic_enqueue_ordering(command_queue, CL_COMMAND_MEMADVISE_INTEL, num_events_in_wait_list,
                                   event_wait_list, event);
}
