/*
 * Every setting of Mosaic: the environment variables it reads, read once, at
 * the first call of mosaic_settings() (thread-safe), and nowhere else.
 * settings.def lists them, one row each (kind, default, bounds, field, and
 * the line the README's table gives it); the struct below is made of its
 * rows, and docs/settings.md explains each variable in full.
 *
 * src/base depends on the C library alone, so every layer (api, core,
 * devices, compiler) may include this header (docs/architecture.md, "Layers").
 */
#ifndef MOSAIC_BASE_SETTINGS_H
#define MOSAIC_BASE_SETTINGS_H

#include <stdbool.h>

/* One field per row of settings.def, in its order: a flag is a bool, a
 * number the row's type, a path a string (NULL: none), a tri-state an int
 * (-1 when unset), a set of categories (debug) one bit each of
 * MOSAIC_DEBUG_CATEGORIES, and a derived field (cache_dir, NULL for no cache) the
 * type its row names. */
struct mosaic_settings {
#define MOSAIC_FLAG(name, field, summary) bool field;
#define MOSAIC_NUMBER(name, field, type, fallback, min, max, below, summary) type field;
#define MOSAIC_PATH(name, field, fallback, shown, summary) const char *field;
#define MOSAIC_TRISTATE(name, field, shown, summary) int field;
#define MOSAIC_CATEGORIES(name, field, list, values, summary) unsigned field;
#define MOSAIC_INPUT(name, values, shown, summary)
#define MOSAIC_DERIVED(field, type, function) type field;
#include "base/settings.def"
};

/* The categories of MOSAIC_DEBUG (docs/settings.md), as PoCL's POCL_DEBUG
 * has them: X(ID, name, by_name_only, what it prints).  A category
 * by_name_only is on only when named (or `all`), not with `1`. */
#define MOSAIC_DEBUG_CATEGORIES(X)                                                                       \
    X(API, "api", 0, "why an API call failed, and the context's error notices")                          \
    X(BUILD, "build", 0, "build logs, how each kernel was built and why, the compiler's child processes") \
    X(LAUNCH, "launch", 0, "kernels built again for the local size they are launched with; kernels "     \
      "that faulted or ran too long")                                                                     \
    X(CACHE, "cache", 0, "hits and misses of the kernel, front end, SPIR-V and validation caches")       \
    X(DEVICE, "device", 0, "GPUs found or left out, and why; the GPU driver's failures")              \
    X(PASSES, "passes", 1, "the pipeline as it ran for each build: each pass, its time, its statistics")

enum mosaic_debug_category {
#define MOSAIC_DEBUG_BIT(id, name, by_name_only, what) MOSAIC_DEBUG_BIT_##id,
    MOSAIC_DEBUG_CATEGORIES(MOSAIC_DEBUG_BIT)
#undef MOSAIC_DEBUG_BIT
#define MOSAIC_DEBUG_MASK(id, name, by_name_only, what) MOSAIC_DEBUG_##id = 1u << MOSAIC_DEBUG_BIT_##id,
    MOSAIC_DEBUG_CATEGORIES(MOSAIC_DEBUG_MASK)
#undef MOSAIC_DEBUG_MASK
};

/* What MOSAIC_CHECK turns on (docs/check.md), in the shape of
 * MOSAIC_DEBUG_CATEGORIES: X(ID, name, by_name_only, what it reports). */
#define MOSAIC_CHECK_KINDS(X)                                                                            \
    X(RACES, "races", 0, "work-items that access the same memory, one of them writing, with nothing "   \
      "ordering them")                                                                                   \
    X(BARRIERS, "barriers", 0, "barriers reached by part of a work-group, or different barriers by "    \
      "different work-items")                                                                            \
    X(BOUNDS, "bounds", 0, "accesses outside a buffer, a __local array or a private array")              \
    X(UNINIT, "uninit", 0, "reads of __local memory, or of a buffer made without host data, that "       \
      "nothing wrote")                                                                                   \
    X(SCOPES, "scopes", 0, "atomics whose memory scope is narrower than the work-items sharing them")

enum mosaic_check_kind {
#define MOSAIC_CHECK_BIT(id, name, by_name_only, what) MOSAIC_CHECK_BIT_##id,
    MOSAIC_CHECK_KINDS(MOSAIC_CHECK_BIT)
#undef MOSAIC_CHECK_BIT
#define MOSAIC_CHECK_MASK(id, name, by_name_only, what) MOSAIC_CHECK_##id = 1u << MOSAIC_CHECK_BIT_##id,
    MOSAIC_CHECK_KINDS(MOSAIC_CHECK_MASK)
#undef MOSAIC_CHECK_MASK
};

/* Does MOSAIC_DEBUG ask for (one of) these categories (MOSAIC_DEBUG_BUILD...)? */
bool mosaic_debugging(unsigned categories);

/* The settings, read from the environment at the first call. */
const struct mosaic_settings *mosaic_settings(void);

/* For tests only: reads the environment again.  No other thread may be
 * using the settings (the strings of the previous reading are freed). */
void mosaic_settings_reload(void);

#endif
