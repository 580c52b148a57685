/*
 * What checking mode found (MOSAIC_CHECK, docs/check.md): each distinct
 * problem reported once per process, on stderr and, with
 * MOSAIC_CHECK_FILE, as a line of JSON appended to that file.  Devices
 * call it from their workers; it is thread-safe.
 */
#ifndef MOSAIC_CORE_CHECK_REPORT_H
#define MOSAIC_CORE_CHECK_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/compiler.h"

/* One access of a problem: where in the source, by whom, what it did. */
typedef struct mosaic_check_access {
    const mosaic_check_site *site; /* NULL: not known */
    uint64_t how;                  /* compiler.h, MOSAIC_CHECK_READ... */
    uint64_t bytes;
    size_t group[3], item[3];      /* the work-group and the local id */
    bool item_known;               /* false: one of several work-items */
} mosaic_check_access;

typedef struct mosaic_check_problem {
    unsigned kind;                 /* one MOSAIC_CHECK_* of base/settings.h */
    const char *kernel;
    const char *what;              /* one sentence: what was found */
    mosaic_check_access access;    /* the access (or barrier) found */
    mosaic_check_access other;     /* the earlier one it conflicts with; site NULL when none */
    const char *object;            /* what the address belongs to ("argument 0 (a), a buffer of 1024
                                      bytes"), or NULL */
    int64_t offset;                /* the access's byte offset in it */
    const char *source;            /* the program's source, to quote lines from, or NULL */
    uint64_t program;              /* tells programs apart (a hash of the source): sites of one
                                      freed may be another's addresses */
    bool between_commands;         /* two commands (what says which), no work-items: no accesses */
} mosaic_check_problem;

/* Reports p unless a problem of its program, kind, kernel and access at
 * the same sites was reported before; true when it was reported now. */
bool mosaic_check_report(const mosaic_check_problem *p);

#endif
