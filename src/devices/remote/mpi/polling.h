/*
 * How the MPI transport and mosaic-server wait for MPI: they poll (a test,
 * then a yield, then short sleeps) rather than block, since a blocking MPI
 * call spins a core for as long as it waits, which a machine running a
 * program and its servers on few cores cannot spare.  Needs _GNU_SOURCE.
 */
#ifndef MOSAIC_REMOTE_MPI_POLLING_H
#define MOSAIC_REMOTE_MPI_POLLING_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t mosaic_poll_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

/* One round of waiting for a message that came `started`: nothing for
 * spin_us (an answer within a round trip costs no system call), then
 * yields up to 200 us, then sleeps, longer and longer up to 1 ms. */
static inline void mosaic_poll_pause(uint64_t started, uint64_t spin_us)
{
    uint64_t waited = mosaic_poll_now_us() - started;
    if (waited < spin_us)
        return;
    if (waited < 200) {
        sched_yield();
        return;
    }
    struct timespec t = {0, waited < 2000 ? 20000 : waited < 20000 ? 100000 : 1000000};
    nanosleep(&t, NULL);
}

/* A transfer in progress moves only while MPI is called (its parts, on
 * both sides): yield rather than sleep for its first 50 ms; past that the
 * other side is busy with something else (a long kernel), and sleeping
 * leaves it the core. */
static inline void mosaic_poll_pause_in_transfer(uint64_t started)
{
    if (mosaic_poll_now_us() - started < 50000) {
        sched_yield();
        return;
    }
    struct timespec t = {0, 200000};
    nanosleep(&t, NULL);
}

#endif
