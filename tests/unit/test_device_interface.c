/*
 * The device interface (core/device.h), linked with Mosaic's objects: the
 * CPU device's ops are swapped for those of a pretend device with memory of
 * its own, whose storage addresses are handles the host cannot dereference
 * (non-canonical addresses: touching one faults).  Every buffer and SVM
 * entry point then runs through the public API, and the data must come out
 * right, so:
 *   - src/api reaches buffer bytes only through the device's ops (a memcpy
 *     or memset there on a storage address would crash the test);
 *   - storage is allocated and freed once per memory object (sub-buffers
 *     included), with the initial contents of COPY/USE_HOST_PTR given to
 *     the device;
 *   - a map returns the device's host address (the user's pointer for
 *     USE_HOST_PTR, a host copy otherwise) and the map and unmap ops move
 *     the bytes (not for CL_MAP_WRITE_INVALIDATE_REGION on the way in);
 *   - migrations, SVM commands, program finalisation reach their ops, and a
 *     device without native kernels refuses clEnqueueNativeKernel;
 *   - programs are compiled, linked and checked by the device's ops only:
 *     the pretend device's binaries are the CPU's behind a tag of its own,
 *     which the compiler would refuse;
 *   - a kernel launch takes what only the device knows from its launch ops:
 *     the local size when the application gives none, the kernel's
 *     preferred work-group multiple, and the launch prepared before it runs;
 *   - a device made as a copy of the CPU device's description (as
 *     sub-devices are) finds the same storage (one memory domain).
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_LIST "test_device_interface.list"
#include "test.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/ndrange.h"

#define OK(expr) CHECK_ERR(expr, CL_SUCCESS)

/* ---- the pretend device's memory: an arena reached through handles ------------------- */

#define HANDLE_BASE ((uintptr_t)0xdead000000000000ull) /* non-canonical: any access faults */
#define ARENA_SIZE ((size_t)8 << 20)

static char *arena;
static size_t arena_used;
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;

static char *bytes_at(const char *handle)
{
    uintptr_t h = (uintptr_t)handle;
    if (h < HANDLE_BASE || h - HANDLE_BASE >= ARENA_SIZE)
        abort(); /* not one of our handles: the runtime passed something else */
    return arena + (h - HANDLE_BASE);
}

static const mosaic_device_ops *cpu;
static mosaic_device_ops remote;

static atomic_int n_fill_rect, n_kernels;
static atomic_int n_alloc, n_free, n_read, n_write, n_copy, n_fill, n_map, n_map_moved, n_unmap, n_unmap_moved,
    n_migrate, n_svm_alloc, n_svm_free, n_svm_copy, n_svm_fill, n_svm_map, n_svm_unmap, n_svm_migrate, n_finalize,
    n_compile, n_link, n_check_binary, n_check_il;
static cl_mem_migration_flags last_migration_flags;
static cl_uint last_migration_count;
static const void *last_initial;

/* Host copies handed out by map_address: one per memory object. */
typedef struct host_copy { cl_mem mem; char *bytes; struct host_copy *next; } host_copy;
static host_copy *copies;

static cl_int remote_mem_alloc(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *s)
{
    atomic_fetch_add(&n_alloc, 1);
    s->allocation = NULL;
    if (mem->parent) {
        s->address = mosaic_mem_storage_on(mem->parent, device)->address + mem->offset;
        return CL_SUCCESS;
    }
    pthread_mutex_lock(&arena_lock);
    size_t at = arena_used, size = (mem->size + 127) & ~(size_t)127;
    bool fits = size <= ARENA_SIZE - at;
    if (fits)
        arena_used += size;
    pthread_mutex_unlock(&arena_lock);
    if (!fits)
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    last_initial = initial;
    s->address = (char *)(HANDLE_BASE + at);
    s->allocation = s->address;
    if (initial)
        memcpy(bytes_at(s->address), initial, mem->size);
    return CL_SUCCESS;
}

static void remote_mem_free(cl_device_id device, cl_mem mem, mosaic_mem_storage *s)
{
    pthread_mutex_lock(&arena_lock);
    for (host_copy **p = &copies; *p; p = &(*p)->next)
        if ((*p)->mem == mem) {
            host_copy *c = *p;
            *p = c->next;
            free(c->bytes);
            free(c);
            break;
        }
    pthread_mutex_unlock(&arena_lock);
    atomic_fetch_add(&n_free, 1);
}

static void *remote_map_address(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags)
{
    if (mem->flags & CL_MEM_USE_HOST_PTR)
        return (char *)mem->host_ptr + offset;
    pthread_mutex_lock(&arena_lock);
    host_copy *c = copies;
    while (c && c->mem != mem)
        c = c->next;
    if (!c && (c = calloc(1, sizeof *c)) != NULL) {
        c->mem = mem;
        c->bytes = malloc(mem->size);
        c->next = copies;
        copies = c;
    }
    pthread_mutex_unlock(&arena_lock);
    return c && c->bytes ? c->bytes + offset : NULL;
}

static char *endpoint(const mosaic_endpoint *e, cl_device_id device)
{
    return e->mem ? bytes_at(mosaic_mem_storage_on(e->mem, device)->address) + e->offset : e->host + e->offset;
}

static void transfer(cl_event command)
{
    const mosaic_transfer *t = command->payload;
    cl_device_id device = command->queue->device;
    char *dst = endpoint(&t->dst, device), *src = endpoint(&t->src, device);
    for (size_t z = 0; z < t->region[2]; z++)
        for (size_t y = 0; y < t->region[1]; y++)
            memmove(dst + z * t->dst.slice_pitch + y * t->dst.row_pitch,
                    src + z * t->src.slice_pitch + y * t->src.row_pitch, t->region[0]);
}

static cl_int remote_read(cl_event c) { atomic_fetch_add(&n_read, 1); transfer(c); return CL_COMPLETE; }
static cl_int remote_write(cl_event c) { atomic_fetch_add(&n_write, 1); transfer(c); return CL_COMPLETE; }
static cl_int remote_copy(cl_event c) { atomic_fetch_add(&n_copy, 1); transfer(c); return CL_COMPLETE; }

static cl_int remote_fill(cl_event command)
{
    atomic_fetch_add(&n_fill, 1);
    const mosaic_fill *f = command->payload;
    char *dst = bytes_at(mosaic_mem_storage_on(f->mem, command->queue->device)->address) + f->offset;
    for (size_t i = 0; i < f->size; i += f->pattern_size)
        memcpy(dst + i, f->pattern, f->pattern_size);
    return CL_COMPLETE;
}

static cl_int remote_fill_rect(cl_event command)
{
    atomic_fetch_add(&n_fill_rect, 1);
    const mosaic_fill_rect *f = command->payload;
    char *base = bytes_at(mosaic_mem_storage_on(f->mem, command->queue->device)->address) + f->offset;
    for (size_t z = 0; z < f->region[2]; z++)
        for (size_t y = 0; y < f->region[1]; y++)
            for (size_t x = 0; x < f->region[0]; x += f->pattern_size)
                memcpy(base + z * f->slice_pitch + y * f->row_pitch + x, f->pattern, f->pattern_size);
    return CL_COMPLETE;
}

/* Kernel launches pass by here: the image and sampler arguments of the
 * last one are kept for the test to look at. */
static mosaic_image_desc seen_desc[2];
static uint64_t seen_sampler;

static void remote_submit(cl_device_id device, cl_event command)
{
    if (command->command_type == CL_COMMAND_NDRANGE_KERNEL && !command->run) {
        const mosaic_ndrange *nd = command->payload;
        if (nd->info->num_args == 3) {
            seen_desc[0] = **(mosaic_image_desc *const *)nd->args[0];
            seen_desc[1] = **(mosaic_image_desc *const *)nd->args[1];
            seen_sampler = *(const uint64_t *)nd->args[2];
            atomic_fetch_add(&n_kernels, 1);
        }
    }
    cpu->submit(device, command);
}

static char *mapped_region(cl_event command, const mosaic_map **m)
{
    *m = command->payload;
    return bytes_at(mosaic_mem_storage_on((*m)->mem, command->queue->device)->address) + (*m)->offset;
}

static cl_int remote_map(cl_event command)
{
    atomic_fetch_add(&n_map, 1);
    const mosaic_map *m;
    char *device_bytes = mapped_region(command, &m);
    if (!(m->flags & CL_MAP_WRITE_INVALIDATE_REGION)) {
        memcpy(m->pointer, device_bytes, m->size);
        atomic_fetch_add(&n_map_moved, 1);
    }
    return CL_COMPLETE;
}

static cl_int remote_unmap(cl_event command)
{
    atomic_fetch_add(&n_unmap, 1);
    const mosaic_map *m;
    char *device_bytes = mapped_region(command, &m);
    if (m->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) {
        memcpy(device_bytes, m->pointer, m->size);
        atomic_fetch_add(&n_unmap_moved, 1);
    }
    return CL_COMPLETE;
}

static cl_int remote_migrate(cl_event command)
{
    const mosaic_migration *m = command->payload;
    last_migration_flags = m->flags;
    last_migration_count = m->count;
    atomic_fetch_add(&n_migrate, 1);
    return CL_COMPLETE;
}

static void *remote_svm_alloc(cl_device_id d, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
    atomic_fetch_add(&n_svm_alloc, 1);
    return cpu->svm_alloc(d, flags, size, alignment);
}

static void remote_svm_free(cl_device_id d, void *p)
{
    atomic_fetch_add(&n_svm_free, 1);
    cpu->svm_free(d, p);
}

static cl_int remote_svm_copy(cl_event c) { atomic_fetch_add(&n_svm_copy, 1); return cpu->svm_copy(c); }
static cl_int remote_svm_fill(cl_event c) { atomic_fetch_add(&n_svm_fill, 1); return cpu->svm_fill(c); }

static cl_int remote_svm_map(cl_event c)
{
    const mosaic_svm_region *r = c->payload;
    CHECK(r && r->pointer && r->size == 64 && r->flags == CL_MAP_READ);
    atomic_fetch_add(&n_svm_map, 1);
    return CL_COMPLETE;
}

static cl_int remote_svm_unmap(cl_event c)
{
    const mosaic_svm_region *r = c->payload;
    CHECK(r && r->pointer);
    atomic_fetch_add(&n_svm_unmap, 1);
    return CL_COMPLETE;
}

static cl_int remote_svm_migrate(cl_event c)
{
    const mosaic_svm_migration *m = c->payload;
    CHECK(m && m->count == 2 && m->sizes[0] == 16 && m->sizes[1] == 32 && m->pointers[0] && m->pointers[1]);
    atomic_fetch_add(&n_svm_migrate, 1);
    return CL_COMPLETE;
}

/* ---- the pretend device's programs: the CPU's binaries behind a tag ---------------------- */

#define BINARY_TAG "pretend:"
enum { BINARY_TAG_SIZE = sizeof BINARY_TAG - 1 };

/* Puts the tag in front of a binary the CPU's ops made. */
static cl_int tag_binary(mosaic_bitcode *bc)
{
    char *data = malloc(bc->size + BINARY_TAG_SIZE);
    if (!data) {
        free(bc->data);
        bc->data = NULL;
        return CL_OUT_OF_HOST_MEMORY;
    }
    memcpy(data, BINARY_TAG, BINARY_TAG_SIZE);
    memcpy(data + BINARY_TAG_SIZE, bc->data, bc->size);
    free(bc->data);
    bc->data = data;
    bc->size += BINARY_TAG_SIZE;
    return CL_SUCCESS;
}

/* The CPU's binary inside one of ours (pointing into it), or false when bc
 * has no tag: it did not come from the pretend device's ops. */
static bool untag_binary(const void *data, size_t size, cl_program_binary_type type, mosaic_bitcode *inner)
{
    if (size < BINARY_TAG_SIZE || memcmp(data, BINARY_TAG, BINARY_TAG_SIZE))
        return false;
    *inner = (mosaic_bitcode){type, (char *)data + BINARY_TAG_SIZE, size - BINARY_TAG_SIZE};
    return true;
}

static cl_int refuse_binary(char **log)
{
    *log = strdup("error: not a binary of the pretend device\n");
    return CL_INVALID_BINARY;
}

static cl_int remote_compile(cl_device_id d, cl_program program, const char *options, size_t num_headers,
                             const mosaic_header *headers, mosaic_bitcode *out, char **log)
{
    atomic_fetch_add(&n_compile, 1);
    cl_int r = cpu->compile(d, program, options, num_headers, headers, out, log);
    return r == CL_SUCCESS ? tag_binary(out) : r;
}

static cl_int remote_link(cl_device_id d, size_t count, const mosaic_bitcode *inputs, const char *options,
                          bool create_library, mosaic_bitcode *out, char **log)
{
    atomic_fetch_add(&n_link, 1);
    mosaic_bitcode *inner = calloc(count, sizeof *inner);
    if (!inner)
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < count; i++)
        if (!untag_binary(inputs[i].data, inputs[i].size, inputs[i].type, &inner[i])) {
            free(inner);
            return refuse_binary(log);
        }
    cl_int r = cpu->link(d, count, inner, options, create_library, out, log);
    free(inner);
    return r == CL_SUCCESS ? tag_binary(out) : r;
}

static cl_int remote_check_binary(cl_device_id d, const void *data, size_t size, cl_program_binary_type *type,
                                  char **log)
{
    atomic_fetch_add(&n_check_binary, 1);
    mosaic_bitcode inner;
    if (!untag_binary(data, size, CL_PROGRAM_BINARY_TYPE_NONE, &inner))
        return refuse_binary(log);
    return cpu->check_binary(d, inner.data, inner.size, type, log);
}

static cl_int remote_check_il(cl_device_id d, const void *il, size_t size, mosaic_spec_constant **specs,
                              size_t *num_specs, char **log)
{
    atomic_fetch_add(&n_check_il, 1);
    return cpu->check_il(d, il, size, specs, num_specs, log);
}

static cl_int remote_finalize(cl_device_id d, const mosaic_bitcode *bc, const char *options, mosaic_executable **out,
                              char **log)
{
    atomic_fetch_add(&n_finalize, 1);
    mosaic_bitcode inner;
    if (!untag_binary(bc->data, bc->size, bc->type, &inner))
        return refuse_binary(log);
    return cpu->finalize(d, &inner, options, out, log);
}

/* The launch ops: a local size of the pretend device's own (not one the
 * CPU device would choose) and a preferred multiple of 24, and what each
 * was asked. */
static atomic_int n_choose, n_prepare;
static cl_uint chosen_dims;
static size_t chosen_global[3], chosen_max, prepared_local[3], prepared_groups[3];

static size_t remote_kernel_preferred_multiple(cl_device_id d, const mosaic_kernel_info *kernel)
{
    return 24;
}

static void remote_choose_local_size(cl_device_id d, const mosaic_kernel_info *kernel, cl_uint work_dim,
                                     const size_t global[3], size_t max_group, size_t local[3])
{
    atomic_fetch_add(&n_choose, 1);
    chosen_dims = work_dim;
    memcpy(chosen_global, global, sizeof chosen_global);
    chosen_max = max_group;
    local[0] = 3; /* divides 6: the launch below */
    local[1] = 5; /* divides 10 */
    local[2] = 1;
}

static void remote_prepare_launch(cl_device_id d, mosaic_ndrange *nd)
{
    atomic_fetch_add(&n_prepare, 1);
    memcpy(prepared_local, nd->local_size, sizeof prepared_local);
    memcpy(prepared_groups, nd->num_groups, sizeof prepared_groups);
    cpu->prepare_launch(d, nd);
}

/* ---- the test ------------------------------------------------------------------------------- */

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static cl_mem buffer(cl_mem_flags flags, size_t size, void *host_ptr)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, flags, size, host_ptr, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

static void read_all(cl_mem m, size_t size, void *out)
{
    OK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static bool wait_for(atomic_int *counter, int value)
{
    for (int i = 0; i < 5000 && atomic_load(counter) != value; i++)
        nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    return atomic_load(counter) == value;
}

enum { N = 1024 };

TEST(buffers)
{
    unsigned char in[N], out[N], expect[N];
    for (int i = 0; i < N; i++)
        in[i] = (unsigned char)(i * 7 + 1);

    /* write and read back */
    cl_mem a = buffer(CL_MEM_READ_WRITE, N, NULL);
    CHECK(atomic_load(&n_alloc) == 1 && last_initial == NULL);
    CHECK(a && (uintptr_t)mosaic_mem_storage_on(a, device)->address >= HANDLE_BASE); /* one storage, ours */
    CHECK(a && a->num_storages == 1);
    /* a sub-device starts as a copy of its parent's description: it shares the storage */
    struct _cl_device_id sub_device = *device;
    CHECK(device->mem_domain == device && mosaic_device_mem_domain(&sub_device) == device);
    CHECK(a && mosaic_mem_storage_on(a, &sub_device) == mosaic_mem_storage_on(a, device));
    OK(clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, N, in, 0, NULL, NULL));
    memset(out, 0, N);
    read_all(a, N, out);
    CHECK(memcmp(in, out, N) == 0);
    CHECK(atomic_load(&n_write) == 1 && atomic_load(&n_read) == 1);

    /* COPY_HOST_PTR: the device gets the initial bytes */
    cl_mem b = buffer(CL_MEM_COPY_HOST_PTR, N, in);
    CHECK(last_initial == in);
    memset(out, 0, N);
    read_all(b, N, out);
    CHECK(memcmp(in, out, N) == 0);

    /* copy, fill and rectangles, compared with the same done on the host */
    memcpy(expect, in, N);
    OK(clEnqueueCopyBuffer(queue, a, b, 0, 512, 256, 0, NULL, NULL));
    memcpy(expect + 512, in, 256);
    const unsigned char pattern[4] = { 0xa1, 0xb2, 0xc3, 0xd4 };
    OK(clEnqueueFillBuffer(queue, b, pattern, 4, 64, 128, 0, NULL, NULL));
    for (int i = 64; i < 192; i++)
        expect[i] = pattern[i % 4];
    size_t origin_a[3] = { 3, 2, 0 }, origin_b[3] = { 5, 1, 0 }, region[3] = { 10, 4, 2 };
    OK(clEnqueueCopyBufferRect(queue, a, b, origin_a, origin_b, region, 32, 256, 16, 128, 0, NULL, NULL));
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 4; y++)
            memcpy(expect + (5 + 16 * (1 + y) + 128 * z), in + (3 + 32 * (2 + y) + 256 * z), 10);
    unsigned char host_rect[200];
    memset(host_rect, 0xee, sizeof host_rect);
    size_t host_origin[3] = { 1, 1, 0 }, buffer_origin[3] = { 7, 3, 0 }, region2[3] = { 6, 5, 1 };
    OK(clEnqueueWriteBufferRect(queue, b, CL_FALSE, buffer_origin, host_origin, region2, 64, 0, 20, 0, in, 0,
                                NULL, NULL));
    for (size_t y = 0; y < 5; y++)
        memcpy(expect + 7 + 64 * (3 + y), in + 1 + 20 * (1 + y), 6);
    OK(clEnqueueReadBufferRect(queue, b, CL_TRUE, buffer_origin, host_origin, region2, 64, 0, 20, 0, host_rect, 0,
                               NULL, NULL));
    for (size_t y = 0; y < 5; y++)
        CHECK(memcmp(host_rect + 1 + 20 * (1 + y), expect + 7 + 64 * (3 + y), 6) == 0);
    CHECK(host_rect[0] == 0xee);
    read_all(b, N, out);
    CHECK(memcmp(expect, out, N) == 0);
    CHECK(atomic_load(&n_copy) == 2 && atomic_load(&n_fill) == 1);

    /* a sub-buffer is a view of its parent's storage on the device */
    cl_int err;
    cl_buffer_region sub_region = { 256, 128 };
    cl_mem sub = clCreateSubBuffer(a, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &sub_region, &err);
    OK(err);
    CHECK(atomic_load(&n_alloc) == 3);
    unsigned char ones[128];
    memset(ones, 1, sizeof ones);
    OK(clEnqueueWriteBuffer(queue, sub, CL_TRUE, 0, 128, ones, 0, NULL, NULL));
    read_all(a, N, out);
    CHECK(memcmp(out, in, 256) == 0 && memcmp(out + 256, ones, 128) == 0 && memcmp(out + 384, in + 384, N - 384) == 0);

    /* a map gives a host copy the map op fills and the unmap op writes back */
    unsigned char *p = clEnqueueMapBuffer(queue, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 256, 256, 0, NULL, NULL,
                                          &err);
    OK(err);
    CHECK(p && (uintptr_t)p < HANDLE_BASE);
    if (p) {
        CHECK(memcmp(p, ones, 128) == 0 && memcmp(p + 128, in + 384, 128) == 0);
        memset(p, 9, 256);
        OK(clEnqueueUnmapMemObject(queue, a, p, 0, NULL, NULL));
    }
    p = clEnqueueMapBuffer(queue, a, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL, &err);
    OK(err);
    if (p) {
        memset(p, 5, 16);
        OK(clEnqueueUnmapMemObject(queue, a, p, 0, NULL, NULL));
    }
    read_all(a, N, out);
    bool mapped_ok = true;
    for (int i = 0; i < N; i++)
        mapped_ok &= out[i] == (i < 16 ? 5 : i >= 256 && i < 512 ? 9 : in[i]);
    CHECK(mapped_ok);
    CHECK(atomic_load(&n_map) == 2 && atomic_load(&n_map_moved) == 1);
    CHECK(atomic_load(&n_unmap) == 2 && atomic_load(&n_unmap_moved) == 2);

    /* USE_HOST_PTR: the device keeps its own copy; a map returns the user's pointer */
    unsigned char user[N];
    memcpy(user, in, N);
    cl_mem c = buffer(CL_MEM_USE_HOST_PTR, N, user);
    CHECK(last_initial == user);
    OK(clEnqueueWriteBuffer(queue, c, CL_TRUE, 100, 4, "abcd", 0, NULL, NULL));
    p = clEnqueueMapBuffer(queue, c, CL_TRUE, CL_MAP_READ, 96, 16, 0, NULL, NULL, &err);
    OK(err);
    CHECK(p == user + 96);
    CHECK(memcmp(user + 100, "abcd", 4) == 0);
    if (p)
        OK(clEnqueueUnmapMemObject(queue, c, p, 0, NULL, NULL));

    /* migration reaches the device with its flags */
    cl_mem both[2] = { a, b };
    OK(clEnqueueMigrateMemObjects(queue, 2, both, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(atomic_load(&n_migrate) == 1 && last_migration_flags == CL_MIGRATE_MEM_OBJECT_HOST &&
          last_migration_count == 2);

    /* no native kernels on this device */
    CHECK_ERR(clEnqueueNativeKernel(queue, (void (CL_CALLBACK *)(void *))abort, NULL, 0, 0, NULL, NULL, 0, NULL,
                                    NULL),
              CL_INVALID_OPERATION);

    /* every storage is freed once, when nothing uses it any more */
    OK(clReleaseMemObject(sub));
    OK(clReleaseMemObject(a));
    OK(clReleaseMemObject(b));
    OK(clReleaseMemObject(c));
    CHECK(wait_for(&n_free, atomic_load(&n_alloc)));
    CHECK(atomic_load(&n_alloc) == 4);
    CHECK(copies == NULL);
}

TEST(svm)
{
    char *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 256, 0);
    CHECK(p != NULL && atomic_load(&n_svm_alloc) == 1);
    if (!p)
        return;
    char src[64];
    memset(src, 3, sizeof src);
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, p, src, 64, 0, NULL, NULL));
    int pattern = 0x01020304;
    OK(clEnqueueSVMMemFill(queue, p + 64, &pattern, 4, 64, 0, NULL, NULL));
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 64, 0, NULL, NULL));
    OK(clEnqueueSVMUnmap(queue, p, 0, NULL, NULL));
    const void *ptrs[2] = { p, p + 64 };
    size_t sizes[2] = { 16, 32 };
    OK(clEnqueueSVMMigrateMem(queue, 2, ptrs, sizes, 0, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(p[0] == 3 && p[63] == 3 && memcmp(p + 64, &pattern, 4) == 0 && memcmp(p + 124, &pattern, 4) == 0);
    CHECK(atomic_load(&n_svm_copy) == 1 && atomic_load(&n_svm_fill) == 1);
    CHECK(atomic_load(&n_svm_map) == 1 && atomic_load(&n_svm_unmap) == 1 && atomic_load(&n_svm_migrate) == 1);
    clSVMFree(context, p);
    CHECK(atomic_load(&n_svm_free) == 1);
}

/* The build log of a program made by clLinkProgram or one that failed to build. */
static void build_log(cl_program program, char *text, size_t size)
{
    text[0] = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, text, NULL);
}

/* Programs: every step of a build, and every check of what an application
 * hands in, goes through the device's program ops (the pretend device's
 * tagged binaries would fail anywhere else), in the API calls' order. */
TEST(programs)
{
    const char *source = "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }";
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    OK(err);
    OK(clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
    CHECK(atomic_load(&n_compile) == 1 && atomic_load(&n_link) == 1 && atomic_load(&n_finalize) == 1);
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    OK(err);
    OK(clReleaseKernel(kernel));

    /* the binary handed out is the device's own, and comes back through check_binary */
    size_t size = 0;
    OK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *binary = malloc(size ? size : 1);
    CHECK(binary && size > BINARY_TAG_SIZE);
    if (binary && size > BINARY_TAG_SIZE) {
        OK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL));
        CHECK(!memcmp(binary, BINARY_TAG, BINARY_TAG_SIZE), "the binary is the device's");
        const unsigned char *in = binary;
        cl_int status;
        cl_program again = clCreateProgramWithBinary(context, 1, &device, &size, &in, &status, &err);
        OK(err);
        OK(status);
        CHECK(atomic_load(&n_check_binary) == 1);
        if (again) {
            OK(clBuildProgram(again, 0, NULL, NULL, NULL, NULL)); /* an executable: finalized only */
            CHECK(atomic_load(&n_link) == 1 && atomic_load(&n_finalize) == 2);
            OK(clReleaseProgram(again));
        }
        /* without the device's tag: the CPU's format, not this device's */
        in = binary + BINARY_TAG_SIZE;
        size_t inner_size = size - BINARY_TAG_SIZE;
        again = clCreateProgramWithBinary(context, 1, &device, &inner_size, &in, &status, &err);
        CHECK_ERR(err, CL_INVALID_BINARY);
        CHECK_ERR(status, CL_INVALID_BINARY);
        CHECK(!again && atomic_load(&n_check_binary) == 2);
    }
    free(binary);
    OK(clReleaseProgram(program));

    /* clCompileProgram, then clLinkProgram: compile, link and finalize, the
     * device's log in the program's */
    program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    OK(err);
    OK(clCompileProgram(program, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    CHECK(atomic_load(&n_compile) == 2 && atomic_load(&n_link) == 1);
    cl_program linked = clLinkProgram(context, 0, NULL, NULL, 1, &program, NULL, NULL, &err);
    OK(err);
    CHECK(atomic_load(&n_link) == 2 && atomic_load(&n_finalize) == 3);
    if (linked)
        OK(clReleaseProgram(linked));
    OK(clReleaseProgram(program));

    /* a build that fails in the device's compile op: its error and its log */
    const char *broken = "__kernel void k(__global int *p) { p[0] = undeclared; }";
    program = clCreateProgramWithSource(context, 1, &broken, NULL, &err);
    OK(err);
    CHECK_ERR(clBuildProgram(program, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    static char text[16384];
    build_log(program, text, sizeof text);
    CHECK(atomic_load(&n_compile) == 3 && strstr(text, "undeclared"), "log: %s", text);
    OK(clReleaseProgram(program));

    /* SPIR-V is checked by the device's check_il */
    static const unsigned char not_spirv[20] = {1, 2, 3, 4};
    program = clCreateProgramWithIL(context, not_spirv, sizeof not_spirv, &err);
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK(!program && atomic_load(&n_check_il) == 1);
}

/* Launches: the local size a launch without one runs with is the
 * device's choice, made within the kernel's CL_KERNEL_WORK_GROUP_SIZE; a
 * given or required size is not the device's to choose; each launch is
 * prepared, with its final sizes, before it runs; the kernel's preferred
 * multiple is the device's answer. */
TEST(launches)
{
    const char *source = "__kernel void k(int x) { }\n"
                         "__kernel __attribute__((reqd_work_group_size(2, 1, 1))) void fixed(int x) { }\n";
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    OK(err);
    OK(clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    OK(err);
    cl_kernel fixed = clCreateKernel(program, "fixed", &err);
    OK(err);
    int x = 0;
    OK(clSetKernelArg(kernel, 0, sizeof x, &x));
    OK(clSetKernelArg(fixed, 0, sizeof x, &x));
    size_t multiple = 0, max_group = 0;
    OK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                &multiple, NULL));
    CHECK(multiple == 24, "%zu", multiple);
    OK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_group, &max_group, NULL));

    atomic_store(&n_choose, 0);
    atomic_store(&n_prepare, 0);
    const size_t global[2] = { 6, 10 };
    OK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(atomic_load(&n_choose) == 1 && atomic_load(&n_prepare) == 1);
    CHECK(chosen_dims == 2 && chosen_global[0] == 6 && chosen_global[1] == 10 && chosen_global[2] == 1 &&
          chosen_max == max_group, "dims %u global %zu,%zu,%zu max %zu", chosen_dims, chosen_global[0],
          chosen_global[1], chosen_global[2], chosen_max);
    CHECK(prepared_local[0] == 3 && prepared_local[1] == 5 && prepared_local[2] == 1, "local %zu,%zu,%zu",
          prepared_local[0], prepared_local[1], prepared_local[2]);
    CHECK(prepared_groups[0] == 2 && prepared_groups[1] == 2 && prepared_groups[2] == 1);

    const size_t local[2] = { 2, 5 };
    OK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
    OK(clEnqueueNDRangeKernel(queue, fixed, 1, NULL, global, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(atomic_load(&n_choose) == 1 && atomic_load(&n_prepare) == 3);
    CHECK(prepared_local[0] == 2 && prepared_local[1] == 1 && prepared_groups[0] == 3); /* the required size */
    OK(clReleaseKernel(fixed));
    OK(clReleaseKernel(kernel));
    OK(clReleaseProgram(program));
}

/* The CPU device's choice (cpu_launch.c): long rows, a divisor of the
 * global size, at most 64 in dimension 0 for a widened kernel and one run
 * in regions, and groups up to 4096 for a plain loop nest while every
 * compute unit keeps 8 of them. */
TEST(cpu_local_size)
{
    mosaic_kernel_info plain = { 0 }, widened = { .widened_lanes = 16 }, regions = { .keeps_item_state = true };
    size_t local[3];
    const size_t rows[3] = { 512, 512, 1 }, odd[3] = { 3 * 7 * 11, 1, 1 };
    cpu->choose_local_size(device, &regions, 2, rows, 4096, local);
    CHECK(local[0] == 64 && local[1] == 4 && local[2] == 1, "%zu,%zu,%zu", local[0], local[1], local[2]);
    cpu->choose_local_size(device, &widened, 2, rows, 4096, local);
    CHECK(local[0] == 64 && local[1] == 4 && local[2] == 1, "%zu,%zu,%zu", local[0], local[1], local[2]);
    cpu->choose_local_size(device, &regions, 1, odd, 4096, local);
    CHECK(local[0] == 33 && local[1] == 1, "%zu", local[0]); /* the largest divisor up to 64 */
    cpu->choose_local_size(device, &plain, 2, rows, 64, local);
    CHECK(local[0] == 64 && local[1] == 1, "%zu,%zu", local[0], local[1]); /* within the kernel's limit */
    size_t units = device->compute_units, spread = 512 * 512 / (units * 8);
    cpu->choose_local_size(device, &plain, 2, rows, 4096, local);
    size_t expect = spread > 4096 ? 4096 : spread < 256 ? 256 : spread;
    CHECK(local[0] * local[1] <= expect && local[0] >= 256, "%zu units: %zu,%zu", units, local[0], local[1]);
    CHECK(cpu->kernel_preferred_multiple(device, &plain) == 8 && cpu->kernel_preferred_multiple(device, &widened) == 16);
}

/* Images: the commands reach the ops with the image's rectangles (the
 * storage is device memory here, so a byte touched on the host side would
 * fault), and a kernel receives their descriptors and the sampler's bits. */
TEST(images)
{
    cl_int err;
    cl_image_format f = { CL_RGBA, CL_UNSIGNED_INT16 }; /* 8-byte pixels */
    unsigned char host[4 * 8 * 8 * 3], got[sizeof host];
    for (size_t i = 0; i < sizeof host; i++)
        host[i] = (unsigned char)(i * 7 + 1);
    cl_image_desc d3 = { .image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 4, .image_height = 8,
                         .image_array_size = 3, .image_row_pitch = 32, .image_slice_pitch = 256 };
    cl_mem img3 = clCreateImage(context, CL_MEM_COPY_HOST_PTR, &f, &d3, host, &err);
    OK(err);
    CHECK(last_initial == host); /* the device starts from host_ptr, laid out with its pitches */
    size_t o[3] = { 0 }, r[3] = { 4, 8, 3 };
    OK(clEnqueueReadImage(queue, img3, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
    CHECK(memcmp(got, host, sizeof host) == 0);
    /* fill a sub-box, read it back */
    cl_uint colour[4] = { 1, 2, 3, 70000 };
    size_t fo[3] = { 1, 2, 1 }, fr[3] = { 2, 3, 2 };
    OK(clEnqueueFillImage(queue, img3, colour, fo, fr, 0, NULL, NULL));
    OK(clEnqueueReadImage(queue, img3, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
    CHECK(atomic_load(&n_fill_rect) == 1);
    const uint16_t pixel[4] = { 1, 2, 3, 65535 };
    for (size_t z = 0; z < 3; z++)
        for (size_t y = 0; y < 8; y++)
            for (size_t x = 0; x < 4; x++) {
                size_t at = z * 256 + y * 32 + x * 8;
                bool inside = x >= 1 && x < 3 && y >= 2 && y < 5 && z >= 1;
                CHECK(memcmp(got + at, inside ? (const void *)pixel : host + at, 8) == 0, "pixel %zu %zu %zu", x, y, z);
                if (inside)
                    memcpy(host + at, pixel, 8);
            }
    /* a map gets the host copy, filled by the map op and written back by the unmap op */
    size_t rp = 0, sp = 0;
    unsigned char *p = clEnqueueMapImage(queue, img3, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, fo, fr, &rp, &sp, 0, NULL,
                                         NULL, &err);
    OK(err);
    CHECK(p && rp == 32 && sp == 256);
    if (p) {
        CHECK(memcmp(p, pixel, 8) == 0);
        p[sp + rp + 8] = 0x55; /* pixel (2, 3, 2) */
        host[2 * 256 + 3 * 32 + 2 * 8] = 0x55;
        OK(clEnqueueUnmapMemObject(queue, img3, p, 0, NULL, NULL));
    }
    /* copy to a 2D image and to a buffer */
    cl_image_desc d2 = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 8 };
    cl_mem img2 = clCreateImage(context, CL_MEM_READ_ONLY, &f, &d2, NULL, &err);
    OK(err);
    cl_mem buf = buffer(0, 256, NULL);
    size_t src[3] = { 0, 0, 2 }, r2[3] = { 4, 8, 1 };
    OK(clEnqueueCopyImage(queue, img3, img2, src, o, r2, 0, NULL, NULL));
    OK(clEnqueueCopyImageToBuffer(queue, img2, buf, o, r2, 0, 0, NULL, NULL));
    read_all(buf, 256, got);
    CHECK(memcmp(got, host + 2 * 256, 256) == 0);

    /* a kernel's image and sampler arguments */
    const char *source = "kernel void k(read_only image2d_t a, write_only image2d_array_t b, sampler_t s) { }";
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    OK(err);
    OK(clBuildProgram(program, 0, NULL, "-cl-std=CL1.2", NULL, NULL));
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    OK(err);
    cl_sampler sampler = clCreateSampler(context, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, &err);
    OK(err);
    OK(clSetKernelArg(kernel, 0, sizeof img2, &img2));
    CHECK_ERR(clSetKernelArg(kernel, 1, sizeof img2, &img2), CL_INVALID_MEM_OBJECT); /* not a 2D array */
    CHECK_ERR(clSetKernelArg(kernel, 1, sizeof img3, &buf), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(kernel, 1, 4, &img3), CL_INVALID_ARG_SIZE);
    OK(clSetKernelArg(kernel, 1, sizeof img3, &img3));
    CHECK_ERR(clSetKernelArg(kernel, 2, sizeof sampler, &buf), CL_INVALID_SAMPLER);
    CHECK_ERR(clSetKernelArg(kernel, 2, 4, &sampler), CL_INVALID_ARG_SIZE);
    OK(clSetKernelArg(kernel, 2, sizeof sampler, &sampler));
    OK(clReleaseSampler(sampler)); /* its bits were taken */
    size_t one = 1;
    OK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(atomic_load(&n_kernels) == 1);
    const mosaic_image_desc *a = &seen_desc[0], *b = &seen_desc[1];
    CHECK(a->data == mosaic_mem_storage_on(img2, device)->address && a->width == 4 && a->height == 8 &&
          a->depth == 1 && a->array_size == 0 && a->row_pitch == 32 && a->slice_pitch == 0 &&
          a->image_type == CL_MEM_OBJECT_IMAGE2D && a->channel_order == CL_RGBA &&
          a->channel_data_type == CL_UNSIGNED_INT16 && a->pixel_size == 8 && a->num_channels == 4);
    CHECK(b->data == mosaic_mem_storage_on(img3, device)->address && b->width == 4 && b->height == 8 &&
          b->depth == 1 && b->array_size == 3 && b->row_pitch == 32 && b->slice_pitch == 256 &&
          b->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY);
    CHECK(seen_sampler == (MOSAIC_SAMPLER_NORMALIZED_COORDS | 8 | MOSAIC_SAMPLER_FILTER_LINEAR),
          "sampler bits 0x%llx", (unsigned long long)seen_sampler);
    /* access qualifiers: a read_only argument refuses a WRITE_ONLY image, a write_only one a READ_ONLY image */
    cl_mem wo = clCreateImage(context, CL_MEM_WRITE_ONLY, &f, &d2, NULL, &err);
    CHECK_ERR(clSetKernelArg(kernel, 0, sizeof wo, &wo), CL_INVALID_ARG_VALUE);
    cl_mem ro3 = clCreateImage(context, CL_MEM_READ_ONLY, &f, &d3, NULL, &err);
    CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR); /* pitches without host_ptr */
    d3.image_row_pitch = d3.image_slice_pitch = 0;
    ro3 = clCreateImage(context, CL_MEM_READ_ONLY, &f, &d3, NULL, &err);
    OK(err);
    CHECK_ERR(clSetKernelArg(kernel, 1, sizeof ro3, &ro3), CL_INVALID_ARG_VALUE);
    cl_uint aq = 0;
    char type[32] = "";
    OK(clGetKernelArgInfo(kernel, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof aq, &aq, NULL));
    OK(clGetKernelArgInfo(kernel, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
    CHECK(aq == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && strcmp(type, "image2d_array_t") == 0, "%u %s", aq, type);
    OK(clReleaseMemObject(wo));
    OK(clReleaseMemObject(ro3));
    OK(clReleaseKernel(kernel));
    OK(clReleaseProgram(program));
    OK(clReleaseMemObject(buf));
    OK(clReleaseMemObject(img2));
    OK(clReleaseMemObject(img3));
}

int main(int argc, char **argv)
{
    cl_platform_id platform;
    OK(clGetPlatformIDs(1, &platform, NULL));
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    arena = malloc(ARENA_SIZE);
    if (!arena)
        return 1;

    /* The CPU device's ops are complete. */
    cpu = device->ops;
    CHECK(cpu->describe && cpu->compile && cpu->link && cpu->check_binary && cpu->check_il && cpu->finalize &&
          cpu->mem_alloc && cpu->mem_free && cpu->map_address &&
          cpu->svm_alloc && cpu->svm_free && cpu->submit && cpu->read && cpu->write && cpu->copy && cpu->fill && cpu->fill_rect &&
          cpu->native_kernel && cpu->svm_copy && cpu->svm_fill && cpu->kernel_preferred_multiple &&
          cpu->choose_local_size && cpu->prepare_launch);

    remote = *cpu; /* submit goes on to the CPU's: its workers run whatever `run` a command has */
    remote.compile = remote_compile;
    remote.link = remote_link;
    remote.check_binary = remote_check_binary;
    remote.check_il = remote_check_il;
    remote.finalize = remote_finalize;
    remote.mem_alloc = remote_mem_alloc;
    remote.mem_free = remote_mem_free;
    remote.map_address = remote_map_address;
    remote.svm_alloc = remote_svm_alloc;
    remote.svm_free = remote_svm_free;
    remote.read = remote_read;
    remote.write = remote_write;
    remote.copy = remote_copy;
    remote.fill = remote_fill;
    remote.fill_rect = remote_fill_rect;
    remote.submit = remote_submit;
    remote.map = remote_map;
    remote.unmap = remote_unmap;
    remote.migrate = remote_migrate;
    remote.native_kernel = NULL;
    remote.svm_copy = remote_svm_copy;
    remote.svm_fill = remote_svm_fill;
    remote.svm_map = remote_svm_map;
    remote.svm_unmap = remote_svm_unmap;
    remote.svm_migrate = remote_svm_migrate;
    remote.kernel_preferred_multiple = remote_kernel_preferred_multiple;
    remote.choose_local_size = remote_choose_local_size;
    remote.prepare_launch = remote_prepare_launch;
    device->ops = &remote;

    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    OK(err);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    OK(err);
    if (context && queue) {
        test_run(argc, argv);
        OK(clReleaseCommandQueue(queue));
    }
    if (context)
        OK(clReleaseContext(context));
    device->ops = cpu;
    free(arena);
    return test_summary();
}
