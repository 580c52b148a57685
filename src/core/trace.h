/*
 * The timeline: with MOSAIC_TRACE=file.json, every command (queued,
 * submitted, started, ended, per queue) and every CPU worker's work-group
 * chunks go to that file in the Chrome trace event format, which Perfetto
 * and chrome://tracing open (docs/trace.md says what is where).
 *
 * Whoever records something appends a fixed-size record to a buffer of its
 * own thread, without a lock; one writer turns records into JSON when a
 * buffer fills, when the last context goes and at exit.  The engine and the
 * devices call down into this module; it calls nothing above core.
 */
#ifndef MOSAIC_TRACE_H
#define MOSAIC_TRACE_H

#include "core/objects.h"

/* Whether a trace is being written.  Set once, when the first context is
 * created (so before any queue, command or worker exists), cleared only in a
 * forked child (which writes no trace): hot paths read it without a lock. */
extern bool mosaic_trace_on;

static inline bool mosaic_tracing(void) { return __builtin_expect(mosaic_trace_on, 0); }

/* Contexts (api/context.c): the first one opens the file (a file that cannot
 * be opened: one warning on stderr, no trace).  When the last one is
 * destroyed, everything recorded so far is written and the file is complete
 * JSON; an exit handler does the same at exit, for programs that never
 * release their objects. */
void mosaic_trace_context_created(void);
void mosaic_trace_context_destroyed(void);

/* A queue was created (api/queue.c, only while tracing): gives it its number
 * and records its name. */
void mosaic_trace_queue_created(cl_command_queue queue);
/* Frees a queue's lanes when it is destroyed. */
void mosaic_trace_queue_destroyed(cl_command_queue queue);

/* A number for a command, unique in the process (never 0). */
uint64_t mosaic_trace_command_id(void);

/* Under the engine lock, for a traced command: it starts (it takes the
 * first lane of its queue's track free at e->time_start, so commands that
 * overlap, on an out-of-order queue, never share a track), and it completes
 * (its lane is free from e->time_end; one is taken first if it never
 * started).  A completed command's record follows once the lock is released
 * (mosaic_trace_command); the exit handler waits for those announced here. */
void mosaic_trace_start_locked(cl_event e);
void mosaic_trace_complete_locked(cl_event e);

/* A traced command completed: records it.  With no lock held, before its
 * payload's cleanup (the kernel's name and the sizes come from there). */
void mosaic_trace_command(cl_event e);

/* The calling thread's track (a CPU worker's): its name, and a slice of work
 * on it from begin_ns to end_ns: work-groups [first, end) of a kernel (name:
 * the kernel's), parts [first, end) of a large transfer (name NULL), or a
 * whole command that is not a kernel (name NULL, first = end = 0).  `command` is the command's trace_id, 0 for a kernel
 * that a kernel enqueued. */
void mosaic_trace_thread_name(const char *name, int sort_index);
void mosaic_trace_work(uint64_t command, cl_command_type type, const char *name, size_t first, size_t end,
                       uint64_t begin_ns, uint64_t end_ns);

/* A command type's name as the timeline and checking mode write it ("write buffer"). */
const char *mosaic_command_type_name(cl_command_type type);

#endif
