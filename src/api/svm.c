/*
 * Shared virtual memory: clSVMAlloc / clSVMFree, the SVM commands
 * (free, memcpy, fill, map, unmap, migrate) and the registry of SVM
 * allocations that clCreateBuffer asks through mosaic_svm_contains().
 *
 * The memory and the commands' work are the devices' (core/device.h):
 * ops->svm_alloc / svm_free give and take back allocations (the context's
 * GPU, else its first device with SVM, allocates for the whole context), and
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
 * The registry maps address ranges to (context, kind, flags) for every live
 * clSVMAlloc allocation, and for the USM allocations of api/usm.c, which
 * share it and the commands below (api/svm.h).  Live allocations never
 * overlap, so one search tree for the process, ordered by address and
 * guarded by a read-write lock, answers "which allocation holds this
 * address" for every context; each entry names its context and lookups
 * match it.  An SVM allocation holds an internal reference on its context,
 * so a context outlives its SVM memory; USM allocations hold none, and the
 * context's destruction frees those left (mosaic_allocations_free_context):
 * either way an entry can never name a destroyed context (or a new one at
 * the same address).
 */
#define _GNU_SOURCE /* twalk_r */
#include "api/context.h"
#include "core/engine.h"
#include "api/entry.h"
#include "api/enqueue.h"
#include "api/memory.h"
#include "api/svm.h"
#include "core/util.h"
#include "base/assert.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

#define SVM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define SVM_FLAGS (SVM_ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)

/* ---- the registry of allocations ------------------------------------------------ */

typedef mosaic_allocation svm_allocation;

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

static bool is_usm(const svm_allocation *a)
{
    return a->kind != MOSAIC_ALLOC_SVM;
}

/* Takes the allocation that starts at ptr in context, of the USM kinds or
 * SVM, out of the registry.  False when there is none (ptr is not such an
 * allocation of context, or was freed already). */
static bool registry_remove(cl_context context, const void *ptr, bool usm, svm_allocation *out)
{
    svm_allocation *a = NULL;
    pthread_rwlock_wrlock(&registry_lock);
    svm_allocation *found = find_locked(ptr);
    if (found && found->base == (uintptr_t)ptr && found->context == context && is_usm(found) == usm) {
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

bool mosaic_allocation_lookup(cl_context context, const void *ptr, mosaic_allocation *out)
{
    return ptr && registry_lookup(context, ptr, out);
}

bool mosaic_svm_contains(cl_context context, const void *ptr)
{
    svm_allocation a;
    return ptr && registry_lookup(context, ptr, &a) && a.kind == MOSAIC_ALLOC_SVM;
}

/* Live USM allocations, all contexts: a context's destruction walks the
 * registry only when there are some. */
static atomic_size_t num_usm_allocations;

void *mosaic_allocation_new(const mosaic_allocation *desc, cl_svm_mem_flags svm_flags, cl_uint alignment)
{
    cl_device_id device = desc->allocator;
    void *p = device->ops->svm_alloc(device, svm_flags, desc->size, alignment);
    if (!p) {
        mosaic_context_notify(desc->context, "out of memory for a shared allocation");
        return NULL;
    }
    svm_allocation a = *desc;
    a.base = (uintptr_t)p;
    if (!registry_add(&a)) {
        device->ops->svm_free(device, p);
        return NULL;
    }
    if (is_usm(&a))
        atomic_fetch_add(&num_usm_allocations, 1);
    else
        mosaic_retain_internal(a.context);
    return p;
}

bool mosaic_allocation_free(cl_context context, void *ptr, bool usm)
{
    svm_allocation a;
    if (!registry_remove(context, ptr, usm, &a))
        return false;
    a.allocator->ops->svm_free(a.allocator, ptr);
    if (usm)
        atomic_fetch_sub(&num_usm_allocations, 1);
    else
        mosaic_release_internal(a.context);
    return true;
}

/* twalk_r's collection of one context's USM allocations. */
typedef struct context_allocations {
    cl_context context;
    svm_allocation **found;
    size_t count, cap;
    bool out_of_memory;
} context_allocations;

static void collect_usm(const void *node, VISIT which, void *closure)
{
    context_allocations *c = closure;
    svm_allocation *a = *(svm_allocation *const *)node;
    if ((which != postorder && which != leaf) || a->context != c->context || !is_usm(a))
        return;
    if (c->count == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        svm_allocation **grown = realloc(c->found, cap * sizeof *grown);
        if (!grown) {
            c->out_of_memory = true;
            return;
        }
        c->found = grown;
        c->cap = cap;
    }
    c->found[c->count++] = a;
}

void mosaic_allocations_free_context(cl_context context)
{
    if (atomic_load(&num_usm_allocations) == 0)
        return;
    /* Collected, then taken out (tdelete cannot run inside twalk); with no
     * memory for the whole list, a bounded list at a time. */
    context_allocations c = { .context = context };
    do {
        c.count = 0;
        c.out_of_memory = false;
        pthread_rwlock_wrlock(&registry_lock);
        twalk_r(registry_root, collect_usm, &c);
        for (size_t i = 0; i < c.count; i++)
            tdelete(c.found[i], &registry_root, compare_ranges);
        pthread_rwlock_unlock(&registry_lock);
        for (size_t i = 0; i < c.count; i++) {
            svm_allocation *a = c.found[i];
            a->allocator->ops->svm_free(a->allocator, (void *)a->base);
            atomic_fetch_sub(&num_usm_allocations, 1);
            free(a);
        }
    } while (c.out_of_memory && c.count > 0);
    free(c.found);
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

/* The device that allocates the context's SVM (NULL: none has SVM): a GPU
 * where the context has one, whose allocations (managed memory) the host
 * and a CPU device address too, where a CPU device's (host memory) would be
 * beyond the GPU; else its first device with SVM. */
static cl_device_id context_svm_device(cl_context context)
{
    cl_device_id first = NULL;
    for (cl_uint i = 0; i < context->num_devices; i++) {
        cl_device_id d = context->devices[i];
        if (d->svm_capabilities && (d->type & CL_DEVICE_TYPE_GPU))
            return d;
        if (d->svm_capabilities && !first)
            first = d;
    }
    return first;
}

cl_ulong mosaic_context_min_alloc(cl_context context)
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
    if (size == 0 || (cl_ulong)size > mosaic_context_min_alloc(context)) {
        mosaic_debug(__func__, "size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE", size);
        return NULL;
    }
    if (alignment == 0)
        alignment = MOSAIC_SVM_MAX_ALIGN;
    if ((alignment & (alignment - 1)) || alignment > MOSAIC_SVM_MAX_ALIGN) {
        mosaic_debug(__func__, "alignment %u is not a power of two up to %u", alignment, MOSAIC_SVM_MAX_ALIGN);
        return NULL;
    }

    svm_allocation a = { .size = size, .kind = MOSAIC_ALLOC_SVM, .flags = flags ? flags : CL_MEM_READ_WRITE,
                         .context = context, .allocator = device };
    void *p = mosaic_allocation_new(&a, flags, alignment);
    if (!p)
        mosaic_debug(__func__, "cannot allocate %zu bytes", size);
    return p;
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
    if (!mosaic_allocation_free(context, svm_pointer, false))
        mosaic_debug(__func__, "%p is not an SVM allocation of context %p (or was freed already): ignored",
                     svm_pointer, (void *)context);
}

/* ---- commands -------------------------------------------------------------------- */

cl_int mosaic_check_pointer_queue(const char *function, cl_command_queue queue, bool (*supports)(cl_device_id),
                                  const char *memory, cl_uint num_events, const cl_event *wait_list)
{
    if (!MOSAIC_IS(queue, QUEUE))
        return mosaic_invalid_handle(function, "command_queue", MOSAIC_QUEUE, queue);
    if (queue->properties & CL_QUEUE_ON_DEVICE) {
        mosaic_debug(function, "a device queue cannot take host commands");
        return CL_INVALID_COMMAND_QUEUE;
    }
    if (!supports(queue->device)) {
        mosaic_debug(function, "the queue's device does not support %s", memory);
        return CL_INVALID_OPERATION;
    }
    return mosaic_check_wait_list(queue->context, num_events, wait_list);
}

static bool supports_svm(cl_device_id device)
{
    return device->svm_capabilities != 0;
}

static cl_int check_queue(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list,
                          const char *function)
{
    return mosaic_check_pointer_queue(function, queue, supports_svm, "SVM", num_events, wait_list);
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

cl_int mosaic_enqueue_ordering(cl_command_queue queue, cl_command_type type, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event)
{
    return submit(queue, type, NULL, NULL, false, num_events, wait_list, event);
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
        if (f->pointers[i] && !mosaic_allocation_free(self->context, f->pointers[i], false))
            mosaic_debug("clEnqueueSVMFree", "%p was freed before the command ran: skipped", f->pointers[i]);
    return CL_COMPLETE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
                 void (CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers,
                                                   void *svm_pointers[], void *user_data),
                 void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list, __func__);
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
                                a.base != (uintptr_t)svm_pointers[i] || a.kind != MOSAIC_ALLOC_SVM))
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

/* clEnqueueSVMMemcpy and clEnqueueMemcpyINTEL */

cl_int mosaic_enqueue_host_copy(const char *function, cl_command_queue queue, cl_command_type type, bool blocking,
                                void *dst, const void *src, size_t size, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event)
{
    if (!dst || !src) {
        mosaic_debug(function, "%s is NULL", dst ? "src_ptr" : "dst_ptr");
        return CL_INVALID_VALUE;
    }
    cl_int err;
    if ((err = mosaic_check_host_memory("dst_ptr", dst, 0, size)) ||
        (err = mosaic_check_host_memory("src_ptr", src, 0, size)))
        return err;
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (size && d < s + size && s < d + size) {
        mosaic_debug(function, "[%p, +%zu) and [%p, +%zu) overlap", dst, size, src, size);
        return CL_MEM_COPY_OVERLAP;
    }
    mosaic_svm_copy *c = malloc(sizeof *c);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    *c = (mosaic_svm_copy){ dst, src, size };
    return submit(queue, type, c, queue->device->ops->svm_copy, blocking, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr, const void *src_ptr,
                   size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list, __func__);
    if (err)
        return err;
    return mosaic_enqueue_host_copy(__func__, command_queue, CL_COMMAND_SVM_MEMCPY, blocking_copy, dst_ptr, src_ptr,
                                    size, num_events_in_wait_list, event_wait_list, event);
}

/* clEnqueueSVMMemFill and clEnqueueMemFillINTEL */

cl_int mosaic_enqueue_host_fill(const char *function, cl_command_queue queue, cl_command_type type, void *ptr,
                                const char *ptr_name, const void *pattern, size_t pattern_size, size_t size,
                                cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!ptr) {
        mosaic_debug(function, "%s is NULL", ptr_name);
        return CL_INVALID_VALUE;
    }
    if (!pattern) {
        mosaic_debug(function, "pattern is NULL");
        return CL_INVALID_VALUE;
    }
    if (pattern_size == 0 || pattern_size > MOSAIC_SVM_MAX_ALIGN || (pattern_size & (pattern_size - 1))) {
        mosaic_debug(function, "pattern_size %zu is not 1, 2, 4, ..., %u", pattern_size, MOSAIC_SVM_MAX_ALIGN);
        return CL_INVALID_VALUE;
    }
    if ((uintptr_t)ptr % pattern_size) {
        mosaic_debug(function, "%s %p is not aligned to pattern_size %zu", ptr_name, ptr, pattern_size);
        return CL_INVALID_VALUE;
    }
    if (size % pattern_size) {
        mosaic_debug(function, "size %zu is not a multiple of pattern_size %zu", size, pattern_size);
        return CL_INVALID_VALUE;
    }
    cl_int err;
    if ((err = mosaic_check_host_memory(ptr_name, ptr, 0, size)))
        return err;
    mosaic_svm_fill *f = malloc(sizeof *f);
    if (!f)
        return CL_OUT_OF_HOST_MEMORY;
    f->ptr = ptr;
    f->size = size;
    f->pattern_size = pattern_size;
    memcpy(f->pattern, pattern, pattern_size); /* the user may reuse pattern at once */
    return submit(queue, type, f, queue->device->ops->svm_fill, false, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern, size_t pattern_size,
                    size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list, __func__);
    if (err)
        return err;
    return mosaic_enqueue_host_fill(__func__, command_queue, CL_COMMAND_SVM_MEMFILL, svm_ptr, "svm_ptr", pattern,
                                    pattern_size, size, num_events_in_wait_list, event_wait_list, event);
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
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list, __func__);
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
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list, __func__);
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

/* clEnqueueSVMMigrateMem and clEnqueueMigrateMemINTEL: what moves is the
 * device's business (the CPU: one memory for host and device, nothing
 * moves, ordering only). */

cl_int mosaic_enqueue_migration(cl_command_queue queue, cl_command_type type, cl_uint count, const void **pointers,
                                const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event)
{
    cl_int (*op)(cl_event) = queue->device->ops->svm_migrate;
    mosaic_svm_migration *m = NULL;
    if (op) {
        m = malloc(sizeof *m + count * (sizeof *m->pointers + sizeof *m->sizes));
        if (!m)
            return CL_OUT_OF_HOST_MEMORY;
        m->flags = flags;
        m->count = count;
        m->pointers = (const void **)(m + 1);
        m->sizes = (size_t *)(m->pointers + count);
        for (cl_uint i = 0; i < count; i++) {
            m->pointers[i] = pointers[i];
            m->sizes[i] = sizes ? sizes[i] : 0;
        }
    }
    return submit(queue, type, m, op, false, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers,
                       const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_queue(command_queue, num_events_in_wait_list, event_wait_list, __func__);
    if (err)
        return err;
    if (num_svm_pointers == 0 || !svm_pointers)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "no SVM pointers given");
    if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "invalid migration flags 0x%llx", (unsigned long long)flags);
    for (cl_uint i = 0; i < num_svm_pointers; i++) {
        svm_allocation a;
        size_t size = sizes ? sizes[i] : 0;
        if (!svm_pointers[i] || !registry_lookup(command_queue->context, svm_pointers[i], &a) ||
            a.kind != MOSAIC_ALLOC_SVM)
            return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_pointers[%u] = %p is not inside an SVM allocation of the "
                                "queue's context", i, svm_pointers[i]);
        if (size > a.size - ((uintptr_t)svm_pointers[i] - a.base))
            return MOSAIC_ERROR(CL_INVALID_VALUE, "svm_pointers[%u] + sizes[%u] (%zu) reaches past the end of its "
                                "%zu-byte SVM allocation", i, i, size, a.size);
    }
    return mosaic_enqueue_migration(command_queue, CL_COMMAND_SVM_MIGRATE_MEM, num_svm_pointers, svm_pointers, sizes,
                                    flags, num_events_in_wait_list, event_wait_list, event);
}
