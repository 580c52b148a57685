/*
 * One thread per process that runs builds beside the program (one_size.c's
 * builds for one local size), so that no launch waits for a build.
 *
 * Jobs run one at a time, in the order they came.  At process exit the
 * queue is dropped (each job's `drop` runs instead) and exit waits for the
 * job in progress, so that LLVM is not torn down under a running build (5
 * seconds at most: exit never hangs on a build).
 */
#ifndef MOSAIC_COMPILER_PIPELINE_BACKGROUND_H
#define MOSAIC_COMPILER_PIPELINE_BACKGROUND_H

#include <stdbool.h>

/* Queues run(arg) for the background thread; drop(arg) runs instead when
 * the job will not run (process exit).  false (nothing queued, neither
 * function called): no thread or no memory for the job. */
bool mc_background_run(void (*run)(void *arg), void (*drop)(void *arg), void *arg);
/* On the program's main thread (a no-op elsewhere): that exit waits for the
 * job in progress before anything else it runs (background.c).  Called
 * where a program may come to build in the background, on the thread that
 * builds it, since the jobs may be queued from other threads. */
void mc_background_prepare(void);

#endif
