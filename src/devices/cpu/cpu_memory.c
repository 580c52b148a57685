/*
 * The CPU device's memory ops (core/device.h): storage for buffers,
 * sub-buffers and SVM, and the commands that move bytes.
 *
 * The CPU device *is* the host: same processor, same address space,
 * coherent caches.  So
 *   - a buffer's storage is host memory at one address for its whole life:
 *     a 128-byte aligned mapping of its own between two guard pages
 *     (guarded_lines), or the user's pointer itself for CL_MEM_USE_HOST_PTR
 *     (zero copy; CL_MEM_COPY_HOST_PTR copies once, at creation); a
 *     sub-buffer's is its parent's + origin;
 *   - read, write and copy are memcpy between two fixed addresses, fill is
 *     memset or a tiled copy, an image fill one row of pixels copied to
 *     every row of the rectangle, on a worker (or on the enqueuing thread for a
 *     blocking command that is ready at once); a large flat transfer or fill
 *     is cut into parts that several workers run (one core's memcpy reaches
 *     a fraction of the machine's bandwidth), with non-temporal stores
 *     when it is larger than the caches (copy_streaming);
 *   - a map returns the storage itself; map, unmap and migrations move
 *     nothing (their ops are NULL: the commands are synchronisation points);
 *   - SVM is an aligned host allocation, valid at the same address in
 *     kernels;
 *   - a pipe's storage is its ring of packets with a header (cpu_pipe.c).
 */
#include "devices/cpu/cpu.h"
#include "devices/cpu/cpu_pipe.h"
#include "core/memory.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- storage -------------------------------------------------------------------- */

/* size rounded up to whole 128-byte lines, so a kernel's widest vector
 * access at the end stays inside the allocation (and no two allocations
 * share a cache line); false when that does not fit a size_t */
static bool in_lines(size_t size, size_t *lines)
{
    *lines = (size + MOSAIC_MEM_ALIGN - 1) & ~(size_t)(MOSAIC_MEM_ALIGN - 1);
    return *lines >= size;
}

/* 128-byte aligned heap memory of whole lines */
static void *alloc_lines(size_t size)
{
    size_t lines;
    void *p = NULL;
    if (!in_lines(size, &lines) || posix_memalign(&p, MOSAIC_MEM_ALIGN, lines) != 0)
        return NULL;
    return p;
}

/*
 * A buffer's or image's storage in a mapping of its own, between two pages
 * no access is allowed to, its end 128-byte rounded at the second: a
 * kernel that runs more than 127 bytes past the end (a[gid] for gid past
 * the size), or into the page before the start, faults there, and the
 * command fails (cpu_faults.c), rather than write into Mosaic's heap (its
 * queues, events and launches) or another allocation (docs/faults.md).
 * Each costs two or three of the process's memory mappings, of which
 * Linux allows some 65,000 (vm.max_map_count): past GUARDED_MOST live
 * ones, or where a mapping fails, storage comes from the heap, unguarded,
 * as before.  `allocation` tells the two apart: the mapping starts a
 * guard page before the address; a heap allocation is the address.
 */
enum { GUARDED_MOST = 8192 };
static atomic_int guarded_live;

/* The mapping's length for `lines` bytes: the pages they span and the two
 * guards; 0 when it does not fit a size_t. */
static size_t guarded_length(size_t lines)
{
    size_t page = mosaic_cpu_page_size(), pages = (lines + page - 1) & ~(page - 1);
    if (pages < lines || pages > SIZE_MAX - 2 * page)
        return 0;
    return pages + 2 * page;
}

/* storage->address and ->allocation for `size` bytes; false: no memory */
static bool guarded_lines(size_t size, mosaic_mem_storage *storage)
{
    size_t lines, page = mosaic_cpu_page_size();
    size_t length = in_lines(size, &lines) ? guarded_length(lines) : 0;
    if (length && atomic_fetch_add(&guarded_live, 1) < GUARDED_MOST) {
        char *map = mmap(NULL, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map != MAP_FAILED && mprotect(map + page, length - 2 * page, PROT_READ | PROT_WRITE) == 0) {
            storage->allocation = map;
            storage->address = map + length - page - lines;
            return true;
        }
        if (map != MAP_FAILED)
            munmap(map, length);
    }
    if (length)
        atomic_fetch_sub(&guarded_live, 1);
    storage->allocation = storage->address = alloc_lines(size);
    return storage->address != NULL;
}

static void guarded_free(size_t size, mosaic_mem_storage *storage)
{
    if (storage->allocation == storage->address) {
        free(storage->allocation);
        return;
    }
    size_t lines;
    in_lines(size, &lines); /* (it fitted when the mapping was made) */
    munmap(storage->allocation, guarded_length(lines));
    atomic_fetch_sub(&guarded_live, 1);
}

cl_int mosaic_cpu_mem_alloc(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *storage)
{
    storage->allocation = NULL;
    if (mem->mem_type == CL_MEM_OBJECT_PIPE) /* a ring of packets with its header (cpu_pipe.c) */
        return mosaic_cpu_pipe_alloc(mem, storage);
    if (mem->parent) { /* a view: the parent's bytes from the origin on */
        mosaic_mem_storage *parent = mosaic_mem_storage_on(mem->parent, device);
        if (!parent)
            return CL_OUT_OF_RESOURCES;
        storage->address = parent->address + mem->offset;
        return CL_SUCCESS;
    }
    if (mem->flags & CL_MEM_USE_HOST_PTR) { /* zero copy: the device works on the user's memory */
        storage->address = mem->host_ptr;
        return CL_SUCCESS;
    }
    if (!guarded_lines(mem->size, storage))
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    if (initial)
        memcpy(storage->address, initial, mem->size);
    return CL_SUCCESS;
}

void mosaic_cpu_mem_free(cl_device_id device, cl_mem mem, mosaic_mem_storage *storage)
{
    if (mem->mem_type == CL_MEM_OBJECT_PIPE) {
        mosaic_cpu_pipe_free(storage);
        return;
    }
    if (storage->allocation)
        guarded_free(mem->size, storage);
    storage->allocation = NULL;
    storage->address = NULL;
}

void *mosaic_cpu_map_address(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags)
{
    mosaic_mem_storage *s = mosaic_mem_storage_on(mem, device);
    return s ? s->address + offset : NULL;
}

void *mosaic_cpu_svm_alloc(cl_device_id device, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
    /* every alignment the API accepts (a power of two up to 128) divides 128 */
    return alloc_lines(size);
}

void mosaic_cpu_svm_free(cl_device_id device, void *pointer)
{
    free(pointer);
}

/* ---- transfers ---------------------------------------------------------------------- */

static void copy_rect(char *dst, const mosaic_endpoint *d, const char *src, const mosaic_endpoint *s,
                      const size_t *region)
{
    size_t w = region[0], h = region[1], depth = region[2];
    bool rows_packed = (h == 1 || (s->row_pitch == w && d->row_pitch == w));
    bool slices_packed = rows_packed && (depth == 1 || (s->slice_pitch == w * h && d->slice_pitch == w * h));
    if (slices_packed) {
        /* One flat copy: the common case.  A read of a USE_HOST_PTR buffer
         * into its own host_ptr (allowed by the spec) copies a region onto
         * itself: nothing to do. */
        if (dst != src)
            memcpy(dst, src, w * h * depth);
        return;
    }
    for (size_t z = 0; z < depth; z++) {
        const char *sz = src + z * s->slice_pitch;
        char *dz = dst + z * d->slice_pitch;
        if (rows_packed) {
            memcpy(dz, sz, w * h);
            continue;
        }
        for (size_t y = 0; y < h; y++)
            memcpy(dz + y * d->row_pitch, sz + y * s->row_pitch, w);
    }
}

/* ops->read, ops->write and ops->copy: host memory on both sides. */
cl_int mosaic_cpu_transfer(cl_event command)
{
    const mosaic_transfer *t = command->payload;
    cl_device_id device = command->queue->device;
    copy_rect(mosaic_endpoint_address(&t->dst, device), &t->dst, mosaic_endpoint_address(&t->src, device), &t->src,
              t->region);
    return CL_COMPLETE;
}

/* ---- fills ---------------------------------------------------------------------------- */

static bool uniform_pattern(const unsigned char *pattern, size_t pattern_size)
{
    for (size_t i = 1; i < pattern_size; i++)
        if (pattern[i] != pattern[0])
            return false;
    return true;
}

/* size bytes of f's pattern at dst, which is in phase (a multiple of the
 * pattern size from the pattern's start). */
static cl_int fill_range(char *dst, size_t size, const mosaic_fill *f)
{
    size_t pattern_size = f->pattern_size;
    if (uniform_pattern(f->pattern, pattern_size)) {
        memset(dst, f->pattern[0], size);
        return CL_COMPLETE;
    }
    /* A tile of whole patterns (4096 is a multiple of every pattern size),
     * copied over the range; offset and size are multiples of the pattern
     * size, so the tile's phase is right everywhere. */
    enum { TILE = 4096 };
    _Alignas(64) unsigned char tile[TILE];
    for (size_t i = 0; i < TILE; i += pattern_size)
        memcpy(tile + i, f->pattern, pattern_size);
    while (size >= TILE) {
        memcpy(dst, tile, TILE);
        dst += TILE;
        size -= TILE;
    }
    memcpy(dst, tile, size);
    return CL_COMPLETE;
}

cl_int mosaic_cpu_fill(cl_event command)
{
    const mosaic_fill *f = command->payload;
    return fill_range(mosaic_mem_storage_on(f->mem, command->queue->device)->address + f->offset, f->size, f);
}

/* ---- large transfers and fills in parts ------------------------------------------------ */

/* How many parts `size` bytes make for `workers`: at least SPLIT_MIN bytes
 * each (below that, waking workers costs more than it saves). */
enum { SPLIT_MIN = 4u << 20, SPLIT_ALIGN = 4096 };

static size_t parts_for(size_t size, unsigned workers)
{
    size_t parts = size / SPLIT_MIN;
    return parts < 2 || workers < 2 ? 0 : parts < workers ? parts : workers;
}

/* Part `part` of `parts` of [0, size): whole SPLIT_ALIGN blocks, the last
 * one to the end. */
static void part_range(size_t size, size_t part, size_t parts, size_t *begin, size_t *end)
{
    size_t blocks = (size + SPLIT_ALIGN - 1) / SPLIT_ALIGN;
    *begin = blocks * part / parts * SPLIT_ALIGN;
    *end = part + 1 == parts ? size : blocks * (part + 1) / parts * SPLIT_ALIGN;
}

/* memcpy with non-temporal stores: the destination's lines are written
 * without being read first, and not kept in the cache (for copies larger
 * than the caches: mosaic_cpu_streams).  Fenced at the end, since
 * such stores are weakly ordered and a later store will say the part is done. */
static void copy_streaming(char *dst, const char *src, size_t n)
{
#if defined(__SSE2__)
    size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
    if (head > n)
        head = n;
    memcpy(dst, src, head);
    dst += head, src += head, n -= head;
    for (; n >= 64; dst += 64, src += 64, n -= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)src), b = _mm_loadu_si128((const __m128i *)(src + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(src + 32)), d = _mm_loadu_si128((const __m128i *)(src + 48));
        _mm_stream_si128((__m128i *)dst, a);
        _mm_stream_si128((__m128i *)(dst + 16), b);
        _mm_stream_si128((__m128i *)(dst + 32), c);
        _mm_stream_si128((__m128i *)(dst + 48), d);
    }
    _mm_sfence();
#endif
    memcpy(dst, src, n);
}

static cl_int transfer_part(cl_event command, size_t part, size_t parts)
{
    const mosaic_transfer *t = command->payload;
    cl_device_id device = command->queue->device;
    char *dst = mosaic_endpoint_address(&t->dst, device);
    const char *src = mosaic_endpoint_address(&t->src, device);
    size_t size, begin, end;
    mosaic_transfer_flat(t, &size);
    part_range(size, part, parts, &begin, &end);
    if (dst == src) /* a region copied onto itself (see copy_rect) */
        return CL_COMPLETE;
    if (mosaic_cpu_streams(device, 2 * size)) /* read and written, as a launch's buffers count */
        copy_streaming(dst + begin, src + begin, end - begin);
    else
        memcpy(dst + begin, src + begin, end - begin);
    return CL_COMPLETE;
}

static cl_int fill_part(cl_event command, size_t part, size_t parts)
{
    const mosaic_fill *f = command->payload;
    char *dst = mosaic_mem_storage_on(f->mem, command->queue->device)->address + f->offset;
    size_t begin, end;
    part_range(f->size, part, parts, &begin, &end);
    /* SPLIT_ALIGN is a multiple of every pattern size: each part starts in phase */
    return fill_range(dst + begin, end - begin, f);
}

mosaic_cpu_part_fn mosaic_cpu_command_parts(cl_event command, unsigned workers, size_t *parts)
{
    size_t size;
    if (command->run == mosaic_cpu_transfer && mosaic_transfer_flat(command->payload, &size) &&
        (*parts = parts_for(size, workers)))
        return transfer_part;
    if (command->run == mosaic_cpu_fill && (*parts = parts_for(((const mosaic_fill *)command->payload)->size, workers)))
        return fill_part;
    return NULL;
}

/* An image fill: one row of pixels is built once (doubling copies of the
 * pixel), then copied to every row of the rectangle. */
cl_int mosaic_cpu_fill_rect(cl_event command)
{
    const mosaic_fill_rect *f = command->payload;
    char *base = mosaic_mem_storage_on(f->mem, command->queue->device)->address + f->offset;
    size_t w = f->region[0], ps = f->pattern_size;
    char *row = malloc(w);
    if (!row)
        return CL_OUT_OF_HOST_MEMORY;
    memcpy(row, f->pattern, ps);
    for (size_t done = ps; done < w;) {
        size_t chunk = done < w - done ? done : w - done;
        memcpy(row + done, row, chunk);
        done += chunk;
    }
    for (size_t z = 0; z < f->region[2]; z++)
        for (size_t y = 0; y < f->region[1]; y++)
            memcpy(base + z * f->slice_pitch + y * f->row_pitch, row, w);
    free(row);
    return CL_COMPLETE;
}

/* ---- native kernels ----------------------------------------------------------------- */

cl_int mosaic_cpu_native_kernel(cl_event command)
{
    mosaic_native_call *call = command->payload;
    cl_device_id device = command->queue->device;
    /* The argument block's memory-object slots become the buffers' host addresses. */
    for (cl_uint i = 0; i < call->num_mems; i++) {
        void *address = mosaic_mem_storage_on(call->mems[i], device)->address;
        memcpy((char *)call->args + call->mem_offsets[i], &address, sizeof address);
    }
    call->fn(call->args);
    return CL_COMPLETE;
}
