/*
 * What the remote device asks of the network: messages between this
 * program and its servers, and nothing else.  The one transport is MPI's
 * (src/devices/remote/mpi/transport_mpi.c), built into its own shared
 * object, libmosaic-remote.so, which libmosaic.so opens only when
 * MOSAIC_REMOTE=mpi: a program that never asks for remote devices never
 * loads MPI (docs/remote.md).
 *
 * A message goes to, or comes from, one server (0 .. servers-1) with a
 * tag (1 .. MOSAIC_REMOTE_MAX_TAG); messages of one tag between two ends
 * arrive in the order they were sent.  Every function may be called from
 * several threads at once.  Each returns 0, or a non-zero error: the
 * server is gone or the connection lost, and `why` (where there is one)
 * says so.
 */
#ifndef MOSAIC_REMOTE_TRANSPORT_H
#define MOSAIC_REMOTE_TRANSPORT_H

#include <stddef.h>

#define MOSAIC_TRANSPORT_VERSION 2
#define MOSAIC_REMOTE_MAX_TAG 32000 /* MPI promises tags up to 32767 */
/* Each server sends an empty message of this tag to the program every
 * MOSAIC_REMOTE_HEARTBEAT_MS, from a thread of its own, whatever its main
 * thread is doing: a wait for a server that hears neither its answer nor a
 * heartbeat for the timeout (set_timeout) gives up on it.  (With Open MPI
 * 4.1 nothing else tells of a process that died: docs/remote.md.) */
#define MOSAIC_REMOTE_HEARTBEAT_TAG (MOSAIC_REMOTE_MAX_TAG + 1)
#define MOSAIC_REMOTE_HEARTBEAT_MS 250
/* send and receive_into move more bytes than this as messages of this size
 * and one of the rest, which mosaic-server receives and sends alike; up to
 * MOSAIC_REMOTE_IN_FLIGHT of them are posted at once on each side, so that
 * the next is under way as one completes (a transfer pipelined in parts) */
#define MOSAIC_REMOTE_PIECE ((size_t)16 << 20)
#define MOSAIC_REMOTE_IN_FLIGHT 4

typedef struct mosaic_transport {
    unsigned version; /* MOSAIC_TRANSPORT_VERSION */
    /* Starts `servers` processes of the program at `server_path` (MPI_Comm_spawn)
     * and returns how many there are, or 0 with why. */
    int (*start)(const char *server_path, int servers, char *why, size_t why_size);
    /* size bytes to a server, waited for until the bytes may be reused. */
    int (*send)(int server, int tag, const void *data, size_t size);
    /* The next message of `tag` from a server, whatever its size: *data
     * malloc'd (the caller frees it), *size its bytes. */
    int (*receive)(int server, int tag, void **data, size_t *size);
    /* The next message of `tag` from a server into data, which has room for
     * exactly size bytes (a message of another size is an error). */
    int (*receive_into)(int server, int tag, void *data, size_t size);
    /* Seconds a wait for a server may go without hearing from it (its
     * answer, or a heartbeat) before it fails, and the server with it: every
     * later call to it fails at once. */
    void (*set_timeout)(unsigned seconds);
    /* Ends the servers (each is sent an empty message of tag 0, which means
     * "quit") and closes the connection.  The transport does it by itself
     * at exit, or when the program calls MPI_Finalize, whichever is first;
     * stop is for a program that gives up on its servers sooner. */
    void (*stop)(void);
} mosaic_transport;

/* Servers started by the launcher beside the program (`mpirun -n 1
 * ./program : -n 2 mosaic-server`) and the program find each other in
 * MPI_COMM_WORLD, every process of it together: MPI_Allreduce (MPI_MIN) of
 * {its rank or INT_MAX if a server, its rank if a server or INT_MAX}, then
 * MPI_Comm_split by side and MPI_Intercomm_create between the sides' first
 * ranks, on this tag. */
#define MOSAIC_REMOTE_SIDE_PROGRAM 0
#define MOSAIC_REMOTE_SIDE_SERVER 1
#define MOSAIC_REMOTE_JOIN_TAG 7101

/* The one symbol libmosaic-remote.so exports. */
#define MOSAIC_TRANSPORT_SYMBOL "mosaic_transport_mpi"
typedef const mosaic_transport *(*mosaic_transport_entry)(void);

#endif
