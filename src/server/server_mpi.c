/*
 * mosaic-server's MPI: the intercommunicator to the program, which spawned
 * it (MPI_Comm_get_parent) or beside which the launcher started it (then
 * they find each other in MPI_COMM_WORLD: transport.h), messages in pieces
 * as the program's transport
 * makes them (src/devices/remote/mpi/transport_mpi.c), and waits that poll
 * and sleep rather than spin: the servers of a job may share the program's
 * cores.
 */
#define _GNU_SOURCE
#include "server/server.h"

#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "devices/remote/mpi/polling.h"
#include "devices/remote/transport.h"

static MPI_Comm program = MPI_COMM_NULL;
static pthread_t heartbeat_thread;
static bool heartbeating;
static atomic_bool stopping;
/* the servers alone, for copies between them: the spawned job's world, or
 * the servers' part of the launcher's */
static MPI_Comm peers = MPI_COMM_NULL;
static bool launched;
static bool skip_finalize; /* (MPI_Finalize would wait for a dead process) */

/* Microseconds a wait tests without a pause: the next request of a
 * program that sends one command after another comes within a round trip
 * (measured 25 us between two jobs on one machine); an idle server soon
 * sleeps. */
#define SPIN_US 50

static bool wait_for(MPI_Request *request)
{
    uint64_t started = mosaic_poll_now_us();
    for (;;) {
        int done = 0;
        if (MPI_Test(request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return false;
        if (done)
            return true;
        mosaic_poll_pause_in_transfer(started);
    }
}

/* Tells the program, every MOSAIC_REMOTE_HEARTBEAT_MS, that this server
 * lives, whatever the main thread is doing (a long kernel, a transfer):
 * the program gives up on a server that goes silent (transport.h). */
static void *heartbeat(void *unused)
{
    (void)unused;
    while (!atomic_load(&stopping)) {
        MPI_Send(NULL, 0, MPI_BYTE, 0, MOSAIC_REMOTE_HEARTBEAT_TAG, program);
        for (int slept = 0; slept < MOSAIC_REMOTE_HEARTBEAT_MS && !atomic_load(&stopping); slept += 10) {
            struct timespec t = {0, 10 * 1000000};
            nanosleep(&t, NULL);
        }
    }
    return NULL;
}

/* Started by the launcher: the program's half is transport_mpi.c's
 * join_launched_servers, the same collective calls. */
static bool join_program(void)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mine[2] = {INT_MAX, rank}, first[2];
    if (size < 2 || MPI_Allreduce(mine, first, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS ||
        first[0] == INT_MAX)
        return false;
    if (MPI_Comm_split(MPI_COMM_WORLD, MOSAIC_REMOTE_SIDE_SERVER, rank, &peers) != MPI_SUCCESS ||
        MPI_Intercomm_create(peers, 0, MPI_COMM_WORLD, first[0], MOSAIC_REMOTE_JOIN_TAG, &program) != MPI_SUCCESS)
        return false;
    launched = true;
    return true;
}

bool server_mpi_start(int *argc, char ***argv)
{
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        return false;
    MPI_Comm_get_parent(&program);
    if (program != MPI_COMM_NULL) {
        peers = MPI_COMM_WORLD;
    } else if (!join_program()) {
        fprintf(stderr, "mosaic-server: no program started this server, nor runs beside it in its MPI job; it is "
                        "started by a program's Mosaic with MOSAIC_REMOTE=mpi, or by `mpirun -n 1 ./program : "
                        "-n 2 mosaic-server` (docs/remote.md)\n");
        MPI_Finalize();
        return false;
    }
    MPI_Comm_set_errhandler(program, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(peers, MPI_ERRORS_RETURN);
    heartbeating = pthread_create(&heartbeat_thread, NULL, heartbeat, NULL) == 0;
    return true;
}

void server_mpi_stop(void)
{
    atomic_store(&stopping, true);
    if (heartbeating)
        pthread_join(heartbeat_thread, NULL);
    if (program != MPI_COMM_NULL && launched)
        MPI_Comm_free(&program); /* (the world ends at MPI_Finalize, all of it together) */
    else if (program != MPI_COMM_NULL)
        MPI_Comm_disconnect(&program);
    if (launched)
        MPI_Comm_free(&peers);
    if (!skip_finalize)
        MPI_Finalize();
}

char *server_next_request(int *tag, size_t *size)
{
    uint64_t started = mosaic_poll_now_us();
    MPI_Message message;
    MPI_Status status;
    for (;;) {
        int found = 0;
        if (MPI_Improbe(0, MPI_ANY_TAG, program, &found, &message, &status) != MPI_SUCCESS)
            return NULL;
        if (found)
            break;
        mosaic_poll_pause(started, SPIN_US);
    }
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    char *data = malloc(count > 0 ? (size_t)count : 1);
    bool received = data && MPI_Mrecv(data, count, MPI_BYTE, &message, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    if (received && status.MPI_TAG == 0 && count == 1) /* quit, without MPI_Finalize: a server of the world died */
        skip_finalize = true;
    if (!received || status.MPI_TAG == 0) { /* tag 0: quit */
        free(data);
        return NULL;
    }
    *tag = status.MPI_TAG;
    *size = (size_t)count;
    return data;
}

/* size bytes at p to or from rank `to` of comm, in pieces as the
 * program's transport makes them: up to MOSAIC_REMOTE_IN_FLIGHT posted at
 * once (a message of 0 bytes is one too).  On failure the pieces still
 * posted are left to MPI (the server then stops serving). */
static bool pieces(MPI_Comm comm, int to, int tag, char *p, size_t size, bool sending)
{
    MPI_Request r[MOSAIC_REMOTE_IN_FLIGHT];
    size_t next = 0;
    unsigned first = 0, posted = 0;
    bool any = false;
    while (posted || !any || next < size) {
        while (posted < MOSAIC_REMOTE_IN_FLIGHT && (!any || next < size)) {
            size_t n = size - next < MOSAIC_REMOTE_PIECE ? size - next : MOSAIC_REMOTE_PIECE;
            MPI_Request *q = &r[(first + posted) % MOSAIC_REMOTE_IN_FLIGHT];
            int rc = sending ? MPI_Isend(p + next, (int)n, MPI_BYTE, to, tag, comm, q)
                             : MPI_Irecv(p + next, (int)n, MPI_BYTE, to, tag, comm, q);
            if (rc != MPI_SUCCESS)
                return false;
            posted++, next += n, any = true;
        }
        if (!wait_for(&r[first]))
            return false;
        first = (first + 1) % MOSAIC_REMOTE_IN_FLIGHT;
        posted--;
    }
    return true;
}

bool server_send(int tag, const void *data, size_t size)
{
    return pieces(program, 0, tag, (char *)data, size, true);
}

bool server_receive(int tag, void *data, size_t size)
{
    return pieces(program, 0, tag, data, size, false);
}

bool server_drop_data(int tag, size_t size)
{
    while (size) {
        size_t n = size < MOSAIC_REMOTE_PIECE ? size : MOSAIC_REMOTE_PIECE;
        char *scratch = malloc(n);
        bool fine = scratch && server_receive(tag, scratch, n);
        free(scratch);
        if (!fine)
            return false;
        size -= n;
    }
    return true;
}

/* ---- between servers: `peers` ---- */

bool server_peer_send(int peer, int tag, const void *data, size_t size)
{
    return pieces(peers, peer, tag, (char *)data, size, true);
}

bool server_peer_receive(int peer, int tag, void *data, size_t size)
{
    return pieces(peers, peer, tag, data, size, false);
}
