/*
 * Shared virtual memory: clSVMAlloc / clSVMFree, the SVM commands
 * (free, memcpy, fill, map, unmap, migrate) and the registry of SVM
 * allocations that clCreateBuffer asks through mosaic_svm_contains().
 *
 * The memory and the commands' work are the devices' (core/device.h):
 * ops->svm_alloc / svm_free give and take back allocations (the context's
 * first device with SVM allocates for the whole context), and
 * ops->svm_copy, svm_fill, svm_map, svm_unmap and svm_migrate run the
 * commands.  On the CPU device the host and the device are the same
 * processor and see one coherent address space, so every kind of SVM is
 * plain memory (devices/cpu/cpu_memory.c):
 *   - an SVM allocation is an aligned malloc; its address is valid in kernels
 *     as it is on the host (pointers stored inside it stay valid too);
 *   - coarse- and fine-grained buffers differ only in what the application
 *     may rely on: clEnqueueSVMMap / Unmap move nothing (the CPU's ops are
 *     NULL) and are commands for their place in the command graph alone;
 *   - fine-grained system SVM is any host address (malloc, static, stack);
 *   - SVM atomics are the processor's atomic instructions, which kernels
 *     (OpenCL C atomics, compiled to LLVM atomics) and host C11 atomics both
 *     use, so memory_scope_all_svm_devices needs nothing more.
 *
 * The registry maps address ranges to (context, flags) for every live
 * clSVMAlloc allocation.  Live allocations never overlap, so one search tree
 * for the process, ordered by address and guarded by a read-write lock,
 * answers "which allocation holds this address" for every context; each
 * entry names its context and lookups match it.  An allocation holds an internal
 * reference on its context, so a context outlives its SVM memory and an
 * entry can never name a destroyed context (or a new one at the same
 * address).
 */
#include "api/context.h"
#include "core/engine.h"
#include "api/entry.h"
#include "api/enqueue.h"
#include "api/memory.h"
#include "core/util.h"
#include "base/assert.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

/* The default and largest alignment: the size of the largest built-in data
 * type, long16 (CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE). */
#define SVM_MAX_ALIGN ((cl_uint)sizeof(cl_long16))

#define SVM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define SVM_FLAGS (SVM_ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)

/* ---- the registry of allocations ------------------------------------------------ */

typedef struct svm_allocation {
    uintptr_t base;
    size_t size;               /* as asked for (at least 1) */
    cl_svm_mem_flags flags;
    cl_context context;        /* internal reference */
    cl_device_id device;       /* whose ops->svm_alloc made it, and will free it */
} svm_allocation;

/* A balanced search tree (POSIX tsearch: a red-black tree in glibc) of
 * svm_allocation entries, ordered by address.  Live allocations never
 * overlap, so "a ends before b starts" orders them, and a query for one byte
 * compares equal to the allocation that holds it: lookups of any interior
 * pointer, insertions and removals all take O(log n), whatever the order of
 * allocation and freeing. */
static pthread_rwlock_t registry_lock = PTHREAD_RWLOCK_INITIALIZER;
static void *registry_root;

static int compare_ranges(const void *pa, const void *pb)
{
    const svm_allocation *a = pa, *b = pb;
    if (a->base + a->size <= b->base)
        return -1;
    if (b->base + b->size <= a->base)
        return 1;
    return 0; /* overlap: the allocation holding the byte looked up */
}

/* The entry holding ptr, or NULL.  Caller holds the lock. */
static svm_allocation *find_locked(const void *ptr)
{
    MOSAIC_ASSERT(mosaic_rwlock_held(&registry_lock));
    svm_allocation key = { .base = (uintptr_t)ptr, .size = 1 };
    void **node = tfind(&key, &registry_root, compare_ranges);
    return node ? *node : NULL;
}

static bool registry_add(const svm_allocation *a)
{
    svm_allocation *entry = malloc(sizeof *entry);
    if (!entry)
        return false;
    *entry = *a;
    pthread_rwlock_wrlock(&registry_lock);
    void **node = tsearch(entry, &registry_root, compare_ranges);
    bool ok = node && *node == entry; /* (never an overlap: the memory is new) */
    pthread_rwlock_unlock(&registry_lock);
    if (!ok)
        free(entry);
    return ok;
}

/* Takes the allocation that starts at ptr in context out of the registry.
 * False when there is none (ptr is not an SVM allocation of context, or was
 * freed already). */
static bool registry_remove(cl_context context, const void *ptr, svm_allocation *out)
{
    svm_allocation *a = NULL;
    pthread_rwlock_wrlock(&registry_lock);
    svm_allocation *found = find_locked(ptr);
    if (found && found->base == (uintptr_t)ptr && found->context == context) {
        a = found;
        tdelete(a, &registry_root, compare_ranges);
    }
    pthread_rwlock_unlock(&registry_lock);
    if (!a)
        return false;
    *out = *a;
    free(a);
    return true;
}

/* Copies out the allocation of context that holds ptr; false if none. */
static bool registry_lookup(cl_context context, const void *ptr, svm_allocation *out)
{
    pthread_rwlock_rdlock(&registry_lock);
    svm_allocation *a = find_locked(ptr);
    bool found = a && a->context == context;
    if (found)
        *out = *a;
    pthread_rwlock_unlock(&registry_lock);
    return found;
}

bool mosaic_svm_contains(cl_context context, const void *ptr)
{
    svm_allocation a;
    return ptr && registry_lookup(context, ptr, &a);
}

/* ---- clSVMAlloc and clSVMFree ----------------------------------------------------- */

/* The SVM capabilities every device of the context has (0: some device has
 * no SVM at all). */
static cl_device_svm_capabilities context_svm_capabilities(cl_context context)
{
    cl_device_svm_capabilities caps = ~(cl_device_svm_capabilities)0;
    for (cl_uint i = 0; i < context->num_devices; i++)
        caps &= context->devices[i]->svm_capabilities;
    return context->num_devices ? caps : 0;
}

/* The device that allocates the context's SVM: its first device with SVM
 * (NULL: none). */
static cl_device_id context_svm_device(cl_context context)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i]->svm_capabilities)
            return context->devices[i];
    return NULL;
}

/* The smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE of the context's devices. */
static cl_ulong context_min_alloc(cl_context context)
{
    cl_ulong min = (cl_ulong)SIZE_MAX;
    for (cl_uint i = 0; i < context->num_devices; i++) {
        cl_ulong m = context->devices[i]->max_mem_alloc_size;
        if (m && m < min)
            min = m;
    }
    return min;
}

CL_API_ENTRY void *CL_API_CALL
clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
    if (!MOSAIC_IS(context, CONTEXT)) {
        mosaic_debug(__func__, "%p is not a valid context", (void *)context);
        return NULL;
    }
    cl_device_id device = context_svm_device(context);
    if (!device) {
        mosaic_debug(__func__, "no device of the context supports SVM");
        return NULL;
    }
    if (flags & ~(cl_svm_mem_flags)SVM_FLAGS) {
        mosaic_debug(__func__, "unknown bits in flags 0x%llx", (unsigned long long)flags);
        return NULL;
    }
    cl_svm_mem_flags access = flags & SVM_ACCESS_FLAGS;
    if (access & (access - 1)) {
        mosaic_debug(__func__, "more than one of READ_WRITE, WRITE_ONLY, READ_ONLY in flags");
        return NULL;
    }
    if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)) {
        mosaic_debug(__func__, "CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER");
        return NULL;
    }
    cl_device_svm_capabilities caps = context_svm_capabilities(context);
    if (((flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) && !(caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) ||
        ((flags & CL_MEM_SVM_ATOMICS) && !(caps & CL_DEVICE_SVM_ATOMICS))) {
        mosaic_debug(__func__, "a device of the context does not support fine-grained buffers or SVM atomics");
        return NULL;
    }
    if (size == 0 || (cl_ulong)size > context_min_alloc(context)) {
        mosaic_debug(__func__, "size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE", size);
        return NULL;
    }
    if (alignment == 0)
        alignment = SVM_MAX_ALIGN;
    if ((alignment & (alignment - 1)) || alignment > SVM_MAX_ALIGN) {
        mosaic_debug(__func__, "alignment %u is not a power of two up to %u", alignment, SVM_MAX_ALIGN);
        return NULL;
    }

    void *p = device->ops->svm_alloc(device, flags, size, alignment);
    if (!p) {
        mosaic_context_notify(context, "clSVMAlloc: out of memory");
        mosaic_debug(__func__, "cannot allocate %zu bytes", size);
        return NULL;
    }
    svm_allocation a = { (uintptr_t)p, size, flags ? flags : CL_MEM_READ_WRITE, context, device };
    if (!registry_add(&a)) {
        device->ops->svm_free(device, p);
        mosaic_debug(__func__, "out of host memory for the SVM registry");
        return NULL;
    }
    mosaic_retain_internal(context);
    return p;
}

/* Frees an SVM allocation of context: false when ptr is not one. */
static bool svm_free(cl_context context, void *ptr)
{
    svm_allocation a;
    if (!registry_remove(context, ptr, &a))
        return false;
    a.device->ops->svm_free(a.device, ptr);
    mosaic_release_internal(a.context);
    return true;
}

CL_API_ENTRY void CL_API_CALL
clSVMFree(cl_context context, void *svm_pointer)
{
    if (!svm_pointer)
        return;
    if (!MOSAIC_IS(context, CONTEXT)) {
        mosaic_debug(__func__, "%p is not a valid context", (void *)context);
        return;
    }
    if (!svm_free(context, svm_pointer))
        mosaic_debug(__func__, "%p is not an SVM allocation of context %p (or was freed already): ignored",
                     svm_pointer, (void *)context);
}

/* ---- commands -------------------------------------------------------------------- */

static cl_int check_queue(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    if (queue->properties & CL_QUEUE_ON_DEVICE)
        return MOSAIC_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue cannot take host commands");
    if (!queue->device->svm_capabilities)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "the queue's device does not support SVM");
    return mosaic_check_wait_list(queue->context, num_events, wait_list);
}

/* [p, p + size) does not wrap around the address space. */
static bool range_fits(const void *p, size_t size)
{
    return size <= UINTPTR_MAX - (uintptr_t)p;
}

static void free_payload(cl_event self)
{
    free(self->payload);
    self->payload = NULL;
}

/* Creates and enqueues a command.  `payload` (malloc'd, or NULL when the
 * command has nothing to carry) becomes the command's and is freed after it
 * completes; `run` NULL makes an ordering-only command. */
static cl_int submit(cl_command_queue queue, cl_command_type type, void *payload, cl_int (*run)(cl_event),
                     bool blocking, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (mosaic_recording) /* into a command buffer (api/command_buffer.c) */
        return mosaic_record_command(type, payload, run, free_payload);
    cl_event cmd = mosaic_command_new(queue, type);
    if (!cmd) {
        free(payload);
        return CL_OUT_OF_HOST_MEMORY;
    }
    cmd->run = run;
    cmd->payload = payload;
    cmd->cleanup = payload ? free_payload : NULL;
    cmd->run_inline = blocking && run;
    return mosaic_command_enqueue(cmd, num_events, wait_list, event, blocking);
}

/* clEnqueueSVMFree */

typedef struct svm_free_payload {
    void (CL_CALLBACK *fn)(cl_command_queue, cl_uint, void *[], void *);
    void *user_data;
    cl_uint count;
    void *pointers[];
} svm_free_payload;

static cl_int run_svm_free(cl_event self)
{
    svm_free_payload *f = self->payload;
    if (f->fn) {
        f->fn(self->queue, f->count, f->pointers, f->user_data);
        return CL_COMPLETE;
    }
    for (cl_uint i = 0; i < f->count; i++)
        if (f->pointers[i] && !svm_free(self->context, f->pointers[i]))
            mosaic_debug("clEnqueueSVMFree", "%p was freed before the command ran: skipped", f->pointers[i]);
    return CL_COMPLETE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
                 void (CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers,
                                                   void *svm_pointers[], void *user_data),
                 void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if ((num_svm_pointers == 0) != (svm_pointers == NULL))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_svm_pointers (%u) and svm_pointers (%p) disagree",
                            num_svm_pointers, (void *)svm_pointers);
    /* Without a callback Mosaic frees the pointers itself, so each must be an
     * allocation of this context: anything else would reach free() later. */
    for (cl_uint i = 0; i < num_svm_pointers && !pfn_free_func; i++) {
        svm_allocation a;
        if (svm_pointers[i] && (!registry_lookup(command_queue->context, svm_pointers[i], &a) ||
                                a.base != (uintptr_t)svm_pointers[i]))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_pointers[%u] = %p is not an SVM allocation of the queue's "
                                "context, and no pfn_free_func was given", i, svm_pointers[i]);
    }
    svm_free_payload *f = malloc(sizeof *f + (size_t)num_svm_pointers * sizeof(void *));
    if (!f)
        return CL_OUT_OF_HOST_MEMORY;
    f->fn = pfn_free_func;
    f->user_data = user_data;
    f->count = num_svm_pointers;
    if (num_svm_pointers) /* the user may reuse the array at once */
        memcpy(f->pointers, svm_pointers, num_svm_pointers * sizeof(void *));
    return submit(command_queue, CL_COMMAND_SVM_FREE, f, run_svm_free, false,
                  num_events_in_wait_list, event_wait_list, event);
}

/* clEnqueueSVMMemcpy */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr, const void *src_ptr,
                   size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if (!dst_ptr || !src_ptr)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%s is NULL", dst_ptr ? "src_ptr" : "dst_ptr");
    if ((err = mosaic_check_host_memory("dst_ptr", dst_ptr, 0, size)) ||
        (err = mosaic_check_host_memory("src_ptr", src_ptr, 0, size)))
        return err;
    uintptr_t d = (uintptr_t)dst_ptr, s = (uintptr_t)src_ptr;
    if (size && d < s + size && s < d + size)
        return MOSAIC_ERROR(CL_MEM_COPY_OVERLAP, "[%p, +%zu) and [%p, +%zu) overlap", dst_ptr, size, src_ptr, size);
    mosaic_svm_copy *c = malloc(sizeof *c);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    *c = (mosaic_svm_copy){ dst_ptr, src_ptr, size };
    return submit(command_queue, CL_COMMAND_SVM_MEMCPY, c, command_queue->device->ops->svm_copy, blocking_copy,
                  num_events_in_wait_list, event_wait_list, event);
}

/* clEnqueueSVMMemFill */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern, size_t pattern_size,
                    size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if (!svm_ptr)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_ptr is NULL");
    if (!pattern)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "pattern is NULL");
    if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "pattern_size %zu is not 1, 2, 4, ..., 128", pattern_size);
    if ((uintptr_t)svm_ptr % pattern_size)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_ptr %p is not aligned to pattern_size %zu", svm_ptr, pattern_size);
    if (size % pattern_size)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "size %zu is not a multiple of pattern_size %zu", size, pattern_size);
    if ((err = mosaic_check_host_memory("svm_ptr", svm_ptr, 0, size)))
        return err;
    mosaic_svm_fill *f = malloc(sizeof *f);
    if (!f)
        return CL_OUT_OF_HOST_MEMORY;
    f->ptr = svm_ptr;
    f->size = size;
    f->pattern_size = pattern_size;
    memcpy(f->pattern, pattern, pattern_size); /* the user may reuse pattern at once */
    return submit(command_queue, CL_COMMAND_SVM_MEMFILL, f, command_queue->device->ops->svm_fill, false,
                  num_events_in_wait_list, event_wait_list, event);
}

/* clEnqueueSVMMap and clEnqueueSVMUnmap: on a device whose ops for them are
 * NULL (the CPU: the region is already in the host's address space and host
 * and device share caches) both are ordering-only commands
 * (synchronisation points, rule 2 of seed 001), with no payload. */

/* A mosaic_svm_region for `op`, or NULL when the device has no op (then
 * *ok stays true; false: out of memory). */
static mosaic_svm_region *svm_region(cl_int (*op)(cl_event), void *pointer, size_t size, cl_map_flags flags,
                                     bool *ok)
{
    *ok = true;
    if (!op)
        return NULL;
    mosaic_svm_region *r = malloc(sizeof *r);
    if (!r) {
        *ok = false;
        return NULL;
    }
    *r = (mosaic_svm_region){ pointer, size, flags };
    return r;
}

#define MAP_FLAGS (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags, void *svm_ptr,
                size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if (!svm_ptr)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_ptr is NULL");
    if (size == 0)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "size is 0");
    if ((flags & ~(cl_map_flags)MAP_FLAGS) ||
        ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "invalid map_flags 0x%llx", (unsigned long long)flags);
    if (!range_fits(svm_ptr, size))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "%zu bytes from %p wrap around the address space", size, svm_ptr);
    cl_int (*op)(cl_event) = command_queue->device->ops->svm_map;
    bool ok;
    mosaic_svm_region *r = svm_region(op, svm_ptr, size, flags, &ok);
    if (!ok)
        return CL_OUT_OF_HOST_MEMORY;
    return submit(command_queue, CL_COMMAND_SVM_MAP, r, op, blocking_map,
                  num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint num_events_in_wait_list,
                  const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if (!svm_ptr)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_ptr is NULL");
    cl_int (*op)(cl_event) = command_queue->device->ops->svm_unmap;
    bool ok;
    mosaic_svm_region *r = svm_region(op, svm_ptr, 0, 0, &ok);
    if (!ok)
        return CL_OUT_OF_HOST_MEMORY;
    return submit(command_queue, CL_COMMAND_SVM_UNMAP, r, op, false,
                  num_events_in_wait_list, event_wait_list, event);
}

/* clEnqueueSVMMigrateMem: what moves is the device's business (the CPU: one
 * memory for host and device, nothing moves, ordering only). */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers,
                       const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    if (num_svm_pointers == 0 || !svm_pointers)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "no SVM pointers given");
    if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "invalid migration flags 0x%llx", (unsigned long long)flags);
    for (cl_uint i = 0; i < num_svm_pointers; i++) {
        svm_allocation a;
        size_t size = sizes ? sizes[i] : 0;
        if (!svm_pointers[i] || !registry_lookup(command_queue->context, svm_pointers[i], &a))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_pointers[%u] = %p is not inside an SVM allocation of the "
                                "queue's context", i, svm_pointers[i]);
        if (size > a.size - ((uintptr_t)svm_pointers[i] - a.base))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_pointers[%u] + sizes[%u] (%zu) reaches past the end of its "
                                "%zu-byte SVM allocation", i, i, size, a.size);
    }
    cl_int (*op)(cl_event) = command_queue->device->ops->svm_migrate;
    mosaic_svm_migration *m = NULL;
    if (op) {
        m = malloc(sizeof *m + num_svm_pointers * (sizeof *m->pointers + sizeof *m->sizes));
        if (!m)
            return CL_OUT_OF_HOST_MEMORY;
        m->flags = flags;
        m->count = num_svm_pointers;
        m->pointers = (const void **)(m + 1);
        m->sizes = (size_t *)(m->pointers + num_svm_pointers);
        for (cl_uint i = 0; i < num_svm_pointers; i++) {
            m->pointers[i] = svm_pointers[i];
            m->sizes[i] = sizes ? sizes[i] : 0;
        }
    }
    return submit(command_queue, CL_COMMAND_SVM_MIGRATE_MEM, m, op, false,
                  num_events_in_wait_list, event_wait_list, event);
}
