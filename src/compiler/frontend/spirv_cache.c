/*
 * SPIR-V programs in the kernel cache (docs/spirv.md): a module built
 * before is neither validated nor translated again.
 *
 *  - A validation marker (kind .chk, as the bitcode checker's): keyed by the
 *    module's words (in little-endian order, as the validator gets them);
 *    it holds the validator's files (tool_files.c).  clCreateProgramWithIL
 *    on a module with a marker whose validator is unchanged starts no
 *    spirv-val.
 *  - A translation (kind .spv): keyed by the module's words with the values
 *    of the specialization constants written in (the words the translator
 *    reads), whether printf calls are lowered, and the device's features;
 *    it holds the translator's files and the compiled object made from its
 *    output.  The build options are not in the key: they are checked before
 *    the lookup, and act at finalize, whose entry has them.
 *
 * Both keys begin with Mosaic's build id (mc_cache_hasher_start); entries
 * are stored and read by cache.c (the key inside the entry, a checksum,
 * regular files of the user's only, the size limit).  Payloads: the tool's
 * records, then for a translation u64 size and the compiled object.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/blake3.h>

#include "compiler/cache/cache.h"
#include "compiler/frontend/binary.h"
#include "compiler/frontend/spirv_cache.h"
#include "compiler/frontend/tool_files.h"

static void hash_words(llvm_blake3_hasher *h, const uint32_t *w, size_t size)
{
    uint64_t n = size;
    llvm_blake3_hasher_update(h, &n, sizeof n);
    llvm_blake3_hasher_update(h, w, size);
}

static void validation_key(const uint32_t *w, size_t size, mc_cache_key *key)
{
    llvm_blake3_hasher h;
    mc_cache_hasher_start(&h, "mosaic spirv-val 1");
    hash_words(&h, w, size);
    llvm_blake3_hasher_finalize(&h, key->bytes, sizeof key->bytes);
}

bool mc_spirv_validated(const uint32_t *w, size_t size)
{
    if (!mc_cache_enabled())
        return false;
    mc_cache_key key;
    validation_key(w, size, &key);
    void *data;
    size_t n;
    if (!mc_cache_load(MC_CACHE_CHECKED, &key, &data, &n))
        return false;
    const char *end = (const char *)data + n;
    bool hit = mc_tool_files_unchanged(data, end) == end;
    free(data);
    return hit;
}

void mc_spirv_store_validated(const uint32_t *w, size_t size, const mosaic_strbuf *validator)
{
    if (!validator->len || validator->oom || !mc_cache_enabled())
        return;
    mc_cache_key key;
    validation_key(w, size, &key);
    mc_cache_store(MC_CACHE_CHECKED, &key, validator->data, validator->len);
}

void mc_spirv_object_key(const mosaic_compiler_target *target, const uint32_t *w, size_t size, bool lower_printf,
                         bool exact_division, mc_cache_key *key)
{
    llvm_blake3_hasher h;
    mc_cache_hasher_start(&h, "mosaic spirv translation 1");
    hash_words(&h, w, size);
    uint8_t flags = (uint8_t)(lower_printf | exact_division << 1);
    llvm_blake3_hasher_update(&h, &flags, 1);
    const char *features = target && target->clang_features ? target->clang_features : "";
    llvm_blake3_hasher_update(&h, features, strlen(features) + 1);
    /* the GPU's objects are nvptx64's (compiler/frontend/spirv_nvptx.c) */
    const char *triple = target && target->triple ? target->triple : "";
    llvm_blake3_hasher_update(&h, triple, strlen(triple) + 1);
    llvm_blake3_hasher_finalize(&h, key->bytes, sizeof key->bytes);
}

bool mc_spirv_cached_object(const mc_cache_key *key, mosaic_bitcode *out)
{
    void *data;
    size_t n;
    if (!mc_cache_enabled() || !mc_cache_load(MC_CACHE_SPIRV, key, &data, &n))
        return false;
    const char *end = (const char *)data + n, *p = mc_tool_files_unchanged(data, end);
    uint64_t size = 0;
    bool hit = p && end - p >= 8;
    if (hit) {
        memcpy(&size, p, 8);
        p += 8;
        hit = size && size == (uint64_t)(end - p);
    }
    /* a compiled object whose header and checksum hold, as any blob read */
    cl_program_binary_type type = 0;
    mosaic_strbuf ignored = {0};
    hit = hit && mc_blob_unwrap(p, size, &type, NULL, NULL, NULL, &ignored) == CL_SUCCESS &&
          type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    mosaic_strbuf_free(&ignored);
    if (hit && (out->data = malloc(size))) {
        memcpy(out->data, p, size);
        out->size = size;
        out->type = type;
    } else {
        hit = false;
    }
    free(data);
    return hit;
}

void mc_spirv_store_object(const mc_cache_key *key, const mosaic_strbuf *translator, const mosaic_bitcode *obj)
{
    if (!translator->len || translator->oom || !obj->size || !mc_cache_enabled())
        return;
    mosaic_strbuf entry = {0};
    mosaic_strbuf_append(&entry, translator->data, translator->len);
    uint64_t size = obj->size;
    mosaic_strbuf_append(&entry, (const char *)&size, 8);
    mosaic_strbuf_append(&entry, obj->data, obj->size);
    if (!entry.oom)
        mc_cache_store(MC_CACHE_SPIRV, key, entry.data, entry.len);
    mosaic_strbuf_free(&entry);
}
