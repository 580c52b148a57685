/* SPIR-V modules in the on-disk cache (spirv_cache.c): validations and translations. */
#ifndef MOSAIC_COMPILER_FRONTEND_SPIRV_CACHE_H
#define MOSAIC_COMPILER_FRONTEND_SPIRV_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "compiler/cache/cache.h"
#include "compiler/compiler.h"

/* Has the module (little-endian words) passed this validator before? */
bool mc_spirv_validated(const uint32_t *w, size_t size);
/* It passed the validator whose records (mc_tool_files, taken before it ran) are given. */
void mc_spirv_store_validated(const uint32_t *w, size_t size, const mosaic_strbuf *validator);
/* The key of a translation: the words to translate (specialization constants
 * written in), printf lowering, correctly rounded division (which a GPU's
 * object holds: spirv_nvptx.c), the device. */
void mc_spirv_object_key(const mosaic_compiler_target *target, const uint32_t *w, size_t size, bool lower_printf,
                         bool exact_division, mc_cache_key *key);
/* A lookup: true on a hit, with the compiled object in *out (owned). */
bool mc_spirv_cached_object(const mc_cache_key *key, mosaic_bitcode *out);
/* Stores a translation's compiled object with the translator's records. */
void mc_spirv_store_object(const mc_cache_key *key, const mosaic_strbuf *translator, const mosaic_bitcode *obj);

#endif
