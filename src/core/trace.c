/*
 * The timeline writer (trace.h, docs/trace.md).
 *
 * Recording must stay cheap where it happens (a worker between work-groups,
 * a thread completing a command), so it only copies a fixed-size record into
 * a buffer of the calling thread: no lock, no formatting.  The owner is the
 * only thread that writes records into its buffer; it publishes each with a
 * release store of `count`.  Whoever holds `lock` may turn a buffer's
 * published records into JSON (from `flushed` to `count`); only the owner,
 * holding `lock`, starts its buffer again from 0 (when it is full).
 *
 * The file is a JSON object {"traceEvents": [...]}.  After each complete
 * flush (the last context destroyed, exit) it ends with the closing
 * brackets, and the write position is put back before them, so events that
 * come later overwrite them and the next complete flush closes it again.
 *
 * Tracks (thread ids in the JSON): a CPU worker is its thread id; a queue's
 * lane is QUEUE_TID + its number * MAX_LANES + the lane (above any Linux
 * thread id).
 */
#define _GNU_SOURCE
#include "core/trace.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/ndrange.h"
#include "core/util.h"
#include "base/assert.h"
#include "base/settings.h"
#include "base/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool mosaic_trace_on;

enum {
    BUFFER_RECORDS = 1024,       /* per thread: about 200 KiB */
    MAX_LANES = 1024,            /* per queue; more commands at once share the last lane */
    QUEUE_TID = 0x40000000,      /* above Linux's largest thread id (2^22) */
};

enum record_kind { COMMAND, WORK, THREAD_NAME, QUEUE_NAME };

typedef struct record {
    enum record_kind kind;
    pid_t tid;                   /* WORK, THREAD_NAME: the recording thread */
    unsigned queue;              /* COMMAND, QUEUE_NAME: the queue's number */
    int lane;                    /* COMMAND */
    int sort_index;              /* THREAD_NAME */
    cl_command_type type;        /* COMMAND, WORK */
    cl_int status;               /* COMMAND */
    uint64_t command;            /* COMMAND, WORK: the command's number (0: enqueued by a kernel) */
    uint64_t t[4];               /* COMMAND: queued, submitted, start, end; WORK: begin, end (ns) */
    size_t bytes;                /* COMMAND: bytes moved or filled, 0 if none */
    size_t first, end;           /* WORK: work-groups [first, end) */
    cl_uint dims;                /* COMMAND, a kernel: its NDRange */
    size_t global[3], local[3], groups;
    char name[64];               /* the kernel's, a thread's or a queue's name; "" for other commands */
} record;

typedef struct buffer {
    struct buffer *next;         /* in `buffers` (under lock) */
    atomic_size_t count;         /* records written by the owner */
    size_t flushed;              /* records already in the file (under lock) */
    record records[BUFFER_RECORDS];
} buffer;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* a leaf: docs/architecture.md, "Locks" */
static FILE *file;               /* under lock, as everything below */
static buffer *buffers;
static bool closed;              /* the exit handler wrote the end: nothing more is written */
static bool forked;              /* this process is a fork()ed child: its parent writes the file */
static size_t events;            /* events written so far (a comma goes before every later one) */
static uint16_t *lanes_named;    /* per queue number: the lanes whose track has a name */
static size_t lanes_named_size;
static pid_t pid;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key; /* its destructor writes an exiting thread's buffer */
static __thread buffer *mine;
static __thread pid_t my_tid;    /* gettid() is a system call: asked once per thread */
static atomic_uint contexts;
static atomic_uint queue_ids;
static atomic_uint_fast64_t command_ids;
static atomic_int recording;     /* commands complete whose record is not in a buffer yet */

/* ---- JSON ---------------------------------------------------------------- */

static void put_string(const char *s)
{
    mosaic_strbuf json = {0};
    mosaic_strbuf_json_string(&json, s);
    if (json.data)
        fwrite(json.data, 1, json.len, file);
    mosaic_strbuf_free(&json);
}

/* Microseconds (the format's unit) with the clock's nanoseconds kept. */
static void put_us(uint64_t ns)
{
    fprintf(file, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* Starts an event: the comma before it, and the fields every event has. */
static void begin_event(const char *name, const char *ph, long tid)
{
    fputs(events++ ? ",\n{" : "\n{", file);
    fputs("\"name\":", file);
    put_string(name);
    fprintf(file, ",\"ph\":\"%s\",\"pid\":%ld,\"tid\":%ld", ph, (long)pid, tid);
}

static void put_track_name(long tid, const char *name, long sort_index)
{
    begin_event("thread_name", "M", tid);
    fputs(",\"args\":{\"name\":", file);
    put_string(name);
    fputs("}}", file);
    begin_event("thread_sort_index", "M", tid);
    fprintf(file, ",\"args\":{\"sort_index\":%ld}}", sort_index);
}

static long queue_tid(unsigned queue, int lane)
{
    return QUEUE_TID + (long)(queue % (1u << 20)) * MAX_LANES + lane;
}

const char *mosaic_command_type_name(cl_command_type type)
{
    switch (type) {
    case CL_COMMAND_NDRANGE_KERNEL: return "kernel";
    case CL_COMMAND_TASK: return "task";
    case CL_COMMAND_NATIVE_KERNEL: return "native kernel";
    case CL_COMMAND_READ_BUFFER: return "read buffer";
    case CL_COMMAND_WRITE_BUFFER: return "write buffer";
    case CL_COMMAND_COPY_BUFFER: return "copy buffer";
    case CL_COMMAND_READ_BUFFER_RECT: return "read buffer rect";
    case CL_COMMAND_WRITE_BUFFER_RECT: return "write buffer rect";
    case CL_COMMAND_COPY_BUFFER_RECT: return "copy buffer rect";
    case CL_COMMAND_FILL_BUFFER: return "fill buffer";
    case CL_COMMAND_READ_IMAGE: return "read image";
    case CL_COMMAND_WRITE_IMAGE: return "write image";
    case CL_COMMAND_COPY_IMAGE: return "copy image";
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER: return "copy image to buffer";
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE: return "copy buffer to image";
    case CL_COMMAND_FILL_IMAGE: return "fill image";
    case CL_COMMAND_MAP_BUFFER: return "map buffer";
    case CL_COMMAND_MAP_IMAGE: return "map image";
    case CL_COMMAND_UNMAP_MEM_OBJECT: return "unmap";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS: return "migrate";
    case CL_COMMAND_MARKER: return "marker";
    case CL_COMMAND_BARRIER: return "barrier";
    case CL_COMMAND_SVM_FREE: return "svm free";
    case CL_COMMAND_SVM_MEMCPY: return "svm memcpy";
    case CL_COMMAND_SVM_MEMFILL: return "svm memfill";
    case CL_COMMAND_SVM_MAP: return "svm map";
    case CL_COMMAND_SVM_UNMAP: return "svm unmap";
    case CL_COMMAND_SVM_MIGRATE_MEM: return "svm migrate";
    case CL_COMMAND_MEMCPY_INTEL: return "usm memcpy";
    case CL_COMMAND_MEMFILL_INTEL: return "usm memfill";
    case CL_COMMAND_MIGRATEMEM_INTEL: return "usm migrate";
    case CL_COMMAND_MEMADVISE_INTEL: return "usm advise";
    default: return "command";
    }
}

/* The queue's lanes after the first get their track's name when their first
 * command is written (only commands that overlap, on out-of-order queues,
 * need them).  Under lock. */
static void name_lane(unsigned queue, int lane)
{
    if (lane == 0)
        return; /* named by the queue's QUEUE_NAME record */
    if (queue >= lanes_named_size) {
        size_t size = (queue + 1) * 2;
        uint16_t *grown = realloc(lanes_named, size * sizeof *grown);
        if (!grown)
            return;
        memset(grown + lanes_named_size, 0, (size - lanes_named_size) * sizeof *grown);
        lanes_named = grown;
        lanes_named_size = size;
    }
    for (int l = lanes_named[queue] + 1; l <= lane; l++) {
        char name[64];
        snprintf(name, sizeof name, "queue %u, lane %d", queue, l + 1);
        put_track_name(queue_tid(queue, l), name, (long)queue * MAX_LANES + l);
    }
    if (lanes_named[queue] < lane)
        lanes_named[queue] = (uint16_t)lane;
}

/* Under lock.  A command: its run as a complete event on its queue's lane,
 * and its waits (queued to submitted: its dependencies; submitted to
 * started: a worker to run it) as async events, one name per queue, which
 * the viewers stack under that name. */
static void put_command(const record *r)
{
    const char *name = r->name[0] ? r->name : mosaic_command_type_name(r->type);
    long tid = queue_tid(r->queue, r->lane);
    name_lane(r->queue, r->lane);
    begin_event(name, "X", tid);
    fputs(",\"cat\":\"command\",\"ts\":", file);
    put_us(r->t[2]);
    fputs(",\"dur\":", file);
    put_us(r->t[3] - r->t[2]);
    fprintf(file, ",\"args\":{\"command\":%" PRIu64 ",\"queue\":%u,\"type\":\"%s\",\"status\":", r->command,
            r->queue, mosaic_command_type_name(r->type));
    if (r->status == CL_COMPLETE)
        fputs("\"complete\"", file);
    else
        fprintf(file, "%d", (int)r->status);
    static const char *const times[4] = { "queued", "submitted", "start", "end" };
    for (int i = 0; i < 4; i++) {
        fprintf(file, ",\"%s\":", times[i]);
        put_us(r->t[i]);
    }
    if (r->bytes)
        fprintf(file, ",\"bytes\":%zu", r->bytes);
    if (r->dims) {
        fputs(",\"global\":[", file);
        for (cl_uint d = 0; d < r->dims; d++)
            fprintf(file, "%s%zu", d ? "," : "", r->global[d]);
        fputs("],\"local\":[", file);
        for (cl_uint d = 0; d < r->dims; d++)
            fprintf(file, "%s%zu", d ? "," : "", r->local[d]);
        fprintf(file, "],\"work_groups\":%zu", r->groups);
    }
    fputs("}}", file);

    static const char *const waits[2] = { "queued", "submitted" };
    for (int i = 0; i < 2; i++) {
        char wait[48];
        snprintf(wait, sizeof wait, "queue %u %s", r->queue, waits[i]);
        begin_event(wait, "b", tid);
        fprintf(file, ",\"cat\":\"wait\",\"id\":\"0x%" PRIx64 "\",\"ts\":", r->command);
        put_us(r->t[i]);
        fprintf(file, ",\"args\":{\"command\":%" PRIu64 ",\"name\":", r->command);
        put_string(name);
        fputs("}}", file);
        begin_event(wait, "e", tid);
        fprintf(file, ",\"cat\":\"wait\",\"id\":\"0x%" PRIx64 "\",\"ts\":", r->command);
        put_us(r->t[i + 1]);
        fputs("}", file);
    }
}

static void put_record(const record *r)
{
    switch (r->kind) {
    case COMMAND:
        put_command(r);
        break;
    case WORK:
        begin_event(r->name[0] ? r->name : mosaic_command_type_name(r->type), "X", r->tid);
        fprintf(file, ",\"cat\":\"%s\",\"ts\":", r->name[0] ? "work-groups" : "work");
        put_us(r->t[0]);
        fputs(",\"dur\":", file);
        put_us(r->t[1] - r->t[0]);
        fprintf(file, ",\"args\":{\"command\":%" PRIu64, r->command);
        if (r->name[0])
            fprintf(file, ",\"first_group\":%zu,\"end_group\":%zu", r->first, r->end);
        else if (r->end > r->first) /* a large transfer's parts (cpu_memory.c) */
            fprintf(file, ",\"first_part\":%zu,\"end_part\":%zu", r->first, r->end);
        fputs("}}", file);
        break;
    case THREAD_NAME:
        put_track_name(r->tid, r->name, r->sort_index);
        break;
    case QUEUE_NAME:
        put_track_name(queue_tid(r->queue, 0), r->name, (long)r->queue * MAX_LANES);
        break;
    }
}

/* ---- buffers ------------------------------------------------------------- */

/* Under lock: writes the records of b not in the file yet. */
static void write_buffer(buffer *b)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&lock));
    size_t count = atomic_load_explicit(&b->count, memory_order_acquire);
    if (file && !closed)
        for (size_t i = b->flushed; i < count; i++)
            put_record(&b->records[i]);
    b->flushed = count;
}

/* Under lock: every buffer, then the end of the JSON; the next events
 * overwrite that end. */
static void write_all(void)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&lock));
    for (buffer *b = buffers; b; b = b->next)
        write_buffer(b);
    if (!file || closed)
        return;
    long end = ftell(file);
    fputs("\n],\"otherData\":{\"writer\":\"Mosaic (MOSAIC_TRACE)\"}}\n", file);
    if (fflush(file) != 0)
        fprintf(stderr, "mosaic: MOSAIC_TRACE: cannot write the trace: %s\n", strerror(errno));
    if (end >= 0)
        fseek(file, end, SEEK_SET);
}

/* A thread ends: its records go to the file and its buffer is freed. */
static void thread_exit(void *p)
{
    buffer *b = p;
    if (forked)
        return; /* the buffer is the parent's copy; this one's lock may be held */
    pthread_mutex_lock(&lock);
    write_buffer(b);
    for (buffer **link = &buffers; *link; link = &(*link)->next)
        if (*link == b) {
            *link = b->next;
            break;
        }
    pthread_mutex_unlock(&lock);
    free(b);
    mine = NULL;
}

static buffer *new_buffer(void)
{
    buffer *b = malloc(sizeof *b);
    if (!b)
        return NULL; /* out of memory: this thread's records are lost */
    atomic_init(&b->count, 0);
    b->flushed = 0;
    pthread_mutex_lock(&lock);
    b->next = buffers;
    buffers = b;
    pthread_mutex_unlock(&lock);
    pthread_setspecific(thread_key, b);
    return mine = b;
}

static void append(const record *r)
{
    if (!mosaic_trace_on) /* a forked child completing its parent's commands */
        return;
    buffer *b = mine ? mine : new_buffer();
    if (!b)
        return;
    size_t n = atomic_load_explicit(&b->count, memory_order_relaxed);
    if (n == BUFFER_RECORDS) { /* full: into the file, and start again */
        pthread_mutex_lock(&lock);
        write_buffer(b);
        b->flushed = 0;
        atomic_store_explicit(&b->count, 0, memory_order_relaxed);
        pthread_mutex_unlock(&lock);
        n = 0;
    }
    b->records[n] = *r;
    atomic_store_explicit(&b->count, n + 1, memory_order_release);
}

/* ---- the file's life ------------------------------------------------------ */

static void at_exit(void)
{
    if (forked)
        return; /* the parent writes the file (and this copy of the lock may be held) */
    /* Commands that completed just before exit: their records are on their
     * way (a second at most: a thread may have died meanwhile). */
    for (int i = 0; i < 1000 && atomic_load_explicit(&recording, memory_order_acquire) > 0; i++)
        usleep(1000);
    pthread_mutex_lock(&lock);
    if (!closed) {
        write_all();
        closed = true; /* workers still running must not write after the end */
        if (file)
            fclose(file);
        file = NULL;
    }
    pthread_mutex_unlock(&lock);
}

static void in_forked_child(void)
{
    mosaic_trace_on = false;
    forked = true;
}

/* The trace file, created or emptied: a regular file only, since the
 * closing brackets are written over by later events (a FIFO, a terminal or
 * a device cannot take that), and opening a FIFO for writing would wait for
 * a reader inside the application's first OpenCL call.  A path that is no
 * regular file is not opened (opening a device may do something); one that
 * becomes one meanwhile is opened without waiting (O_NONBLOCK: a FIFO with
 * no reader fails at once) and let go.  NULL after one warning. */
static FILE *open_regular(const char *path)
{
    static const char *const no_trace = "MOSAIC_TRACE takes a regular file; no trace is written";
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(stderr, "mosaic: MOSAIC_TRACE: %s is not a regular file (%s); %s\n", path,
                S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory" : "a device or socket", no_trace);
        return NULL;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd < 0) {
        fprintf(stderr, "mosaic: MOSAIC_TRACE: cannot open %s: %s; no trace is written\n", path,
                errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        fprintf(stderr, "mosaic: MOSAIC_TRACE: %s is not a regular file; %s\n", path, no_trace);
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        fprintf(stderr, "mosaic: MOSAIC_TRACE: cannot open %s: %s; no trace is written\n", path, strerror(errno));
        close(fd);
    }
    return f;
}

static void open_trace(void)
{
    const char *path = mosaic_settings()->trace;
    if (!path)
        return;
    file = open_regular(path);
    if (!file)
        return;
    if (pthread_key_create(&thread_key, thread_exit) != 0) {
        fclose(file);
        file = NULL;
        fprintf(stderr, "mosaic: MOSAIC_TRACE: no thread-specific key left; no trace is written\n");
        return;
    }
    pid = getpid();
    fputs("{\"traceEvents\":[", file);
    begin_event("process_name", "M", 0);
    fputs(",\"args\":{\"name\":\"Mosaic\"}}", file);
    atexit(at_exit);
    pthread_atfork(NULL, NULL, in_forked_child);
    mosaic_trace_on = true;
}

void mosaic_trace_context_created(void)
{
    pthread_once(&once, open_trace);
    atomic_fetch_add(&contexts, 1);
}

void mosaic_trace_context_destroyed(void)
{
    if (atomic_fetch_sub(&contexts, 1) != 1 || !mosaic_trace_on)
        return;
    pthread_mutex_lock(&lock);
    write_all();
    pthread_mutex_unlock(&lock);
}

/* ---- what is recorded ---------------------------------------------------- */

void mosaic_trace_queue_created(cl_command_queue q)
{
    q->trace_id = atomic_fetch_add(&queue_ids, 1) + 1;
    record r = { .kind = QUEUE_NAME, .queue = q->trace_id };
    snprintf(r.name, sizeof r.name, "queue %u (%s%s)", q->trace_id,
             q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE ? "out-of-order" : "in-order",
             q->properties & CL_QUEUE_PROFILING_ENABLE ? ", profiling" : "");
    append(&r);
}

void mosaic_trace_queue_destroyed(cl_command_queue q)
{
    free(q->trace_lane_end);
    q->trace_lane_end = NULL;
}

uint64_t mosaic_trace_command_id(void)
{
    return atomic_fetch_add_explicit(&command_ids, 1, memory_order_relaxed) + 1;
}

void mosaic_trace_start_locked(cl_event e)
{
    MOSAIC_ASSERT(mosaic_engine_lock_held());
    cl_command_queue q = e->queue;
    unsigned lane = 0;
    while (lane < q->trace_num_lanes && q->trace_lane_end[lane] > e->time_start)
        lane++;
    if (lane == q->trace_num_lanes) {
        uint64_t *grown = lane < MAX_LANES ? realloc(q->trace_lane_end, (lane + 1) * sizeof *grown) : NULL;
        if (grown) {
            q->trace_lane_end = grown;
            q->trace_num_lanes++;
        } else if (lane > 0) {
            lane--; /* shares the last lane (too many at once, or no memory) */
        }
    }
    if (lane < q->trace_num_lanes)
        q->trace_lane_end[lane] = UINT64_MAX;
    e->trace_lane = (int)lane;
}

void mosaic_trace_complete_locked(cl_event e)
{
    MOSAIC_ASSERT(mosaic_engine_lock_held());
    if (e->trace_lane < 0)
        mosaic_trace_start_locked(e);
    cl_command_queue q = e->queue;
    if ((unsigned)e->trace_lane < q->trace_num_lanes)
        q->trace_lane_end[e->trace_lane] = e->time_end;
    /* A thread waiting for the command may see it complete, and exit, before
     * its record is in a buffer: the exit handler waits for it. */
    atomic_fetch_add_explicit(&recording, 1, memory_order_relaxed);
}

static pid_t thread_id(void)
{
    if (!my_tid)
        my_tid = gettid();
    return my_tid;
}

static void copy_name(char *to, size_t size, const char *name)
{
    snprintf(to, size, "%s", name ? name : "");
}

void mosaic_trace_command(cl_event e)
{
    record r = {
        .kind = COMMAND,
        .queue = e->queue->trace_id,
        .lane = e->trace_lane < 0 ? 0 : e->trace_lane,
        .type = e->command_type,
        .status = e->status,
        .command = e->trace_id,
        .t = { e->time_queued, e->time_submit, e->time_start, e->time_end },
    };
    const void *p = e->payload;
    switch (p ? e->command_type : 0) {
    case CL_COMMAND_NDRANGE_KERNEL:
    case CL_COMMAND_TASK: {
        const mosaic_ndrange *nd = p;
        copy_name(r.name, sizeof r.name, nd->info ? nd->info->name : NULL);
        r.dims = nd->work_dim < 1 ? 1 : nd->work_dim > 3 ? 3 : nd->work_dim;
        memcpy(r.global, nd->global_size, sizeof r.global);
        memcpy(r.local, nd->local_size, sizeof r.local);
        r.groups = nd->total_groups;
        break;
    }
    case CL_COMMAND_READ_BUFFER: case CL_COMMAND_WRITE_BUFFER: case CL_COMMAND_COPY_BUFFER:
    case CL_COMMAND_READ_BUFFER_RECT: case CL_COMMAND_WRITE_BUFFER_RECT: case CL_COMMAND_COPY_BUFFER_RECT:
    case CL_COMMAND_READ_IMAGE: case CL_COMMAND_WRITE_IMAGE: case CL_COMMAND_COPY_IMAGE:
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER: case CL_COMMAND_COPY_BUFFER_TO_IMAGE: {
        const mosaic_transfer *t = p;
        r.bytes = t->region[0] * t->region[1] * t->region[2];
        break;
    }
    case CL_COMMAND_FILL_BUFFER:
        r.bytes = ((const mosaic_fill *)p)->size;
        break;
    case CL_COMMAND_FILL_IMAGE: {
        const mosaic_fill_rect *f = p;
        r.bytes = f->region[0] * f->region[1] * f->region[2];
        break;
    }
    case CL_COMMAND_MAP_BUFFER: case CL_COMMAND_MAP_IMAGE: case CL_COMMAND_UNMAP_MEM_OBJECT:
        r.bytes = ((const mosaic_map *)p)->size;
        break;
    case CL_COMMAND_SVM_MEMCPY: case CL_COMMAND_MEMCPY_INTEL:
        r.bytes = ((const mosaic_svm_copy *)p)->size;
        break;
    case CL_COMMAND_SVM_MEMFILL: case CL_COMMAND_MEMFILL_INTEL:
        r.bytes = ((const mosaic_svm_fill *)p)->size;
        break;
    case CL_COMMAND_SVM_MAP: case CL_COMMAND_SVM_UNMAP:
        r.bytes = ((const mosaic_svm_region *)p)->size;
        break;
    default:
        break;
    }
    append(&r);
    atomic_fetch_sub_explicit(&recording, 1, memory_order_release);
}

void mosaic_trace_thread_name(const char *name, int sort_index)
{
    record r = { .kind = THREAD_NAME, .tid = thread_id(), .sort_index = sort_index };
    copy_name(r.name, sizeof r.name, name);
    append(&r);
}

void mosaic_trace_work(uint64_t command, cl_command_type type, const char *name, size_t first, size_t end,
                       uint64_t begin_ns, uint64_t end_ns)
{
    record r = { .kind = WORK, .tid = thread_id(), .type = type, .command = command, .t = { begin_ns, end_ns },
                 .first = first, .end = end };
    copy_name(r.name, sizeof r.name, name);
    append(&r);
}
