/* The protocol between the host and the compiler's fork server
 * (fork_server_preload.c runs in the compiler, fork_server.c in the host).
 *
 * The host makes a socket pair (SOCK_SEQPACKET) and starts the compiler with
 * one end as MC_FORK_SERVER_FD_VARIABLE; the server sends
 * MC_FORK_SERVER_READY once.  A build is one mc_fork_request on that socket
 * with MC_FORK_REQUEST_FDS descriptors.  The replies come on the request's
 * own socket (MC_FORK_REPLY): MC_FORK_ACCEPTED at once (a server that does
 * not answer is replaced), then MC_FORK_ENDED or MC_FORK_NOT_STARTED.  The
 * host's closing that socket stops the build. */
#ifndef MOSAIC_COMPILER_FORK_SERVER_H
#define MOSAIC_COMPILER_FORK_SERVER_H

#include <stdint.h>
#include <sys/types.h>

/* The server's library, found beside libmosaic.so (CMakeLists.txt builds it
 * there and installs the two together; `mosaic info` looks for it too). */
#define MC_FORK_SERVER_LIBRARY "libmosaic-fork-server.so"
#define MC_FORK_SERVER_FD_VARIABLE "MOSAIC_FORK_SERVER_FD"
#define MC_FORK_SERVER_READY 0x4d6f7332u /* "Mos2": this protocol's version */

enum { MC_FORK_REPLY, MC_FORK_STDIN, MC_FORK_OUTPUT, MC_FORK_REQUEST_FDS };

typedef struct mc_fork_request {
    uint64_t max_memory; /* RLIMIT_AS of the build; 0: none */
    char dir[4096];      /* its working directory */
} mc_fork_request;

enum { MC_FORK_ACCEPTED, MC_FORK_ENDED, MC_FORK_NOT_STARTED };

typedef struct mc_fork_reply {
    int32_t kind;   /* MC_FORK_ACCEPTED: the server has the request, the build starts next */
    int32_t error;  /* MC_FORK_NOT_STARTED: the errno */
    int32_t status; /* MC_FORK_ENDED: waitpid's */
} mc_fork_reply;

#endif
