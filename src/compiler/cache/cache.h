/* The on-disk cache (cache.c, cache_layout.h; docs/cache.md). */
#ifndef MOSAIC_COMPILER_CACHE_CACHE_H
#define MOSAIC_COMPILER_CACHE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/blake3.h>

#include "compiler/compiler.h"

typedef struct mc_cache_key { uint8_t bytes[32]; } mc_cache_key;
/* What an entry holds: finalized code (finalize.c), the front end's result
 * (direct_cache.c), a marker of a checked binary or validated SPIR-V module,
 * a link's result (binary.c), a SPIR-V module's translation (spirv_cache.c),
 * the GPU's PTX and kernel table (mosaic_finalize_ptx, object_cache.c). */
typedef enum mc_cache_kind {
    MC_CACHE_OBJECT, MC_CACHE_SOURCE, MC_CACHE_CHECKED, MC_CACHE_LINKED, MC_CACHE_SPIRV, MC_CACHE_PTX
} mc_cache_kind;
void mc_cache_key_compute(mc_cache_key *key, const void *bitcode, size_t size, const char *options,
                          const char *cpu, const char *features, const mosaic_compiler_target *target);
/* Starts h for a cache key of one kind: the kind's tag, then the GNU build id
 * of the Mosaic binary, so a rebuilt Mosaic never reads an old entry. */
void mc_cache_hasher_start(llvm_blake3_hasher *h, const char *tag);
/* Is there a cache (set, and a directory that is safe to use)? */
bool mc_cache_enabled(void);
/* A lookup: true on a hit, with the malloc'd payload in *data and *size.
 * A missing, damaged, unreadable or foreign entry (stored under another key
 * or kind) is a miss. */
bool mc_cache_load(mc_cache_kind kind, const mc_cache_key *key, void **data, size_t *size);
/* Best effort: an entry that cannot be written is a miss next time.  May
 * evict the least recently used entries (MOSAIC_CACHE_MAX_MB). */
void mc_cache_store(mc_cache_kind kind, const mc_cache_key *key, const void *data, size_t size);

#endif
