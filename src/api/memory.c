/*
 * Memory objects: buffers, sub-buffers, pipes, their queries and
 * destruction (images: api/image.c, which makes them with the helpers of
 * api/memory.h defined here).
 *
 * A buffer's bytes are its storages, one per memory domain of the context,
 * which the devices allocate and free (ops->mem_alloc / mem_free, see
 * core/memory.h and core/device.h); nothing here touches them.
 * Destruction: the user's last clReleaseMemObject drops the "user" internal
 * hold; commands and sub-buffers hold internal references too, so the
 * storage is freed (and the destructor callbacks run, newest first) only
 * when nothing can touch it any more.
 */
#include "api/memory.h"
#include "api/api.h"
#include "api/entry.h"
#include "api/svm.h"
#include "core/check_written.h"
#include "core/coherence.h"
#include "core/engine.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>


#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define BUFFER_FLAGS (ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS)

typedef void (CL_CALLBACK *mem_destructor_fn)(cl_mem, void *);

/* ---- helpers others use (api/memory.h) ------------------------------------ */

bool mosaic_mem_is_buffer(cl_mem mem)
{
    return MOSAIC_IS(mem, MEM) && mem->mem_type == CL_MEM_OBJECT_BUFFER;
}

static size_t device_align_bytes(cl_device_id device)
{
    cl_uint bits = device ? device->mem_base_addr_align_bits : 0;
    return bits >= 8 ? bits / 8 : MOSAIC_MEM_ALIGN;
}

cl_int mosaic_mem_check_alignment(cl_mem mem, cl_device_id device)
{
    if (mem->parent && mem->offset % device_align_bytes(device) != 0)
        return MOSAIC_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET,
                            "sub-buffer origin %zu is not aligned to the device's %zu bytes",
                            mem->offset, device_align_bytes(device));
    return CL_SUCCESS;
}

bool mosaic_mem_host_can_read(cl_mem mem)
{
    return !(mem->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}

bool mosaic_mem_host_can_write(cl_mem mem)
{
    return !(mem->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

/* ---- creation and destruction ---------------------------------------------- */

static bool at_most_one_bit(cl_mem_flags f) { return (f & (f - 1)) == 0; }

cl_int mosaic_mem_check_flags(cl_mem_flags flags)
{
    if (flags & ~(cl_mem_flags)BUFFER_FLAGS)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "unknown bits in flags 0x%llx", (unsigned long long)flags);
    if (!at_most_one_bit(flags & ACCESS_FLAGS))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "more than one of READ_WRITE, WRITE_ONLY, READ_ONLY");
    if (!at_most_one_bit(flags & HOST_ACCESS_FLAGS))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "more than one of HOST_WRITE_ONLY, HOST_READ_ONLY, HOST_NO_ACCESS");
    if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR");
    return CL_SUCCESS;
}

static void mem_finish(void *self)
{
    cl_mem mem = self;
    mosaic_callback *cb = mem->destructor_callbacks;
    while (cb) { /* newest first */
        mosaic_callback *next = cb->next;
        ((mem_destructor_fn)cb->fn)(mem, cb->user_data);
        free(cb);
        cb = next;
    }
    for (mosaic_mapping *m = mem->mappings, *next; m; m = next) {
        next = m->next;
        free(m);
    }
    for (cl_uint i = mem->num_storages; i-- > 0;) {
        mosaic_mem_storage *s = &mem->storages[i];
        s->device->ops->mem_free(s->device, mem, s);
    }
    mosaic_coherence_free(mem->coherence);
    mosaic_check_written_free(mem);
    if (mem->parent)
        mosaic_release_internal(mem->parent);
    if (mem->context)
        mosaic_release_internal(mem->context);
    free(mem->properties);
    pthread_mutex_destroy(&mem->lock);
    free(mem);
}

/* Inside the user's own clReleaseMemObject on this thread, destructor
 * callbacks run right there; anywhere else (a device worker finishing a
 * command, the engine) they go to the callback thread, so user code never
 * runs on a worker or under a runtime lock. */
static void mem_destroy(void *self)
{
    cl_mem mem = self;
    if (mem->destructor_callbacks && !mosaic_in_user_release())
        mosaic_defer(mem_finish, mem);
    else
        mem_finish(mem);
}

/* A memory object with room for a storage per device of the context (one
 * allocation), none allocated yet. */
cl_mem mosaic_mem_new(cl_context context, cl_mem_object_type type, cl_mem_flags flags, size_t size)
{
    cl_mem mem = mosaic_calloc(1, sizeof *mem + context->num_devices * sizeof mem->storages[0]);
    if (!mem)
        return NULL;
    mosaic_object_init(mem, MOSAIC_MEM, &mosaic_dispatch, mem_destroy);
    mem->context = context;
    mosaic_retain_internal(context);
    mem->mem_type = type;
    mem->flags = flags;
    mem->size = size;
    atomic_init(&mem->map_count, 0);
    pthread_mutex_init(&mem->lock, NULL);
    return mem;
}

cl_ulong mosaic_context_max_alloc(cl_context context)
{
    cl_ulong max = 0;
    for (cl_uint i = 0; i < context->num_devices; i++) {
        cl_ulong m = context->devices[i]->max_mem_alloc_size;
        if (m == 0) /* a device that did not say: no limit of its own */
            m = (cl_ulong)SIZE_MAX;
        if (m > max)
            max = m;
    }
    return max ? max : (cl_ulong)SIZE_MAX;
}

/* Gives mem (a buffer or a sub-buffer, its fields set) a storage on every
 * memory domain of its context: devices that share memory (a device and its
 * sub-devices) share one.  `initial`: the bytes a buffer starts with, or
 * NULL.  On failure the storages made so far stay counted in
 * num_storages, for mem_finish to free. */
cl_int mosaic_mem_alloc_storages(cl_mem mem, const void *initial)
{
    cl_context context = mem->context;
    for (cl_uint i = 0; i < context->num_devices; i++) {
        cl_device_id domain = mosaic_device_mem_domain(context->devices[i]);
        if (mosaic_mem_storage_on(mem, domain))
            continue;
        mosaic_mem_storage *s = &mem->storages[mem->num_storages];
        s->device = domain;
        cl_int err = domain->ops->mem_alloc(domain, mem, initial, s);
        if (err != CL_SUCCESS) {
            *s = (mosaic_mem_storage){ 0 };
            return MOSAIC_ERROR(err, "device %s cannot allocate %zu bytes (%d)", domain->name, mem->size, err);
        }
        mem->num_storages++;
    }
    if (!mem->parent && mem->num_storages > 1 && !(mem->coherence = mosaic_coherence_new(mem->size, mem->num_storages)))
        return CL_OUT_OF_HOST_MEMORY;
    return CL_SUCCESS;
}

static cl_mem create_buffer(cl_context context, const cl_mem_properties *properties,
                            cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
    cl_int err;
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    size_t num_properties = 0;
    if (properties) {
        /* OpenCL 3.0 core defines no buffer property: only the terminator. */
        if (properties[0] != 0) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_PROPERTY, "unknown buffer property 0x%llx",
                                                       (unsigned long long)properties[0]));
            return NULL;
        }
        num_properties = 1;
    }
    if ((err = mosaic_mem_check_flags(flags)) != CL_SUCCESS) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    if (size == 0 || (cl_ulong)size > mosaic_context_max_alloc(context)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_BUFFER_SIZE,
                                                   "size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE", size));
        return NULL;
    }
    bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    if (wants_ptr != (host_ptr != NULL)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_HOST_PTR, wants_ptr
                                                   ? "USE_HOST_PTR or COPY_HOST_PTR with a NULL host_ptr"
                                                   : "host_ptr given without USE_HOST_PTR or COPY_HOST_PTR"));
        return NULL;
    }
    if (host_ptr && !mosaic_host_range_mapped(host_ptr, size)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_HOST_PTR, "host_ptr %p and the %zu bytes after it are "
                                                   "not in this process's memory", host_ptr, size));
        return NULL;
    }
    /* A buffer over SVM memory must fit in its allocation (spec:
     * CL_INVALID_BUFFER_SIZE; test_svm svm_allocate_shared_buffer_negative);
     * so must one over a USM allocation, which is SVM memory underneath
     * (api/svm.h). */
    mosaic_allocation shared;
    if ((flags & CL_MEM_USE_HOST_PTR) && mosaic_allocation_lookup(context, host_ptr, &shared) &&
        size > shared.size - ((uintptr_t)host_ptr - shared.base)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_BUFFER_SIZE, "size %zu runs past the %s allocation "
                                                   "holding host_ptr", size,
                                                   shared.kind == MOSAIC_ALLOC_SVM ? "SVM" : "USM"));
        return NULL;
    }

    cl_mem mem = mosaic_mem_new(context, CL_MEM_OBJECT_BUFFER, flags, size);
    if (!mem) {
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    if (num_properties) {
        mem->properties = mosaic_calloc(num_properties, sizeof *mem->properties);
        if (!mem->properties) {
            mosaic_release(mem);
            mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
            return NULL;
        }
        mem->num_properties = num_properties; /* calloc wrote the terminator */
    }
    if (flags & CL_MEM_USE_HOST_PTR) {
        mem->host_ptr = host_ptr; /* what the devices use (or keep in step with) */
        mem->is_svm_backed = mosaic_svm_contains(context, host_ptr);
    }
    /* host_ptr (USE or COPY_HOST_PTR) is what the buffer starts with */
    if ((err = mosaic_mem_alloc_storages(mem, host_ptr)) != CL_SUCCESS) {
        mosaic_release(mem);
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    mosaic_check_written_new(mem, host_ptr != NULL); /* (without memory for it: not checked) */
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return mem;
}

cl_mem CL_API_CALL
clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
    return create_buffer(context, NULL, flags, size, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL
clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                             size_t size, void *host_ptr, cl_int *errcode_ret)
{
    return create_buffer(context, properties, flags, size, host_ptr, errcode_ret);
}

cl_int mosaic_mem_inherit_flags(cl_mem parent, cl_mem_flags flags, cl_mem_flags *out)
{
    if (flags & ~(cl_mem_flags)BUFFER_FLAGS)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "unknown bits in flags 0x%llx", (unsigned long long)flags);
    if (flags & HOST_PTR_FLAGS)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "USE/ALLOC/COPY_HOST_PTR are inherited, not given, for a sub-buffer or an image made from a memory object");
    if (!at_most_one_bit(flags & ACCESS_FLAGS) || !at_most_one_bit(flags & HOST_ACCESS_FLAGS))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "conflicting access flags");

    cl_mem_flags pa = parent->flags & ACCESS_FLAGS, a = flags & ACCESS_FLAGS;
    if ((pa == CL_MEM_WRITE_ONLY && (a & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        (pa == CL_MEM_READ_ONLY && (a & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "access flags wider than those of the buffer or image it is made from");
    cl_mem_flags ph = parent->flags & HOST_ACCESS_FLAGS, h = flags & HOST_ACCESS_FLAGS;
    if ((ph == CL_MEM_HOST_WRITE_ONLY && h == CL_MEM_HOST_READ_ONLY) ||
        (ph == CL_MEM_HOST_READ_ONLY && h == CL_MEM_HOST_WRITE_ONLY) ||
        (ph == CL_MEM_HOST_NO_ACCESS && (h & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "host access flags wider than those of the buffer or image it is made from");

    *out = (a ? a : pa) | (h ? h : ph) | (parent->flags & HOST_PTR_FLAGS);
    return CL_SUCCESS;
}

cl_mem CL_API_CALL
clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                  const void *buffer_create_info, cl_int *errcode_ret)
{
    cl_int err;
    if (!mosaic_mem_is_buffer(buffer) || buffer->parent) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_MEM_OBJECT,
                                                   "not a buffer, or a sub-buffer (sub-buffers do not nest)"));
        return NULL;
    }
    cl_mem_flags sub_flags;
    if ((err = mosaic_mem_inherit_flags(buffer, flags, &sub_flags)) != CL_SUCCESS) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !buffer_create_info) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE,
                                                   "buffer_create_type must be REGION with a cl_buffer_region"));
        return NULL;
    }
    const cl_buffer_region *region = buffer_create_info;
    if (region->size == 0) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_BUFFER_SIZE, "region size is 0"));
        return NULL;
    }
    if (region->origin > buffer->size || region->size > buffer->size - region->origin) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "region (%zu, %zu) outside the %zu-byte buffer",
                                                   region->origin, region->size, buffer->size));
        return NULL;
    }
    bool aligned = false;
    cl_context context = buffer->context;
    for (cl_uint i = 0; i < context->num_devices && !aligned; i++)
        aligned = region->origin % device_align_bytes(context->devices[i]) == 0;
    if (!aligned) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET,
                                                   "origin %zu is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN",
                                                   region->origin));
        return NULL;
    }

    cl_mem sub = mosaic_mem_new(context, CL_MEM_OBJECT_BUFFER, sub_flags, region->size);
    if (!sub) {
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    sub->parent = buffer;
    mosaic_retain_internal(buffer);
    sub->offset = region->origin;
    sub->host_ptr = buffer->host_ptr ? (char *)buffer->host_ptr + region->origin : NULL;
    sub->is_svm_backed = buffer->is_svm_backed;
    if ((err = mosaic_mem_alloc_storages(sub, NULL)) != CL_SUCCESS) { /* views of the parent's */
        mosaic_release(sub);
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return sub;
}

MOSAIC_RETAIN_RELEASE(MemObject, cl_mem, MEM)

cl_int CL_API_CALL
clSetMemObjectDestructorCallback(cl_mem memobj, void (CL_CALLBACK *pfn_notify)(cl_mem, void *), void *user_data)
{
    MOSAIC_CHECK_HANDLE(memobj, MEM);
    if (!pfn_notify)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "pfn_notify is NULL");
    mosaic_callback *cb = mosaic_calloc(1, sizeof *cb);
    if (!cb)
        return CL_OUT_OF_HOST_MEMORY;
    cb->fn = (void (*)(void))pfn_notify;
    cb->user_data = user_data;
    pthread_mutex_lock(&memobj->lock);
    cb->next = memobj->destructor_callbacks; /* newest first */
    memobj->destructor_callbacks = cb;
    pthread_mutex_unlock(&memobj->lock);
    return CL_SUCCESS;
}

cl_int CL_API_CALL
clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size, void *param_value,
                   size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(memobj, MEM);
    switch (param_name) {
    case CL_MEM_TYPE: MOSAIC_INFO_SCALAR(cl_mem_object_type, memobj->mem_type);
    case CL_MEM_FLAGS: MOSAIC_INFO_SCALAR(cl_mem_flags, memobj->flags);
    case CL_MEM_SIZE: MOSAIC_INFO_SCALAR(size_t, memobj->size);
    case CL_MEM_HOST_PTR: MOSAIC_INFO_SCALAR(void *, memobj->host_ptr);
    case CL_MEM_MAP_COUNT: MOSAIC_INFO_SCALAR(cl_uint, atomic_load(&memobj->map_count));
    case CL_MEM_REFERENCE_COUNT: MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(memobj));
    case CL_MEM_CONTEXT: MOSAIC_INFO_SCALAR(cl_context, memobj->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT: MOSAIC_INFO_SCALAR(cl_mem, memobj->parent);
    case CL_MEM_OFFSET: MOSAIC_INFO_SCALAR(size_t, memobj->parent ? memobj->offset : 0);
    case CL_MEM_USES_SVM_POINTER: MOSAIC_INFO_SCALAR(cl_bool, memobj->is_svm_backed ? CL_TRUE : CL_FALSE);
    case CL_MEM_PROPERTIES:
        /* Nothing (size 0) unless created by ...WithProperties with a list. */
        MOSAIC_INFO_ARRAY(memobj->properties, memobj->num_properties);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

/* ---- pipes ------------------------------------------------------------------ */

/* A pipe's storage is the device's (mem_alloc sees mem_type CL_MEM_OBJECT_PIPE
 * and lays out its own header and packets, docs/pipes.md); here only the
 * arguments are checked.  mem->size is the packets' bytes. */
cl_mem CL_API_CALL
clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size, cl_uint pipe_max_packets,
             const cl_pipe_properties *properties, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    cl_uint max_packet_size = 0;
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (mosaic_device_pipe_support(context->devices[i]) &&
            context->devices[i]->pipe_max_packet_size > max_packet_size)
            max_packet_size = context->devices[i]->pipe_max_packet_size;
    cl_int err = CL_SUCCESS;
    if (max_packet_size == 0)
        err = MOSAIC_ERROR(CL_INVALID_OPERATION, "no device in the context supports pipes");
    else if (flags & ~(cl_mem_flags)(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS))
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "flags 0x%llx: a pipe takes only CL_MEM_READ_WRITE and "
                           "CL_MEM_HOST_NO_ACCESS", (unsigned long long)flags);
    else if (properties)
        err = MOSAIC_ERROR(CL_INVALID_VALUE, "properties must be NULL (no pipe property is defined)");
    else if (pipe_packet_size == 0 || pipe_packet_size > max_packet_size)
        err = MOSAIC_ERROR(CL_INVALID_PIPE_SIZE, "pipe_packet_size %u is 0 or above CL_DEVICE_PIPE_MAX_PACKET_SIZE "
                           "(%u)", pipe_packet_size, max_packet_size);
    else if (pipe_max_packets == 0)
        err = MOSAIC_ERROR(CL_INVALID_PIPE_SIZE, "pipe_max_packets is 0");
    else if ((cl_ulong)pipe_packet_size * pipe_max_packets > mosaic_context_max_alloc(context))
        err = MOSAIC_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE, "%u packets of %u bytes exceed "
                           "CL_DEVICE_MAX_MEM_ALLOC_SIZE", pipe_max_packets, pipe_packet_size);
    if (err != CL_SUCCESS) {
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    cl_mem mem = mosaic_mem_new(context, CL_MEM_OBJECT_PIPE, flags, (size_t)pipe_packet_size * pipe_max_packets);
    if (!mem) {
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    mem->pipe_packet_size = pipe_packet_size;
    mem->pipe_max_packets = pipe_max_packets;
    if ((err = mosaic_mem_alloc_storages(mem, NULL)) != CL_SUCCESS) {
        mosaic_release(mem);
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return mem;
}

cl_int CL_API_CALL
clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void *param_value,
              size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(pipe, MEM);
    if (pipe->mem_type != CL_MEM_OBJECT_PIPE)
        return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "memory object %p is not a pipe", (void *)pipe);
    switch (param_name) {
    case CL_PIPE_PACKET_SIZE: MOSAIC_INFO_SCALAR(cl_uint, pipe->pipe_packet_size);
    case CL_PIPE_MAX_PACKETS: MOSAIC_INFO_SCALAR(cl_uint, pipe->pipe_max_packets);
    case CL_PIPE_PROPERTIES:
        /* properties must be NULL at creation: nothing to return (size 0) */
        MOSAIC_INFO_ARRAY((const cl_pipe_properties *)NULL, 0);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}
