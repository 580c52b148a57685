/*
 * What a program's remote device and a mosaic-server say to each other
 * (docs/remote.md, "What crosses the network").  Both ends are the same
 * build of Mosaic (HELLO checks it), so numbers travel as the machine
 * holds them.
 *
 * Every call is one request and one reply, both of the call's tag (its
 * own, so calls of several threads to one server interleave freely):
 *   request: a remote_request, then bytes the op defines ("inline");
 *            then, when data_size > 0, that many bytes in messages of
 *            their own (the transport splits them).
 *   reply:   a remote_reply, inline bytes, then data_size bytes likewise.
 * An empty message of tag 0 tells a server to quit.
 *
 * A buffer on a server is named by an address: its number on the server
 * shifted left by REMOTE_ADDRESS_BITS, plus an offset in it.  That is
 * what a remote device gives as a storage's address, so a sub-buffer, an
 * endpoint of a transfer and a kernel's buffer argument all name their
 * bytes the way the CPU device's host addresses do.
 */
#ifndef MOSAIC_REMOTE_PROTOCOL_H
#define MOSAIC_REMOTE_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REMOTE_PROTOCOL_VERSION 1
#define REMOTE_ADDRESS_BITS 40 /* a buffer of up to 1 TiB */
#define REMOTE_ADDRESS(id, offset) (((uint64_t)(id) << REMOTE_ADDRESS_BITS) + (uint64_t)(offset))
#define REMOTE_ADDRESS_ID(a) ((uint64_t)(a) >> REMOTE_ADDRESS_BITS)
#define REMOTE_ADDRESS_OFFSET(a) ((uint64_t)(a) & (((uint64_t)1 << REMOTE_ADDRESS_BITS) - 1))

typedef enum remote_op {
    REMOTE_HELLO = 1, /* -> r[0] devices; inline: host name, then each device (remote_wire.c) */
    REMOTE_NOP,       /* a[0] bytes to answer with; data: bytes to drop.  Nothing else: the
                         round trip of an empty command, and MPI's own bandwidth */
    REMOTE_ALLOC,     /* a[0] size, a[1] cl_mem_flags; data: the initial bytes (or none) -> r[0] id */
    REMOTE_FREE,      /* a[0] id */
    REMOTE_READ,      /* a[0] address, a[1] size -> data: the bytes */
    REMOTE_WRITE,     /* a[0] address, a[1] size; data: the bytes */
    REMOTE_COPY,      /* a[0] source address, a[1] destination address, a[2] size */
    REMOTE_FILL,      /* a[0] address, a[1] size, a[2] pattern size; inline: the pattern */
    REMOTE_COMPILE,   /* a[0] headers, a[1] 1: from SPIR-V; inline: options, source (or the
                         SPIR-V, then a[2] specialization constants set: id, size, value
                         each), (name, text) per header ->
                         r[0] binary type; inline: log; data: the binary */
    REMOTE_LINK,      /* a[0] inputs, a[1] create_library; inline: options, then each input
                         (size, bytes) -> as COMPILE */
    REMOTE_CHECK_BINARY, /* inline: the binary -> r[0] binary type; inline: log */
    REMOTE_FINALIZE,  /* inline: options, the executable binary -> r[0] program id, r[1]
                         kernels; inline: log, then each kernel (remote_wire.c) */
    REMOTE_RELEASE_PROGRAM, /* a[0] program id */
    REMOTE_SEND,      /* a[0] address, a[1] size, a[2] the server to send to (its rank among
                         the servers), a[3] the tag both use: bytes to another server
                         (address 0: scratch memory, for MPI's own bandwidth) */
    REMOTE_RECEIVE,   /* a[0] address, a[1] size, a[2] the server they come from, a[3] the tag */
    REMOTE_LAUNCH,    /* a[0] program id, a[1] kernel index, a[2] work_dim; inline: offset,
                         global and local sizes (3 each), then each argument (remote_wire.c) */
} remote_op;

typedef struct remote_request {
    uint32_t op;
    uint32_t device;    /* the server's device, by its index in its platform */
    uint64_t a[6];
    uint64_t data_size;
} remote_request;

typedef struct remote_reply {
    int32_t status;     /* CL_SUCCESS or the error the call must return */
    uint32_t reserved;
    uint64_t r[3];
    uint64_t data_size;
} remote_reply;

/* ---- inline bytes (remote_wire.c) ---- */

/* A growing message: its first bytes a request or reply header. */
typedef struct remote_msg {
    char *data;
    size_t size, cap;
    bool oom;
} remote_msg;

void remote_put(remote_msg *m, const void *bytes, size_t n);
void remote_put_u64(remote_msg *m, uint64_t v);
void remote_put_str(remote_msg *m, const char *s);   /* NULL travels as "" */
void remote_put_blob(remote_msg *m, const void *bytes, size_t n); /* its size, then the bytes */

/* Reading inline bytes: every read past the end fails (and marks the
 * reader bad), so a damaged message is refused, never overrun. */
typedef struct remote_reader {
    const char *p, *end;
    bool bad;
} remote_reader;

bool remote_get(remote_reader *r, void *bytes, size_t n);
uint64_t remote_get_u64(remote_reader *r);
const char *remote_get_str(remote_reader *r);     /* points into the message; "" when bad */
const void *remote_get_blob(remote_reader *r, size_t *n);

/* A device's description (HELLO): the struct as the server's platform
 * filled it, then the strings it points at.  remote_get_device gives the
 * struct with its pointers at strings of `strings` (malloc'd, the
 * caller's, kept as long as the device) and every other pointer NULL (the
 * compiler target's but its triple, which names what its SPIR-V front
 * end takes). */
struct _cl_device_id;
void remote_put_device(remote_msg *m, const struct _cl_device_id *device);
bool remote_get_device(remote_reader *r, struct _cl_device_id *device, char **strings);

/* A kernel's table entry (FINALIZE): what clSetKernelArg and
 * clGetKernelInfo need of it, and the most work-items a group of it may
 * have on the server's device. */
struct mosaic_kernel_info;
void remote_put_kernel(remote_msg *m, const struct mosaic_kernel_info *kernel, uint64_t work_group_limit);
bool remote_get_kernel(remote_reader *r, struct mosaic_kernel_info *kernel, uint64_t *work_group_limit);

/* A kernel argument of a LAUNCH: what the server sets with clSetKernelArg. */
enum {
    REMOTE_ARG_VALUE = 1, /* bytes (by value) */
    REMOTE_ARG_BUFFER,    /* a u64 remote address, or 0 for NULL */
    REMOTE_ARG_LOCAL,     /* a u64 size of __local memory */
};

#endif
