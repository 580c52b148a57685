/*
 * Buffers shared by devices with memories of their own (core/coherence.h).
 *
 * A root buffer's map is a sorted list of extents that cover its bytes,
 * each with the set of storages (bits, by index in mem->storages) that
 * hold its current bytes.  Accesses through a sub-buffer are accesses to
 * its range of the root.  A copy between two storages goes through the
 * devices' storage_read and storage_write ops, straight into (or out of)
 * the storage that is host memory, through a bounce buffer when neither is
 * (unless the devices copy between themselves: storage_copy_from).
 */
#include "core/coherence.h"
#include "core/serial.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/ndrange.h"
#include "core/util.h"

typedef struct extent {
    size_t begin, end;
    uint64_t current; /* storages holding the current bytes of [begin, end) */
} extent;

struct mosaic_coherence {
    pthread_mutex_t lock; /* held while the map changes and while copies into it are made */
    size_t count, cap;
    extent *extents;
};

mosaic_coherence *mosaic_coherence_new(size_t size, cl_uint num_storages)
{
    MOSAIC_ASSERT(num_storages >= 2 && num_storages <= 64);
    mosaic_coherence *c = calloc(1, sizeof *c);
    extent *first = malloc(4 * sizeof *first);
    if (!c || !first) {
        free(c);
        free(first);
        return NULL;
    }
    uint64_t all = num_storages == 64 ? ~(uint64_t)0 : ((uint64_t)1 << num_storages) - 1;
    first[0] = (extent){ 0, size ? size : 1, all };
    c->extents = first;
    c->count = 1;
    c->cap = 4;
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

void mosaic_coherence_free(mosaic_coherence *c)
{
    if (!c)
        return;
    pthread_mutex_destroy(&c->lock);
    free(c->extents);
    free(c);
}

/* ---- the map ------------------------------------------------------------------------ */

/* Makes `at` an extent boundary (0 < at < the buffer's end).  False when
 * out of memory. */
static bool split_at(mosaic_coherence *c, size_t at)
{
    for (size_t i = 0; i < c->count; i++) {
        extent *e = &c->extents[i];
        if (e->begin == at || at >= e->end)
            continue;
        if (at < e->begin)
            return true;
        if (c->count == c->cap) {
            extent *grown = realloc(c->extents, 2 * c->cap * sizeof *grown);
            if (!grown)
                return false;
            c->extents = grown;
            c->cap *= 2;
            e = &c->extents[i];
        }
        memmove(e + 1, e, (c->count - i) * sizeof *e);
        c->count++;
        e[0].end = at;
        e[1].begin = at;
        return true;
    }
    return true;
}

/* Joins neighbours with the same storages. */
static void merge(mosaic_coherence *c)
{
    size_t out = 0;
    for (size_t i = 1; i < c->count; i++) {
        if (c->extents[i].current == c->extents[out].current)
            c->extents[out].end = c->extents[i].end;
        else
            c->extents[++out] = c->extents[i];
    }
    c->count = out + 1;
}

/* ---- copies ------------------------------------------------------------------------- */

/* A storage's bytes [offset, offset + size) into host memory, or from it. */
static cl_int storage_to_host(const mosaic_mem_storage *s, size_t offset, void *host, size_t size)
{
    if (!s->device->ops->storage_read) {
        memcpy(host, s->address + offset, size);
        return CL_SUCCESS;
    }
    return s->device->ops->storage_read(s->device, s, offset, host, size);
}

static cl_int host_to_storage(const mosaic_mem_storage *s, size_t offset, const void *host, size_t size)
{
    if (!s->device->ops->storage_write) {
        memcpy(s->address + offset, host, size);
        return CL_SUCCESS;
    }
    return s->device->ops->storage_write(s->device, s, offset, host, size);
}

/* Bytes [offset, offset + size) of the root's storage `from` copied into
 * storage `to`. */
static cl_int copy_range(cl_mem root, cl_uint from, cl_uint to, size_t offset, size_t size)
{
    const mosaic_mem_storage *src = &root->storages[from], *dst = &root->storages[to];
    if (!dst->device->ops->storage_write)
        return storage_to_host(src, offset, dst->address + offset, size);
    if (!src->device->ops->storage_read)
        return host_to_storage(dst, offset, src->address + offset, size);
    if (dst->device->ops->storage_copy_from) { /* straight from one memory to the other, where they can */
        cl_int err = dst->device->ops->storage_copy_from(dst->device, dst, src->device, src, offset, size);
        if (err != CL_INVALID_OPERATION)
            return err;
    }
    enum { BOUNCE = 64 << 20 }; /* two memories neither of which is the host's: a buffer between */
    size_t part = size < BOUNCE ? size : BOUNCE;
    char *bounce = malloc(part);
    if (!bounce)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = CL_SUCCESS;
    for (size_t done = 0; done < size && err == CL_SUCCESS; done += part) {
        size_t n = size - done < part ? size - done : part;
        err = storage_to_host(src, offset + done, bounce, n);
        if (err == CL_SUCCESS)
            err = host_to_storage(dst, offset + done, bounce, n);
    }
    free(bounce);
    return err;
}

/* ---- accesses ----------------------------------------------------------------------- */

enum { READS = MOSAIC_ACCESS_READS, WRITES = MOSAIC_ACCESS_WRITES };
typedef mosaic_mem_access mem_access;

/* The bytes a transfer's end covers: from its origin to the last byte of
 * its last row. */
static size_t endpoint_span(const mosaic_endpoint *e, const size_t region[3])
{
    return (region[2] - 1) * e->slice_pitch + (region[1] - 1) * e->row_pitch + region[0];
}

cl_int mosaic_command_each_access(cl_event command, cl_int (*fn)(cl_event, const mem_access *, void *), void *arg)
{
    void *p = command->payload;
    cl_int err = CL_SUCCESS;
#define VISIT(...)                                                 \
    do {                                                           \
        mem_access a_ = { __VA_ARGS__ };                           \
        if (a_.mem && a_.size && (err = fn(command, &a_, arg)))    \
            return err;                                            \
    } while (0)
    switch (command->command_type) {
    case CL_COMMAND_READ_BUFFER: case CL_COMMAND_READ_BUFFER_RECT: case CL_COMMAND_READ_IMAGE:
    case CL_COMMAND_WRITE_BUFFER: case CL_COMMAND_WRITE_BUFFER_RECT: case CL_COMMAND_WRITE_IMAGE:
    case CL_COMMAND_COPY_BUFFER: case CL_COMMAND_COPY_BUFFER_RECT: case CL_COMMAND_COPY_IMAGE:
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER: case CL_COMMAND_COPY_BUFFER_TO_IMAGE: {
        const mosaic_transfer *t = p;
        size_t flat;
        bool whole = mosaic_transfer_flat(t, &flat); /* the destination's bytes are all written */
        VISIT(t->src.mem, t->src.offset, endpoint_span(&t->src, t->region), READS);
        VISIT(t->dst.mem, t->dst.offset, endpoint_span(&t->dst, t->region), whole ? WRITES : READS | WRITES);
        break;
    }
    case CL_COMMAND_FILL_BUFFER: {
        const mosaic_fill *f = p;
        VISIT(f->mem, f->offset, f->size, WRITES);
        break;
    }
    case CL_COMMAND_FILL_IMAGE: {
        const mosaic_fill_rect *f = p;
        mosaic_endpoint e = { .offset = f->offset, .row_pitch = f->row_pitch, .slice_pitch = f->slice_pitch };
        VISIT(f->mem, f->offset, endpoint_span(&e, f->region), READS | WRITES);
        break;
    }
    case CL_COMMAND_MAP_BUFFER: case CL_COMMAND_MAP_IMAGE: {
        const mosaic_map *m = p;
        VISIT(m->mem, m->offset, m->size, m->flags & CL_MAP_WRITE_INVALIDATE_REGION ? WRITES : READS);
        break;
    }
    case CL_COMMAND_UNMAP_MEM_OBJECT: {
        const mosaic_map *m = p; /* what was written through the map is on the queue's device now */
        if (m->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
            VISIT(m->mem, m->offset, m->size, WRITES);
        break;
    }
    case CL_COMMAND_MIGRATE_MEM_OBJECTS: {
        const mosaic_migration *m = p;
        for (cl_uint i = 0; i < m->count; i++)
            VISIT(m->mems[i], 0, m->mems[i]->size,
                  m->flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED ? WRITES : READS);
        break;
    }
    case CL_COMMAND_NDRANGE_KERNEL: case CL_COMMAND_TASK: {
        const mosaic_ndrange *nd = p;
        for (cl_uint i = 0; i < nd->num_mems; i++) /* a kernel may write what the host may not */
            VISIT(nd->mems[i], 0, nd->mems[i]->size,
                  nd->mems[i]->flags & CL_MEM_READ_ONLY ? READS : READS | WRITES);
        break;
    }
    case CL_COMMAND_NATIVE_KERNEL: {
        const mosaic_native_call *call = p;
        for (cl_uint i = 0; i < call->num_mems; i++)
            VISIT(call->mems[i], 0, call->mems[i]->size, READS | WRITES);
        break;
    }
    default: /* markers, barriers, SVM commands: no memory object */
        break;
    }
#undef VISIT
    return CL_SUCCESS;
}

/* The storage index, in the root, of the memory the command runs on. */
static cl_uint storage_index(cl_mem root, cl_event command)
{
    cl_device_id domain = mosaic_device_mem_domain(command->queue->device);
    if (command->command_type == CL_COMMAND_MIGRATE_MEM_OBJECTS &&
        (((mosaic_migration *)command->payload)->flags & CL_MIGRATE_MEM_OBJECT_HOST)) {
        for (cl_uint i = 0; i < root->num_storages; i++) /* to the host: to a memory that is host memory */
            if (!root->storages[i].device->ops->storage_read)
                return i;
    }
    for (cl_uint i = 0; i < root->num_storages; i++)
        if (root->storages[i].device == domain)
            return i;
    MOSAIC_ASSERT(!"the command's device has no storage for the buffer");
    return 0;
}

/* Does the access need a copy first?  (c->lock held) */
static bool needs_copy(mosaic_coherence *c, size_t begin, size_t end, uint64_t bit)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&c->lock));
    for (size_t i = 0; i < c->count; i++) {
        const extent *e = &c->extents[i];
        if (e->end > begin && e->begin < end && !(e->current & bit))
            return true;
    }
    return false;
}

/* Makes [begin, end) current in storage `to` (copying what is not), then,
 * for a write, current there alone.  (c->lock held) */
static cl_int apply(cl_mem root, mosaic_coherence *c, size_t begin, size_t end, cl_uint to, int mode)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&c->lock));
    uint64_t bit = (uint64_t)1 << to;
    if (!split_at(c, begin) || !split_at(c, end))
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < c->count; i++) {
        extent *e = &c->extents[i];
        if (e->end <= begin || e->begin >= end)
            continue;
        if ((mode & READS) && !(e->current & bit)) {
            cl_uint from = (cl_uint)__builtin_ctzll(e->current);
            cl_int err = copy_range(root, from, to, e->begin, e->end - e->begin);
            if (err != CL_SUCCESS)
                return err;
        }
        e->current = mode & WRITES ? bit : e->current | bit;
    }
    merge(c);
    return CL_SUCCESS;
}

/* The access's root, its byte range there and the storage it is for. */
static mosaic_coherence *locate(cl_event command, const mem_access *a, cl_mem *root, size_t *begin, size_t *end,
                                cl_uint *to)
{
    *root = mosaic_mem_root(a->mem);
    mosaic_coherence *c = (*root)->coherence;
    if (!c)
        return NULL;
    *begin = mosaic_mem_root_offset(a->mem) + a->offset;
    *end = *begin + a->size;
    *to = storage_index(*root, command);
    return c;
}

/* The access, with its copies (needed NULL); or, with `needed`, only when
 * it needs no copy: otherwise *needed is set and it is left for the copy
 * thread. */
static cl_int make_access(cl_event command, const mem_access *a, void *needed)
{
    cl_mem root;
    size_t begin, end;
    cl_uint to;
    mosaic_coherence *c = locate(command, a, &root, &begin, &end, &to);
    if (!c)
        return CL_SUCCESS;
    pthread_mutex_lock(&c->lock);
    cl_int err = CL_SUCCESS;
    if (needed && (a->mode & READS) && needs_copy(c, begin, end, (uint64_t)1 << to))
        *(bool *)needed = true;
    else
        err = apply(root, c, begin, end, to, a->mode);
    pthread_mutex_unlock(&c->lock);
    return err;
}

/* ---- the copy thread ------------------------------------------------------------------ */

/* Commands whose copies are waiting, oldest first, on a serial queue of
 * their own (serial.h): copies cross one bus, and a command waiting here
 * waits for nothing but the copies before it. */
static mosaic_serial copies = MOSAIC_SERIAL_INIT("copy");

static void copies_before_fork(void) { mosaic_serial_before_fork(&copies); }
static void copies_after_fork_in_parent(void) { mosaic_serial_after_fork_in_parent(&copies); }
static void copies_after_fork_in_child(void) { mosaic_serial_after_fork_in_child(&copies); }

/* Registered at the first copy, with no lock held. */
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void register_fork_handlers(void)
{
    pthread_atfork(copies_before_fork, copies_after_fork_in_parent, copies_after_fork_in_child);
}

typedef struct pending {
    cl_event command;
    void (*then)(cl_event, cl_int);
} pending;

static void make_copies(void *arg)
{
    pending *p = arg;
    cl_int err = mosaic_command_each_access(p->command, make_access, NULL);
    p->then(p->command, err);
    free(p);
}

bool mosaic_coherence_start(cl_event command, void (*then)(cl_event, cl_int))
{
    if (!command->queue || command->queue->context->num_memories < 2)
        return false;
    bool needed = false;
    cl_int err = mosaic_command_each_access(command, make_access, &needed);
    if (err != CL_SUCCESS) {
        then(command, err);
        return true;
    }
    if (!needed)
        return false;
    pending *p = malloc(sizeof *p);
    if (!p) {
        then(command, CL_OUT_OF_HOST_MEMORY);
        return true;
    }
    *p = (pending){ command, then };
    pthread_once(&fork_handlers_once, register_fork_handlers);
    if (!mosaic_serial_post(&copies, make_copies, p)) {
        free(p);
        then(command, CL_OUT_OF_RESOURCES);
    }
    return true;
}

cl_int mosaic_coherence_start_here(cl_event command)
{
    if (!command->queue || command->queue->context->num_memories < 2)
        return CL_SUCCESS;
    return mosaic_command_each_access(command, make_access, NULL);
}
