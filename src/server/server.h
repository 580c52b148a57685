/*
 * mosaic-server's parts:
 *   server.c          main: its devices, the loop over requests, HELLO
 *   server_mpi.c      MPI: the program that started it, messages
 *   server_memory.c   buffers: ALLOC, FREE, READ, WRITE, COPY, FILL, SEND, RECEIVE
 *   server_program.c  programs and launches: COMPILE ... LAUNCH
 */
#ifndef MOSAIC_SERVER_H
#define MOSAIC_SERVER_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devices/remote/protocol.h"

#define SERVER_MAX_DEVICES 16

/* Objects the program names by number (1, 2...; a number is never reused). */
typedef struct server_table {
    void **items;
    size_t count, cap;
} server_table;

uint64_t server_keep(server_table *t, void *object); /* 0: out of memory */
void *server_find(const server_table *t, uint64_t id);
void *server_forget(server_table *t, uint64_t id);    /* takes it out of the table */

typedef struct server_state {
    cl_uint num_devices;
    cl_device_id devices[SERVER_MAX_DEVICES];
    cl_context contexts[SERVER_MAX_DEVICES]; /* one per device */
    cl_command_queue queues[SERVER_MAX_DEVICES]; /* in order */
    server_table buffers;  /* server_buffer */
    server_table programs; /* served_program (server_program.c) */
} server_state;

extern server_state the_server;

/* A buffer of one device. */
typedef struct server_buffer {
    cl_mem mem;
    uint32_t device;
    size_t size;
} server_buffer;

/* The buffer a remote address names (protocol.h), with its offset; NULL
 * when it names none of `device`'s, or [offset, offset + size) leaves it. */
server_buffer *server_buffer_at(uint64_t address, uint32_t device, size_t size, size_t *offset);

/* ---- MPI (server_mpi.c) ---- */
bool server_mpi_start(int *argc, char ***argv);
void server_mpi_stop(void);
/* The next request from the program (malloc'd) and its tag; NULL when it
 * says quit, or cannot be heard any more. */
char *server_next_request(int *tag, size_t *size);
/* Bytes to the program, and the data of a request from it, in pieces as
 * the transport makes them (MOSAIC_REMOTE_PIECE). */
bool server_send(int tag, const void *data, size_t size);
bool server_receive(int tag, void *data, size_t size);
/* Receives and drops a request's data (a request refused before it). */
bool server_drop_data(int tag, size_t size);
/* Bytes to, or from, another server (by its rank among the servers). */
bool server_peer_send(int peer, int tag, const void *data, size_t size);
bool server_peer_receive(int peer, int tag, void *data, size_t size);

/* Memory for bytes nobody keeps (the benchmark's baseline), kept and
 * reused: NULL when there is not enough. */
char *server_scratch(size_t size);

/* ---- replies (server.c) ---- */
void server_reply_begin(remote_msg *m, cl_int status);
remote_reply *server_reply_header(remote_msg *m);
/* Sends the reply (and data_size bytes of data after it) and frees it. */
bool server_reply_end(int tag, remote_msg *m, const void *data, size_t data_size);
bool server_reply_status(int tag, cl_int status);

/* ---- the ops: each replies, and returns false only when the program cannot be reached ---- */
bool server_memory(int tag, const remote_request *request, remote_reader *in);
bool server_program(int tag, const remote_request *request, remote_reader *in);

#endif
