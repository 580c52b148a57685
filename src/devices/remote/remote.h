/*
 * The remote device: a device of a mosaic-server, another process of the
 * program's MPI job (on this machine or another), offered in this
 * platform beside the local ones when MOSAIC_REMOTE=mpi (docs/remote.md).
 *
 *   remote_link.c     the transport (libmosaic-remote.so), the servers, calls to them
 *   remote_device.c   describe, the executor that runs each device's commands
 *   remote_memory.c   buffers on a server, transfers, fills, maps
 *   remote_program.c  programs built on the server, kernel launches
 *   remote_wire.c     the protocol's bytes (protocol.h), shared with src/server
 *   remote_measure.c  MPI's own bandwidth, the benchmark's baseline
 */
#ifndef MOSAIC_REMOTE_H
#define MOSAIC_REMOTE_H

#include "core/device.h"

extern const mosaic_device_ops mosaic_remote_ops;

/* How many remote devices the servers offer: 0 unless MOSAIC_REMOTE=mpi;
 * else starts the servers (MOSAIC_REMOTE_SERVERS of them) on the first
 * call and asks each what it has (with MOSAIC_DEBUG=device, stderr says
 * what went wrong, if anything).  Thread-safe. */
unsigned mosaic_remote_device_count(void);

/* Makes `device` (its object header initialised by the platform) remote
 * device number `index` (< mosaic_remote_device_count()) and describes it.
 * False when it cannot be made (the platform leaves it out). */
bool mosaic_remote_init_device(cl_device_id device, unsigned index);

/* MPI's own bandwidth over the remote devices' connections, for the
 * benchmark (tests/remote/bench_remote.c): the seconds size bytes take from
 * this process to a's server (seconds[0]), back (seconds[1]), and from a's
 * server to b's (seconds[2]; 0 when b is NULL or on the same server),
 * from and to scratch memory. */
cl_int mosaic_remote_measure_mpi(cl_device_id a, cl_device_id b, size_t size, double seconds[3]);

#endif
