/*
 * The GPU device's memory: a buffer is one cuMemAlloc (its storage's
 * address is the device pointer kernels take; a sub-buffer's is its
 * parent's plus the offset), transfers and fills are the driver's copies
 * and memsets on the GPU's stream, and a map goes through host memory: the
 * application's own for CL_MEM_USE_HOST_PTR (the specification requires
 * it), else a pinned copy of the buffer made at the first map and kept
 * until the buffer goes.  Every op waits for its work before it returns
 * (cuda_device.c says why).
 */
#include "devices/cuda/cuda_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "core/memory.h"

/* Host bytes into the GPU's memory, on the GPU's stream, waited for.  Not
 * cuMemcpyHtoD: from pageable memory that returns once the bytes are staged,
 * before they reach the GPU, and it is ordered on the legacy stream only, so
 * a kernel queued next on the GPU's non-blocking stream could read the
 * memory before them. */
cl_int mosaic_cuda_copy_to_gpu(cuda_gpu *g, CUdeviceptr to, const void *from, size_t size)
{
    cl_int err = CUDA_CALL(cuMemcpyHtoDAsync, to, from, size, g->stream);
    cl_int waited = CUDA_CALL(cuStreamSynchronize, g->stream);
    return err != CL_SUCCESS ? err : waited;
}

/* What a root buffer's storage->allocation holds. */
typedef struct gpu_buffer {
    CUdeviceptr address;
    _Atomic(char *) host; /* the pinned copy maps go through; NULL until the first map */
} gpu_buffer;

static CUdeviceptr device_address(const char *address)
{
    return (CUdeviceptr)(uintptr_t)address;
}

/* A buffer over host memory (CL_MEM_USE_HOST_PTR) that lies in an SVM
 * allocation, which is managed memory: the buffer is those bytes on the
 * GPU too (OpenCL 3.0 section 5.2.1: pointers stored in it stay valid),
 * not a copy; it owns nothing there (allocation NULL, as a sub-buffer). */
static bool in_managed_memory(cl_mem mem)
{
    unsigned int managed = 0;
    return (mem->flags & CL_MEM_USE_HOST_PTR) && mem->host_ptr &&
           mosaic_cuda.cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                             device_address(mem->host_ptr)) == CUDA_SUCCESS &&
           managed;
}

cl_int mosaic_cuda_mem_alloc(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *storage)
{
    cuda_gpu *g = cuda_gpu_of(device);
    if (mem->parent) { /* a view of the parent's bytes */
        storage->address = mosaic_mem_storage_on(mem->parent, device)->address + mem->offset;
        storage->allocation = NULL;
        return CL_SUCCESS;
    }
    cl_int err = mosaic_cuda_enter(g);
    if (err != CL_SUCCESS)
        return err;
    if (in_managed_memory(mem)) { /* the SVM allocation's own bytes, as kernels must see them */
        storage->address = mem->host_ptr;
        storage->allocation = NULL;
        return CL_SUCCESS;
    }
    gpu_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return CL_OUT_OF_HOST_MEMORY;
    CUresult r = mosaic_cuda.cuMemAlloc(&b->address, mem->size ? mem->size : 1);
    if (r != CUDA_SUCCESS) {
        free(b);
        err = mosaic_cuda_check(r, "cuMemAlloc");
        return r == CUDA_ERROR_OUT_OF_MEMORY ? CL_MEM_OBJECT_ALLOCATION_FAILURE : err;
    }
    if (initial && mem->size && (err = mosaic_cuda_copy_to_gpu(g, b->address, initial, mem->size)) != CL_SUCCESS) {
        mosaic_cuda.cuMemFree(b->address);
        free(b);
        return err;
    }
    storage->address = (char *)(uintptr_t)b->address;
    storage->allocation = b;
    return CL_SUCCESS;
}

void mosaic_cuda_mem_free(cl_device_id device, cl_mem mem, mosaic_mem_storage *storage)
{
    (void)mem;
    gpu_buffer *b = storage->allocation;
    if (!b)
        return;
    if (mosaic_cuda_enter(cuda_gpu_of(device)) == CL_SUCCESS) {
        CUDA_CALL(cuMemFree, b->address);
        char *host = atomic_load(&b->host);
        if (host)
            CUDA_CALL(cuMemFreeHost, host);
    }
    free(b);
    storage->allocation = NULL;
}

/* The root buffer's record and mem's offset in it. */
static gpu_buffer *root_buffer(cl_device_id device, cl_mem mem, size_t *offset)
{
    *offset += mosaic_mem_root_offset(mem);
    return mosaic_mem_storage_on(mosaic_mem_root(mem), device)->allocation;
}

void *mosaic_cuda_map_address(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags)
{
    (void)size, (void)flags;
    if (mem->flags & CL_MEM_USE_HOST_PTR)
        return (char *)mem->host_ptr + offset;
    gpu_buffer *b = root_buffer(device, mem, &offset);
    char *host = atomic_load(&b->host);
    if (!host) { /* the first map: made once, whichever thread gets there first */
        if (mosaic_cuda_enter(cuda_gpu_of(device)) != CL_SUCCESS)
            return NULL;
        void *made = NULL;
        cl_mem root = mosaic_mem_root(mem);
        if (CUDA_CALL(cuMemAllocHost, &made, root->size ? root->size : 1) != CL_SUCCESS)
            return NULL;
        if (!atomic_compare_exchange_strong(&b->host, &host, made))
            CUDA_CALL(cuMemFreeHost, made); /* another thread's was first: host is it */
        else
            host = made;
    }
    return host + offset;
}

/* ---- shared virtual memory ---------------------------------------------------------------- */

/* Managed memory: one address for the host, the GPU and the CPU device of
 * the same context, the driver moving its pages where they are used.
 * Never more than the GPU has free (cuMemGetInfo): beyond, managed memory
 * would be paged in and out of the card at every launch. */
void *mosaic_cuda_svm_alloc(cl_device_id device, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
    (void)flags, (void)alignment; /* (managed memory is aligned to a page; alignment is at most 128) */
    size_t free_bytes = 0, total = 0;
    CUdeviceptr address = 0;
    if (mosaic_cuda_enter(cuda_gpu_of(device)) != CL_SUCCESS ||
        CUDA_CALL(cuMemGetInfo, &free_bytes, &total) != CL_SUCCESS || size > free_bytes ||
        CUDA_CALL(cuMemAllocManaged, &address, size, CU_MEM_ATTACH_GLOBAL) != CL_SUCCESS)
        return NULL;
    return (void *)(uintptr_t)address;
}

void mosaic_cuda_svm_free(cl_device_id device, void *pointer)
{
    if (mosaic_cuda_enter(cuda_gpu_of(device)) == CL_SUCCESS)
        CUDA_CALL(cuMemFree, device_address(pointer));
}

/* ---- between memories (core/coherence.h) ------------------------------------------------ */

cl_int mosaic_cuda_storage_read(cl_device_id device, const mosaic_mem_storage *storage, size_t offset, void *host,
                                size_t size)
{
    cl_int err = mosaic_cuda_enter(cuda_gpu_of(device));
    return err != CL_SUCCESS ? err : CUDA_CALL(cuMemcpyDtoH, host, device_address(storage->address) + offset, size);
}

cl_int mosaic_cuda_storage_write(cl_device_id device, const mosaic_mem_storage *storage, size_t offset,
                                 const void *host, size_t size)
{
    cuda_gpu *g = cuda_gpu_of(device);
    cl_int err = mosaic_cuda_enter(g);
    return err != CL_SUCCESS ? err : mosaic_cuda_copy_to_gpu(g, device_address(storage->address) + offset, host, size);
}

/* ---- transfers ------------------------------------------------------------------------ */

/* One row of a transfer; src and dst are device addresses where their
 * endpoint is a buffer, host addresses where it is not. */
static CUresult copy_row(cuda_gpu *g, bool src_on_gpu, const char *src, bool dst_on_gpu, char *dst, size_t n)
{
    if (src_on_gpu && dst_on_gpu)
        return mosaic_cuda.cuMemcpyDtoDAsync(device_address(dst), device_address(src), n, g->stream);
    if (dst_on_gpu)
        return mosaic_cuda.cuMemcpyHtoDAsync(device_address(dst), src, n, g->stream);
    if (src_on_gpu)
        return mosaic_cuda.cuMemcpyDtoHAsync(dst, device_address(src), n, g->stream);
    memcpy(dst, src, n);
    return CUDA_SUCCESS;
}

/* Every transfer: a rectangle of rows, queued on the stream, then waited for. */
static cl_int transfer(cl_event command)
{
    cl_device_id device = command->queue->device;
    cuda_gpu *g = cuda_gpu_of(device);
    /* a blocking transfer may run on the application's thread (run_inline) */
    cl_int entered = mosaic_cuda_enter(g);
    if (entered != CL_SUCCESS)
        return entered;
    const mosaic_transfer *t = command->payload;
    const char *src = mosaic_endpoint_address(&t->src, device);
    char *dst = mosaic_endpoint_address(&t->dst, device);
    size_t w = t->region[0], h = t->region[1], depth = t->region[2], size;
    CUresult r = CUDA_SUCCESS;
    if (mosaic_transfer_flat(t, &size)) {
        r = copy_row(g, t->src.mem, src, t->dst.mem, dst, size);
    } else {
        for (size_t z = 0; z < depth && r == CUDA_SUCCESS; z++)
            for (size_t y = 0; y < h && r == CUDA_SUCCESS; y++)
                r = copy_row(g, t->src.mem, src + z * t->src.slice_pitch + y * t->src.row_pitch, t->dst.mem,
                             dst + z * t->dst.slice_pitch + y * t->dst.row_pitch, w);
    }
    cl_int err = mosaic_cuda_check(r, "cuMemcpy");
    cl_int waited = CUDA_CALL(cuStreamSynchronize, g->stream);
    return err != CL_SUCCESS ? err : waited;
}

cl_int mosaic_cuda_read(cl_event command) { return transfer(command); }
cl_int mosaic_cuda_write(cl_event command) { return transfer(command); }
cl_int mosaic_cuda_copy(cl_event command) { return transfer(command); }

/* ---- fills ------------------------------------------------------------------------------- */

/* The pattern repeated to 4 bytes (pattern_size 1, 2 or 4). */
static unsigned word_of(const unsigned char *pattern, size_t pattern_size)
{
    unsigned char bytes[4];
    for (size_t i = 0; i < 4; i++)
        bytes[i] = pattern[i % pattern_size];
    unsigned word;
    memcpy(&word, bytes, sizeof word);
    return word;
}

/* A pattern the driver's memsets cannot repeat: copies of a host block of
 * whole patterns (at most 1 MiB), one after another. */
static CUresult fill_by_copies(cuda_gpu *g, CUdeviceptr at, size_t size, const unsigned char *pattern,
                               size_t pattern_size)
{
    size_t block = size < ((size_t)1 << 20) ? size : ((size_t)1 << 20);
    unsigned char *host = malloc(block);
    if (!host)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < block; i += pattern_size)
        memcpy(host + i, pattern, pattern_size);
    CUresult r = CUDA_SUCCESS;
    for (size_t done = 0; done < size && r == CUDA_SUCCESS; done += block) {
        size_t n = size - done < block ? size - done : block;
        r = mosaic_cuda.cuMemcpyHtoDAsync(at + done, host, n, g->stream);
    }
    if (r == CUDA_SUCCESS)
        r = mosaic_cuda.cuStreamSynchronize(g->stream); /* before the block goes */
    free(host);
    return r;
}

/* Can the driver's memsets repeat f's pattern at `at`? */
static bool memset_pattern(const mosaic_fill *f, CUdeviceptr at)
{
    return f->size == 0 || f->pattern_size == 1 || (f->pattern_size <= 4 && at % 4 == 0 && f->size % 4 == 0);
}

/* The fill by the driver's memsets, queued on the stream (memset_pattern holds). */
static CUresult memsets(cuda_gpu *g, const mosaic_fill *f, CUdeviceptr at)
{
    if (f->size == 0)
        return CUDA_SUCCESS;
    if (f->pattern_size == 1)
        return mosaic_cuda.cuMemsetD8Async(at, f->pattern[0], f->size, g->stream);
    return mosaic_cuda.cuMemsetD32Async(at, word_of(f->pattern, f->pattern_size), f->size / 4, g->stream);
}

cl_int mosaic_cuda_fill(cl_event command)
{
    cl_device_id device = command->queue->device;
    cuda_gpu *g = cuda_gpu_of(device);
    cl_int entered = mosaic_cuda_enter(g);
    if (entered != CL_SUCCESS)
        return entered;
    const mosaic_fill *f = command->payload;
    CUdeviceptr at = device_address(mosaic_mem_storage_on(f->mem, device)->address) + f->offset;
    CUresult r = memset_pattern(f, at) ? memsets(g, f, at) : fill_by_copies(g, at, f->size, f->pattern, f->pattern_size);
    cl_int err = mosaic_cuda_check(r, "a fill");
    cl_int waited = CUDA_CALL(cuStreamSynchronize, g->stream);
    return err != CL_SUCCESS ? err : waited;
}

/* ---- commands the stream does by itself ------------------------------------------------ */

/* The staging ring's size, and the most one read or write takes of it:
 * beyond that, the driver's own copies (from pageable memory) are as fast. */
enum { STAGING_BYTES = 8 << 20, STAGED_MOST = 1 << 20 };

/* With g->issue held: n bytes of the staging ring, or NULL (no room, or no
 * pinned memory); *took: what its release gives back (a wrap skips the
 * ring's end, which counts as taken). */
static char *staging_take(cuda_gpu *g, size_t n, size_t *took)
{
    if (!g->staging && CUDA_CALL(cuMemAllocHost, (void **)&g->staging, STAGING_BYTES) != CL_SUCCESS) {
        g->staging = NULL;
        return NULL;
    }
    size_t taken = g->staging_taken, at = taken % STAGING_BYTES;
    size_t need = at + n > STAGING_BYTES ? STAGING_BYTES - at + n : n;
    if (need + (taken - __atomic_load_n(&g->staging_given, __ATOMIC_ACQUIRE)) > STAGING_BYTES)
        return NULL;
    __atomic_store_n(&g->staging_taken, taken + need, __ATOMIC_RELAXED);
    *took = need;
    return g->staging + (need == n ? at : 0);
}

void mosaic_cuda_after_end(cuda_gpu *g, const cuda_after_end *after, bool ended)
{
    if (ended && after->size)
        memcpy(after->to, after->from, after->size);
    if (after->staged)
        __atomic_fetch_add(&g->staging_given, after->staged, __ATOMIC_RELEASE);
}

bool mosaic_cuda_queueable(cl_event command)
{
    if (command->run == mosaic_cuda_fill) {
        const mosaic_fill *f = command->payload;
        return f->pattern_size <= 4;
    }
    if (command->run != mosaic_cuda_copy && command->run != mosaic_cuda_read && command->run != mosaic_cuda_write)
        return false;
    const mosaic_transfer *t = command->payload;
    size_t size;
    return mosaic_transfer_flat(t, &size) && ((t->src.mem && t->dst.mem) || size <= STAGED_MOST);
}

/* A fill by the driver's memsets; false: a pattern they cannot repeat. */
static bool fill_queued(cuda_gpu *g, cl_event command, cl_int *status)
{
    const mosaic_fill *f = command->payload;
    CUdeviceptr at = device_address(mosaic_mem_storage_on(f->mem, command->queue->device)->address) + f->offset;
    if (!memset_pattern(f, at))
        return false;
    *status = mosaic_cuda_check(memsets(g, f, at), "a fill");
    return true;
}

/* A flat transfer: between buffers as it is, from or to host memory through
 * the staging ring (a write's bytes copied there now, a read's at its end). */
static bool transfer_queued(cuda_gpu *g, cl_event command, cl_int *status, cuda_after_end *after)
{
    cl_device_id device = command->queue->device;
    const mosaic_transfer *t = command->payload;
    size_t size;
    if (!mosaic_transfer_flat(t, &size))
        return false;
    const char *src = mosaic_endpoint_address(&t->src, device);
    char *dst = mosaic_endpoint_address(&t->dst, device);
    CUresult r;
    if (t->src.mem && t->dst.mem) {
        r = mosaic_cuda.cuMemcpyDtoDAsync(device_address(dst), device_address(src), size, g->stream);
    } else {
        char *staged = size <= STAGED_MOST ? staging_take(g, size, &after->staged) : NULL;
        if (!staged)
            return false;
        if (t->dst.mem) {
            memcpy(staged, src, size);
            r = mosaic_cuda.cuMemcpyHtoDAsync(device_address(dst), staged, size, g->stream);
        } else {
            r = mosaic_cuda.cuMemcpyDtoHAsync(staged, device_address(src), size, g->stream);
            *after = (cuda_after_end){.to = dst, .from = staged, .size = size, .staged = after->staged};
        }
    }
    *status = mosaic_cuda_check(r, "cuMemcpyAsync");
    return true;
}

bool mosaic_cuda_queue(cl_event command, cl_int *status, bool *in_flight, cuda_after_end *after)
{
    cuda_gpu *g = cuda_gpu_of(command->queue->device);
    MOSAIC_ASSERT(mosaic_cuda_queueable(command));
    *after = (cuda_after_end){0};
    *in_flight = false;
    bool queued = command->run == mosaic_cuda_fill ? fill_queued(g, command, status)
                                                   : transfer_queued(g, command, status, after);
    *in_flight = queued && *status == CL_SUCCESS;
    return queued;
}

/* ---- maps --------------------------------------------------------------------------------- */

cl_int mosaic_cuda_map(cl_event command)
{
    cl_device_id device = command->queue->device;
    const mosaic_map *m = command->payload;
    if (m->flags & CL_MAP_WRITE_INVALIDATE_REGION || m->size == 0)
        return CL_SUCCESS; /* what was there need not be seen */
    const char *from = mosaic_mem_storage_on(m->mem, device)->address + m->offset;
    if (from == m->pointer)
        return CL_SUCCESS; /* a buffer over SVM: the host's bytes are the GPU's */
    cl_int err = mosaic_cuda_enter(cuda_gpu_of(device));
    return err != CL_SUCCESS ? err : CUDA_CALL(cuMemcpyDtoH, m->pointer, device_address(from), m->size);
}

cl_int mosaic_cuda_unmap(cl_event command)
{
    cl_device_id device = command->queue->device;
    const mosaic_map *m = command->payload;
    if (!(m->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) || m->size == 0)
        return CL_SUCCESS; /* read only: the GPU's bytes are as they were */
    char *to = mosaic_mem_storage_on(m->mem, device)->address + m->offset;
    if (to == m->pointer)
        return CL_SUCCESS;
    cuda_gpu *g = cuda_gpu_of(device);
    cl_int err = mosaic_cuda_enter(g);
    return err != CL_SUCCESS ? err : mosaic_cuda_copy_to_gpu(g, device_address(to), m->pointer, m->size);
}
