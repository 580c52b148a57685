/*
 * Pipes on the CPU device: the storage of a pipe object and the functions
 * that clang's code for the pipe built-ins calls (__read_pipe_2,
 * __reserve_write_pipe, ...; the table in cpu_device.c).  docs/pipes.md has
 * the whole design; in short:
 *
 * A pipe is a ring of `capacity` packets addressed by 64-bit positions that
 * only grow (slot = position % capacity), with four counters:
 *
 *   r_committed <= r_reserved <= w_committed <= w_reserved <= r_committed + capacity
 *
 * Writers reserve [w_reserved, +n), fill the packets, then commit; the
 * packets become readable (w_committed passes them) only once every earlier
 * write reservation has committed too, so packets come out in reservation
 * order.  Readers do the same on their side, and a slot is free for writers
 * again once r_committed has passed it.  A commit that cannot
 * advance its counter (an earlier reservation is still open) leaves its
 * length in marks[slot of its first packet], and the commit that closes the
 * gap walks over those marks.  Nobody ever waits for another reservation:
 * a work-item that commits out of order (or runs as a fiber beside the
 * reserving one) never blocks, which a barrier kernel needs.
 *
 * One mutex per pipe guards the counters and marks.  The packets of a
 * reservation belong to its owner between reserve and commit, so
 * read_pipe/write_pipe with a reserve id copy without the lock; the 2-argument
 * forms copy under it (reserve, copy and commit in one step).  The lock's
 * release at commit is what makes a packet's bytes visible to the reader that
 * reserves it after.
 *
 * A reserve id is a 64-bit value: the low 32 bits of its first position, and
 * count - 1 in the high 32 bits, so read_pipe/write_pipe need no lookup.  The
 * full position is the one of the reservation's side that is congruent to
 * the low bits within [committed, committed + capacity) (an open reservation
 * lies there, and capacity < 2^32).  UINT64_MAX (clang's CLK_NULL_RESERVE_ID)
 * is never a valid id: count - 1 < 2^32 - 1.
 *
 * Anything a kernel passes is checked enough to stay inside the pipe's
 * storage: a packet size other than the pipe's, an index past the
 * reservation, or a reserve id that is not open on that side fails or is
 * ignored.
 */
#include "devices/cpu/cpu_pipe.h"
#include "core/memory.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    pthread_mutex_t lock;
    uint32_t packet_size, capacity;
    /* Written under `lock`; read_pipe/write_pipe with a reserve id read the
     * committed counters without it (they only need a lower bound). */
    _Atomic uint64_t w_reserved, w_committed, r_reserved, r_committed;
    uint32_t *marks;  /* capacity entries: length of a committed reservation that waits for an earlier one, else 0 */
    char *packets;    /* capacity * packet_size bytes */
} cpu_pipe;

#define ALIGN_UP(x) (((x) + MOSAIC_MEM_ALIGN - 1) & ~(size_t)(MOSAIC_MEM_ALIGN - 1))

#define LOAD(v) atomic_load_explicit(&(v), memory_order_relaxed)
#define STORE(v, x) atomic_store_explicit(&(v), (x), memory_order_relaxed)

/* ---- storage -------------------------------------------------------------------------- */

cl_int mosaic_cpu_pipe_alloc(cl_mem mem, mosaic_mem_storage *storage)
{
    size_t cap = mem->pipe_max_packets, header = ALIGN_UP(sizeof(cpu_pipe));
    size_t marks = ALIGN_UP(cap * sizeof(uint32_t));
    size_t total = header + marks + ALIGN_UP((size_t)mem->pipe_packet_size * cap);
    void *p = NULL;
    if (posix_memalign(&p, MOSAIC_MEM_ALIGN, total) != 0)
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    cpu_pipe *pipe = p;
    if (pthread_mutex_init(&pipe->lock, NULL) != 0) {
        free(p);
        return CL_OUT_OF_RESOURCES;
    }
    pipe->packet_size = mem->pipe_packet_size;
    pipe->capacity = mem->pipe_max_packets;
    atomic_init(&pipe->w_reserved, 0);
    atomic_init(&pipe->w_committed, 0);
    atomic_init(&pipe->r_reserved, 0);
    atomic_init(&pipe->r_committed, 0);
    pipe->marks = (uint32_t *)((char *)p + header);
    memset(pipe->marks, 0, cap * sizeof(uint32_t));
    pipe->packets = (char *)p + header + marks;
    storage->address = p;
    storage->allocation = p;
    return CL_SUCCESS;
}

void mosaic_cpu_pipe_free(mosaic_mem_storage *storage)
{
    cpu_pipe *pipe = storage->allocation;
    if (pipe) {
        pthread_mutex_destroy(&pipe->lock);
        free(pipe);
    }
    storage->allocation = NULL;
    storage->address = NULL;
}

/* ---- the ring ------------------------------------------------------------------------- */

static char *slot(cpu_pipe *p, uint64_t position)
{
    return p->packets + (size_t)(position % p->capacity) * p->packet_size;
}

static uint64_t make_id(uint64_t position, uint32_t count)
{
    return (uint64_t)(uint32_t)position | (uint64_t)(count - 1) << 32;
}

static uint32_t id_count(uint64_t id) { return (uint32_t)(id >> 32) + 1; }

/* The position an id of one side names, from that side's committed counter. */
static uint64_t id_position(uint64_t id, uint64_t committed)
{
    return committed + (uint32_t)((uint32_t)id - (uint32_t)committed);
}

/* Marks [position, +count) of one side committed and moves that side's
 * committed counter over every committed reservation it reaches. */
static void commit_locked(cpu_pipe *p, _Atomic uint64_t *committed, uint64_t reserved, uint64_t position,
                          uint32_t count)
{
    uint64_t c = LOAD(*committed);
    if (position != c) { /* an earlier reservation is still open: leave a mark */
        p->marks[position % p->capacity] = count;
        return;
    }
    c += count;
    while (c != reserved) {
        uint32_t *m = &p->marks[c % p->capacity];
        if (!*m)
            break;
        c += *m;
        *m = 0;
    }
    STORE(*committed, c);
}

/* Whether id names an open reservation of one side, under the lock: inside
 * [committed, reserved) and not committed already. */
static bool open_locked(cpu_pipe *p, uint64_t id, uint64_t committed, uint64_t reserved, uint64_t *position)
{
    uint64_t pos = id_position(id, committed);
    uint32_t n = id_count(id);
    if (pos >= reserved || n > reserved - pos || p->marks[pos % p->capacity])
        return false;
    *position = pos;
    return true;
}

static bool packet_ok(cpu_pipe *p, uint32_t size) { return p && size == p->packet_size; }

int32_t mosaic_cpu_pipe_write(void *pipe, const void *packet, uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!packet_ok(p, size))
        return -1;
    int32_t r = -1;
    pthread_mutex_lock(&p->lock);
    uint64_t pos = LOAD(p->w_reserved);
    if (pos - LOAD(p->r_committed) < p->capacity) { /* not full */
        memcpy(slot(p, pos), packet, size);
        STORE(p->w_reserved, pos + 1);
        commit_locked(p, &p->w_committed, pos + 1, pos, 1);
        r = 0;
    }
    pthread_mutex_unlock(&p->lock);
    return r;
}

int32_t mosaic_cpu_pipe_read(void *pipe, void *packet, uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!packet_ok(p, size))
        return -1;
    int32_t r = -1;
    pthread_mutex_lock(&p->lock);
    uint64_t pos = LOAD(p->r_reserved);
    if (pos != LOAD(p->w_committed)) { /* not empty */
        memcpy(packet, slot(p, pos), size);
        STORE(p->r_reserved, pos + 1);
        commit_locked(p, &p->r_committed, pos + 1, pos, 1);
        r = 0;
    }
    pthread_mutex_unlock(&p->lock);
    return r;
}

uint64_t mosaic_cpu_pipe_reserve_write(void *pipe, uint32_t num_packets, uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!packet_ok(p, size) || num_packets == 0 || num_packets > p->capacity)
        return MOSAIC_PIPE_NO_RESERVATION;
    uint64_t id = MOSAIC_PIPE_NO_RESERVATION;
    pthread_mutex_lock(&p->lock);
    uint64_t pos = LOAD(p->w_reserved);
    if (p->capacity - (pos - LOAD(p->r_committed)) >= num_packets) {
        STORE(p->w_reserved, pos + num_packets);
        id = make_id(pos, num_packets);
    }
    pthread_mutex_unlock(&p->lock);
    return id;
}

uint64_t mosaic_cpu_pipe_reserve_read(void *pipe, uint32_t num_packets, uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!packet_ok(p, size) || num_packets == 0 || num_packets > p->capacity)
        return MOSAIC_PIPE_NO_RESERVATION;
    uint64_t id = MOSAIC_PIPE_NO_RESERVATION;
    pthread_mutex_lock(&p->lock);
    uint64_t pos = LOAD(p->r_reserved);
    if (LOAD(p->w_committed) - pos >= num_packets) {
        STORE(p->r_reserved, pos + num_packets);
        id = make_id(pos, num_packets);
    }
    pthread_mutex_unlock(&p->lock);
    return id;
}

int32_t mosaic_cpu_pipe_write_reserved(void *pipe, uint64_t reserve_id, uint32_t index, const void *packet,
                                       uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!packet_ok(p, size) || reserve_id == MOSAIC_PIPE_NO_RESERVATION || index >= id_count(reserve_id))
        return -1;
    uint64_t pos = id_position(reserve_id, LOAD(p->w_committed));
    memcpy(slot(p, pos + index), packet, size);
    return 0;
}

int32_t mosaic_cpu_pipe_read_reserved(void *pipe, uint64_t reserve_id, uint32_t index, void *packet, uint32_t size,
                                      uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!packet_ok(p, size) || reserve_id == MOSAIC_PIPE_NO_RESERVATION || index >= id_count(reserve_id))
        return -1;
    uint64_t pos = id_position(reserve_id, LOAD(p->r_committed));
    memcpy(packet, slot(p, pos + index), size);
    return 0;
}

void mosaic_cpu_pipe_commit_write(void *pipe, uint64_t reserve_id, uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!packet_ok(p, size) || reserve_id == MOSAIC_PIPE_NO_RESERVATION)
        return;
    pthread_mutex_lock(&p->lock);
    uint64_t pos, reserved = LOAD(p->w_reserved);
    if (open_locked(p, reserve_id, LOAD(p->w_committed), reserved, &pos))
        commit_locked(p, &p->w_committed, reserved, pos, id_count(reserve_id));
    pthread_mutex_unlock(&p->lock);
}

void mosaic_cpu_pipe_commit_read(void *pipe, uint64_t reserve_id, uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!packet_ok(p, size) || reserve_id == MOSAIC_PIPE_NO_RESERVATION)
        return;
    pthread_mutex_lock(&p->lock);
    uint64_t pos, reserved = LOAD(p->r_reserved);
    if (open_locked(p, reserve_id, LOAD(p->r_committed), reserved, &pos))
        commit_locked(p, &p->r_committed, reserved, pos, id_count(reserve_id));
    pthread_mutex_unlock(&p->lock);
}

/* Packets a reader could take now: written and committed, not yet reserved
 * by a reader (a moment's answer; the same for both access qualifiers). */
uint32_t mosaic_cpu_pipe_num_packets(void *pipe, uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    if (!p)
        return 0;
    pthread_mutex_lock(&p->lock);
    uint64_t n = LOAD(p->w_committed) - LOAD(p->r_reserved);
    pthread_mutex_unlock(&p->lock);
    return (uint32_t)n;
}

uint32_t mosaic_cpu_pipe_max_packets(void *pipe, uint32_t size, uint32_t align)
{
    cpu_pipe *p = pipe;
    return p ? p->capacity : 0;
}
