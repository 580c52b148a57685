/* The front end's cache (direct_cache.c): a compilation found by its inputs. */
#ifndef MOSAIC_COMPILER_CACHE_DIRECT_CACHE_H
#define MOSAIC_COMPILER_CACHE_DIRECT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "base/strbuf.h"
#include "compiler/cache/cache.h"
#include "compiler/compiler.h"

typedef struct mc_direct_inputs {
    const char *args;             /* clang's arguments, as the response file has them */
    size_t args_len;
    const char *prelude;          /* the feature prelude's text */
    size_t prelude_len;
    const char *source;
    size_t num_headers;           /* the embedded headers */
    const mosaic_header *headers;
    bool lower_printf;            /* printf calls become __mosaic_printf calls */
} mc_direct_inputs;
/* The key of a compilation; false when it cannot be cached (the source asks for the time). */
bool mc_direct_key(const mc_direct_inputs *in, mc_cache_key *key);
/* A lookup: true on a hit, with the compiled object in *out (owned) and the
 * messages clang printed then appended to log. */
bool mc_direct_lookup(const mc_cache_key *key, mosaic_bitcode *out, mosaic_strbuf *log);
/* Stores the compiled object of a successful build with the files clang read
 * (deps_text: its make-style dependency file; names relative to
 * work_dir/include are the work directory's own).  started: when the build
 * began (a file changed since is not trusted). */
void mc_direct_store(const mc_cache_key *key, const char *work_dir, const char *deps_text,
                     const struct timespec *started, const mosaic_bitcode *obj, const char *messages,
                     size_t messages_len);

#endif
