/* Checking mode's races between commands (check_commands.h). */
#define _GNU_SOURCE
#include "core/check_commands.h"
#include "base/settings.h"
#include "core/check_report.h"
#include "core/coherence.h"
#include "core/ndrange.h"
#include "core/trace.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* What the running commands use: one entry per buffer a command uses (its
 * root buffer and bytes there). */
typedef struct running {
    cl_event command;
    cl_mem root;
    size_t offset, size;
    int mode;
} running;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static running *all;
static size_t count, room;

/* "kernel k" or "write buffer" */
static void describe(cl_event e, char *out, size_t size)
{
    if ((e->command_type == CL_COMMAND_NDRANGE_KERNEL || e->command_type == CL_COMMAND_TASK) && e->payload &&
        ((mosaic_ndrange *)e->payload)->info)
        snprintf(out, size, "kernel %s", ((mosaic_ndrange *)e->payload)->info->name);
    else
        snprintf(out, size, "%s", mosaic_command_type_name(e->command_type));
}

/* Code that runs on its own (a kernel, a native kernel) may order its
 * accesses against another's with atomics; a transfer, fill or map cannot. */
static bool runs_code(cl_event e)
{
    return e->command_type == CL_COMMAND_NDRANGE_KERNEL || e->command_type == CL_COMMAND_TASK ||
           e->command_type == CL_COMMAND_NATIVE_KERNEL;
}

static bool in_order(cl_command_queue q)
{
    return !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

static void report(cl_event later, const running *earlier, const mosaic_mem_access *a)
{
    char mine[160], theirs[160], what[512], object[96];
    describe(later, mine, sizeof mine);
    describe(earlier->command, theirs, sizeof theirs);
    snprintf(what, sizeof what, "a race between commands: %s (%s it) started while %s (%s it) was running, and "
             "nothing orders them (no event, in-order queue or barrier between them)",
             mine, a->mode & MOSAIC_ACCESS_WRITES ? "writing" : "reading", theirs,
             earlier->mode & MOSAIC_ACCESS_WRITES ? "writing" : "reading");
    snprintf(object, sizeof object, "a buffer of %zu bytes", earlier->root->size);
    mosaic_check_problem p = {0};
    p.kind = MOSAIC_CHECK_RACES;
    p.kernel = mine;
    p.what = what;
    p.between_commands = true;
    p.object = object;
    p.offset = (int64_t)(a->offset > earlier->offset ? a->offset : earlier->offset);
    mosaic_check_report(&p);
}

static cl_int check_and_add(cl_event command, const mosaic_mem_access *a, void *arg)
{
    (void)arg;
    cl_mem root = a->mem->parent ? a->mem->parent : a->mem;
    if (root->mem_type == CL_MEM_OBJECT_PIPE) /* (its packets are exchanged with atomics) */
        return CL_SUCCESS;
    mosaic_mem_access in_root = *a;
    in_root.offset += a->mem->parent ? a->mem->offset : 0;
    for (size_t i = 0; i < count; i++) {
        const running *r = &all[i];
        if (r->root != root || r->command == command || !((r->mode | a->mode) & MOSAIC_ACCESS_WRITES) ||
            r->offset >= in_root.offset + in_root.size || in_root.offset >= r->offset + r->size)
            continue;
        /* an in-order queue's commands are ordered, even when its device has the next before the last ended */
        if ((r->command->queue == command->queue && in_order(command->queue)) ||
            (runs_code(r->command) && runs_code(command)))
            continue;
        report(command, r, &in_root);
    }
    if (count == room) {
        size_t n = room ? 2 * room : 64;
        running *grown = realloc(all, n * sizeof *grown);
        if (!grown)
            return CL_SUCCESS; /* (not counted: it can only hide a race) */
        all = grown;
        room = n;
    }
    all[count++] = (running){command, root, in_root.offset, in_root.size, a->mode};
    return CL_SUCCESS;
}

void mosaic_check_commands_start(cl_event command)
{
    if (!command->queue || !command->payload)
        return;
    pthread_mutex_lock(&lock);
    mosaic_command_each_access(command, check_and_add, NULL);
    pthread_mutex_unlock(&lock);
}

void mosaic_check_commands_end(cl_event command)
{
    pthread_mutex_lock(&lock);
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (all[i].command != command)
            all[kept++] = all[i];
    count = kept;
    pthread_mutex_unlock(&lock);
}
