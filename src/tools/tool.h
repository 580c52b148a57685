/*
 * The `mosaic` command (docs/mosaic-command.md): what a person or a script
 * asks of an installed Mosaic.  It sits above the library: it calls the
 * OpenCL API of the libmosaic.so it is linked with (not the ICD loader, so it
 * always describes the Mosaic beside it), and reads two small internal
 * headers that need no more than the C library: the settings module
 * (src/base/settings.c is compiled into the command, so it reads the
 * environment exactly as the library does) and the kernel cache's layout
 * (src/compiler/cache/cache_layout.h).
 *
 * Exit status of every command: 0 done, 1 failed, 2 bad usage.
 */
#ifndef MOSAIC_TOOLS_TOOL_H
#define MOSAIC_TOOLS_TOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/cache/cache_layout.h"
#include "output.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* Prints "mosaic: <message>" on stderr. */
void tool_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* ---- mosaic check (check.c) ---- */
int check_command(int argc, char **argv);

/* ---- mosaic info (info.c) ---- */
int info_command(bool json);

/* ---- mosaic cache (cache.c) ---- */

/* Where Mosaic keeps its kernel cache in this environment. */
typedef struct cache_place {
    const char *dir; /* NULL: no cache */
    const char *why; /* the setting that chose dir, or why there is none */
} cache_place;
void cache_place_find(cache_place *place);

/* What the directory holds, counted without changing it. */
typedef struct cache_count {
    bool exists;                /* the directory is there */
    const char *refused;        /* why Mosaic would not use it, or NULL */
    uint64_t entries[MC_CACHE_NUM_KINDS], bytes[MC_CACHE_NUM_KINDS];
    uint64_t total_entries, total_bytes;
    uint64_t being_written;     /* temporary files of writers */
    uint64_t others;            /* files that are not Mosaic's (left alone) */
} cache_count;
void cache_count_dir(const char *dir, cache_count *count);

/* The cache's section of `mosaic info` and `mosaic cache stats`. */
void cache_report(out *o, const cache_place *place, const cache_count *count);

/* mosaic cache stats|clear */
int cache_command(const char *action, bool json);

/* ---- mosaic bench (bench.c) ---- */

/* Runs the benchmark runner with these arguments (after `bench`); returns
 * only on failure. */
int bench_command(int argc, char **argv);

#endif
