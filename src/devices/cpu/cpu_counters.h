/* A worker's private copies of a launch's counter arguments (cpu_counters.c;
 * src/compiler/workgroup/counter_args.c says which arguments are counters). */
#ifndef MOSAIC_CPU_COUNTERS_H
#define MOSAIC_CPU_COUNTERS_H

#include "core/ndrange.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cpu_counters {
    void **args;           /* the launch's args, the counters' pointing at slots[] */
    size_t args_cap;
    uint64_t slots[MOSAIC_MAX_COUNTERS]; /* the copies' addresses */
    char *copies;          /* the copies, each 64-byte aligned */
    size_t copies_cap;
} cpu_counters;

/* Whether a worker adds into copies of nd's counters, given the workers
 * that share its groups: when the launch has some, they are small, and
 * each worker runs several groups (else the copies cost what they save). */
bool mosaic_cpu_counters_pay(const mosaic_ndrange *nd, unsigned workers);
/* Zeroed copies of nd's counters and the args that point at them in
 * c->args; false when memory runs out (then the launch uses its own). */
bool mosaic_cpu_counters_begin(cpu_counters *c, const mosaic_ndrange *nd);
/* Adds the copies into nd's counters (atomically: other workers fold theirs
 * at the same time), before the worker's groups count as done. */
void mosaic_cpu_counters_fold(const cpu_counters *c, const mosaic_ndrange *nd);
void mosaic_cpu_counters_free(cpu_counters *c);

#endif
