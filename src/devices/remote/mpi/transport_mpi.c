/*
 * The MPI transport of the remote device (transport.h): libmosaic-remote.so,
 * the only part of Mosaic that links MPI.
 *
 * The servers are reached through an intercommunicator that only this
 * file holds, made one of two ways (docs/remote.md, "Running it"):
 *   - launched: `mpirun -n 1 ./program : -n 2 mosaic-server`, the servers
 *     in the program's own MPI_COMM_WORLD, which then is Mosaic's alone:
 *     only for a program that does not use MPI itself (Mosaic initialises
 *     MPI).  Within one job MPI uses shared memory on one machine.
 *   - spawned (MPI_Comm_spawn from MPI_COMM_SELF), otherwise: the servers
 *     are another job, MPI_COMM_WORLD stays what the launcher made it, so a
 *     program that uses MPI itself sees the same ranks and sizes with and
 *     without remote devices.
 * MPI is initialised here, with MPI_THREAD_MULTIPLE, unless the program
 * did it first (then it must have asked for MPI_THREAD_MULTIPLE).
 *
 * Waiting polls (a test, then a yield, then short sleeps): a blocking MPI
 * call spins a core for as long as it waits, which a machine running a
 * program and its servers on few cores cannot spare.  While it waits it
 * listens for the server's heartbeats (transport.h): a server silent for
 * the timeout is taken for dead, and every wait for it fails from then on.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devices/remote/mpi/polling.h"
#include "devices/remote/transport.h"

/* Bytes of one MPI message at most (its counts are ints). */
#define PIECE MOSAIC_REMOTE_PIECE

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Comm servers = MPI_COMM_NULL; /* the intercommunicator: the servers are its remote group */
static int num_servers;
static bool initialised_here;
static bool launched; /* the servers are the launcher's (MPI_Comm_free, not disconnect, at the end) */
static atomic_bool stopped;

/* What is known of each server's life (num_servers of them). */
typedef struct liveness {
    _Atomic uint64_t heard_us; /* when a heartbeat of it was last taken (mosaic_poll_now_us) */
    atomic_bool dead;          /* silent for the timeout: given up on */
} liveness;
static liveness *life;
static atomic_uint timeout_s = 5;
/* How often a wait looks for heartbeats: a probe for them costs a little,
 * and the timeout is seconds. */
#define LISTEN_EVERY_US 50000

/* Microseconds a wait tests without a pause: about MPI's own round trip
 * between a program and the process it spawned on the same machine
 * (measured: 25 us with blocking calls; 2 us within one job), short
 * because the program's other threads, and on a shared machine the
 * server's, need the core. */
#define SPIN_US 20

/* Takes the heartbeats of `server` that came off MPI's queue: true when
 * there were any. */
static bool take_heartbeats(int server)
{
    bool any = false;
    for (;;) {
        int found = 0;
        MPI_Message message;
        if (MPI_Improbe(server, MOSAIC_REMOTE_HEARTBEAT_TAG, servers, &found, &message, MPI_STATUS_IGNORE) !=
                MPI_SUCCESS ||
            !found)
            return any;
        char none;
        MPI_Mrecv(&none, 0, MPI_BYTE, &message, MPI_STATUS_IGNORE);
        any = true;
    }
}

/* Asked over and over by a wait for `server` that began at `since`
 * (*listened: when it last listened): false once the server has been heard
 * of neither since the wait began nor for the timeout, and from then on. */
static bool still_there(int server, uint64_t since, uint64_t *listened)
{
    liveness *l = &life[server];
    if (atomic_load(&l->dead))
        return false;
    uint64_t now = mosaic_poll_now_us();
    if (now - *listened < LISTEN_EVERY_US)
        return true;
    *listened = now;
    if (take_heartbeats(server))
        atomic_store(&l->heard_us, now);
    uint64_t heard = atomic_load(&l->heard_us);
    if (heard < since)
        heard = since;
    if (now - heard <= (uint64_t)atomic_load(&timeout_s) * 1000000u)
        return true;
    atomic_store(&l->dead, true);
    return false;
}

/* A request to a server given up on, taken back: a receive cancelled and
 * waited for a while (a part whose bytes had begun to come from a server
 * that died would never complete), then, like a send, left to MPI. */
static void take_back(MPI_Request *request, bool receiving)
{
    if (receiving && MPI_Cancel(request) == MPI_SUCCESS) {
        uint64_t started = mosaic_poll_now_us();
        while (mosaic_poll_now_us() - started < 100000) {
            int done = 0;
            if (MPI_Test(request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done)
                return;
            sched_yield();
        }
    }
    MPI_Request_free(request);
}

static int wait_for(int server, MPI_Request *request, bool receiving)
{
    uint64_t started = mosaic_poll_now_us(), listened = started;
    for (;;) {
        int done = 0;
        int rc = MPI_Test(request, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        if (done)
            return 0;
        if (atomic_load(&stopped) || !still_there(server, started, &listened)) {
            take_back(request, receiving);
            return -1;
        }
        mosaic_poll_pause_in_transfer(started);
    }
}

static bool usable(int server)
{
    return !atomic_load(&stopped) && servers != MPI_COMM_NULL && server >= 0 && server < num_servers &&
           !atomic_load(&life[server].dead);
}

/* size bytes at p to or from a server in pieces of PIECE, up to
 * MOSAIC_REMOTE_IN_FLIGHT of them posted at once (a message of 0 bytes is
 * one too); 0, else what failed, the pieces still posted taken back. */
static int pieces(int server, int tag, char *p, size_t size, bool receiving)
{
    MPI_Request r[MOSAIC_REMOTE_IN_FLIGHT];
    size_t next = 0;
    unsigned first = 0, posted = 0;
    bool any = false;
    int rc = 0;
    while (rc == 0 && (posted || !any || next < size)) {
        while (rc == 0 && posted < MOSAIC_REMOTE_IN_FLIGHT && (!any || next < size)) {
            size_t n = size - next < PIECE ? size - next : PIECE;
            MPI_Request *q = &r[(first + posted) % MOSAIC_REMOTE_IN_FLIGHT];
            rc = receiving ? MPI_Irecv(p + next, (int)n, MPI_BYTE, server, tag, servers, q)
                           : MPI_Isend(p + next, (int)n, MPI_BYTE, server, tag, servers, q);
            if (rc == MPI_SUCCESS)
                posted++, next += n, any = true;
        }
        if (rc == 0 && posted) {
            rc = wait_for(server, &r[first], receiving); /* (on failure it took that one back) */
            first = (first + 1) % MOSAIC_REMOTE_IN_FLIGHT;
            posted--;
        }
    }
    for (; rc != 0 && posted; posted--, first = (first + 1) % MOSAIC_REMOTE_IN_FLIGHT)
        take_back(&r[first], receiving);
    return rc;
}

static int transport_send(int server, int tag, const void *data, size_t size)
{
    return usable(server) ? pieces(server, tag, (char *)data, size, false) : -1;
}

static int transport_receive(int server, int tag, void **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    if (!usable(server))
        return -1;
    uint64_t started = mosaic_poll_now_us(), listened = started;
    MPI_Message message;
    MPI_Status status;
    for (;;) {
        int found = 0;
        int rc = MPI_Improbe(server, tag, servers, &found, &message, &status);
        if (rc != MPI_SUCCESS)
            return rc;
        if (found)
            break;
        if (atomic_load(&stopped) || !still_there(server, started, &listened))
            return -1;
        mosaic_poll_pause(started, SPIN_US);
    }
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    char *buffer = malloc(count > 0 ? (size_t)count : 1);
    if (!buffer) {
        char dropped;
        MPI_Mrecv(&dropped, 0, MPI_BYTE, &message, MPI_STATUS_IGNORE); /* truncated: an error, the message gone */
        return -1;
    }
    int rc = MPI_Mrecv(buffer, count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
        free(buffer);
        return rc;
    }
    *data = buffer;
    *size = (size_t)count;
    return 0;
}

static int transport_receive_into(int server, int tag, void *data, size_t size)
{
    return usable(server) ? pieces(server, tag, data, size, true) : -1;
}

/* Is any server given up on? */
static bool any_dead(void)
{
    for (int i = 0; life && i < num_servers; i++)
        if (atomic_load(&life[i].dead))
            return true;
    return false;
}

/* Tells each server to quit and lets go of them; once. */
static void shut_down(void)
{
    pthread_mutex_lock(&lock);
    if (servers != MPI_COMM_NULL && !atomic_load(&stopped)) {
        bool one_dead = any_dead();
        /* the quit message: empty, or one byte where a server died and the
         * servers must end without MPI_Finalize (at_exit) */
        char without_finalize = 1;
        for (int i = 0; i < num_servers; i++)
            if (!atomic_load(&life[i].dead))
                MPI_Send(&without_finalize, launched && one_dead ? 1 : 0, MPI_BYTE, i, 0, servers);
        atomic_store(&stopped, true);
        /* a disconnect waits for every server, a dead one too: then only
         * this side lets go (the world ends at MPI_Finalize, all of it
         * together, where the servers were the launcher's) */
        if (launched || one_dead)
            MPI_Comm_free(&servers);
        else
            MPI_Comm_disconnect(&servers);
        servers = MPI_COMM_NULL;
    }
    atomic_store(&stopped, true);
    pthread_mutex_unlock(&lock);
}

/* Called at the start of MPI_Finalize (attributes of MPI_COMM_SELF are
 * deleted first): the servers must be gone before the program's MPI is. */
static int at_finalize(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)value, (void)extra;
    shut_down();
    return MPI_SUCCESS;
}

static void at_exit(void)
{
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized)
        return;
    /* MPI_Finalize waits for every process of the world, a dead server
     * too, where the launcher started them beside the program: this
     * process, and the servers (told by their quit message), end without */
    if (launched && any_dead()) {
        shut_down();
        return;
    }
    if (initialised_here)
        MPI_Finalize(); /* (at_finalize shuts the servers down) */
    else
        shut_down();
}

/* The servers the launcher started in this process's MPI_COMM_WORLD: each
 * process of the world calls this once (mosaic-server's server_mpi_start
 * is the other half), collectively.  Returns how many there are, with
 * *inter the intercommunicator to them; 0 when the world holds none (then
 * nothing is made, and every program process spawns its own); -1, with
 * why, when they cannot be used from this process. */
static int join_launched_servers(MPI_Comm *inter, char *why, size_t why_size)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* the first program rank and the first server rank, the world's lowest of each */
    int mine[2] = {rank, INT_MAX}, first[2];
    if (MPI_Allreduce(mine, first, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS || first[1] == INT_MAX)
        return 0;
    MPI_Comm programs = MPI_COMM_NULL;
    if (MPI_Comm_split(MPI_COMM_WORLD, MOSAIC_REMOTE_SIDE_PROGRAM, rank, &programs) != MPI_SUCCESS ||
        MPI_Intercomm_create(programs, 0, MPI_COMM_WORLD, first[1], MOSAIC_REMOTE_JOIN_TAG, inter) != MPI_SUCCESS) {
        snprintf(why, why_size, "the servers started beside this program could not be joined");
        return -1;
    }
    MPI_Comm_free(&programs);
    int count = 0;
    MPI_Comm_remote_size(*inter, &count);
    if (rank != first[0]) { /* the servers serve the first program process */
        snprintf(why, why_size, "servers started by the launcher serve the program's first process (rank %d) "
                 "only; this is rank %d", first[0], rank);
        MPI_Comm_free(inter);
        return -1;
    }
    launched = true;
    return count;
}

/* The servers spawned (MPI_Comm_spawn) as a job of their own: how many, with
 * *inter the intercommunicator to them, or 0 with why. */
static int spawn_servers(const char *server_path, int count, MPI_Comm *inter, char *why, size_t why_size)
{
    int *errors = calloc((size_t)count, sizeof *errors);
    int rc = errors ? MPI_Comm_spawn(server_path, MPI_ARGV_NULL, count, MPI_INFO_NULL, 0, MPI_COMM_SELF, inter,
                                     errors)
                    : MPI_ERR_NO_MEM;
    free(errors);
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING] = "";
        int len = 0;
        MPI_Error_string(rc, text, &len);
        snprintf(why, why_size, "MPI_Comm_spawn of %d %s failed: %s", count, server_path, text);
        return 0;
    }
    int started = 0;
    MPI_Comm_remote_size(*inter, &started);
    return started;
}

static int transport_start(const char *server_path, int count, char *why, size_t why_size)
{
    pthread_mutex_lock(&lock);
    int started = 0;
    int initialized = 0, finalized = 0, provided = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (finalized) {
        snprintf(why, why_size, "MPI was finalised already");
        goto done;
    }
    if (!initialized) {
        /* MPI's hwloc would list OpenCL devices, loading Mosaic again from
         * inside this very start: not needed to place processes */
        setenv("HWLOC_COMPONENTS", "-opencl", 0);
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
            snprintf(why, why_size, "MPI_Init_thread failed");
            goto done;
        }
        initialised_here = true;
        atexit(at_exit); /* (finalised at exit whether or not servers come) */
    }
    MPI_Query_thread(&provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        snprintf(why, why_size, "MPI was initialised without MPI_THREAD_MULTIPLE (the level is %d); a program that "
                 "uses MPI must ask for it before its first OpenCL call", provided);
        goto done;
    }
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm inter = MPI_COMM_NULL;
    int world = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    /* servers beside the program: only where MPI_COMM_WORLD is Mosaic's (a
     * program that initialised MPI itself keeps its world to itself) */
    started = initialised_here && world > 1 ? join_launched_servers(&inter, why, why_size) : 0;
    if (started == 0)
        started = spawn_servers(server_path, count, &inter, why, why_size);
    if (started <= 0) {
        started = 0;
        goto done;
    }
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    life = calloc((size_t)started, sizeof *life);
    if (!life) {
        snprintf(why, why_size, "no memory");
        MPI_Comm_free(&inter);
        started = 0;
        goto done;
    }
    servers = inter;
    num_servers = started;
    int key;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &key, NULL) == MPI_SUCCESS)
        MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
    if (!initialised_here)
        atexit(at_exit);
done:
    pthread_mutex_unlock(&lock);
    return started;
}

static void transport_set_timeout(unsigned seconds)
{
    atomic_store(&timeout_s, seconds ? seconds : 1);
}

static const mosaic_transport transport = {
    .version = MOSAIC_TRANSPORT_VERSION,
    .start = transport_start,
    .send = transport_send,
    .receive = transport_receive,
    .receive_into = transport_receive_into,
    .set_timeout = transport_set_timeout,
    .stop = shut_down,
};

__attribute__((visibility("default"))) const mosaic_transport *mosaic_transport_mpi(void)
{
    return &transport;
}
