/*
 * The front end's cache ("direct mode", as ccache calls it): a program
 * compiled before from the same source, with the same options, for the same
 * device, by the same Mosaic, whose headers have not changed, gets the
 * compiled object of that earlier build without starting clang.
 *
 * The key (mc_direct_key) covers what is known before clang runs: Mosaic's
 * build id, clang's arguments (the device's features, the options, -I
 * directories made absolute), the feature prelude, the source, every
 * embedded header (clCompileProgram's input_headers, names and contents) and
 * whether printf is lowered.  What clang read besides is only known after it
 * ran: it writes a dependency file (-MD), and the entry records each file
 * outside the work directory with the BLAKE3 hash of its contents (OpenCL's
 * default header among them, so a clang whose header changed misses).  A
 * lookup hashes those files again; any difference, or a file gone, is a miss.
 *
 * Not cached: a program that uses __DATE__, __TIME__ or __TIMESTAMP__, one
 * that reaches a file through a relative path out of the work directory, and
 * one whose headers changed while clang ran (modified less than a second
 * before the build started: the next build stores it).
 *
 * The entry's payload (cache.c adds the key, the kind and a checksum):
 *   u32 n; n x { u32 length, path, 32-byte hash }; u64 length, clang's
 *   messages; u32 binary type; u64 size, the compiled object.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/blake3.h>

#include "compiler/cache/cache.h"
#include "compiler/cache/direct_cache.h"

static void hash_text(llvm_blake3_hasher *h, const void *data, size_t n)
{
    uint64_t len = n;
    llvm_blake3_hasher_update(h, &len, sizeof len);
    llvm_blake3_hasher_update(h, data, n);
}

/* Would the same text compile differently at another time? */
static bool uses_the_clock(const char *text, size_t n)
{
    return memmem(text, n, "__DATE__", 8) || memmem(text, n, "__TIME", 6);
}

bool mc_direct_key(const mc_direct_inputs *in, mc_cache_key *key)
{
    llvm_blake3_hasher h;
    mc_cache_hasher_start(&h, "mosaic front end cache 1");
    hash_text(&h, in->args, in->args_len);
    hash_text(&h, in->prelude, in->prelude_len);
    size_t n = strlen(in->source);
    if (uses_the_clock(in->source, n))
        return false;
    hash_text(&h, in->source, n);
    uint64_t count = in->num_headers;
    llvm_blake3_hasher_update(&h, &count, sizeof count);
    for (size_t i = 0; i < in->num_headers; i++) {
        const char *name = in->headers[i].include_name ? in->headers[i].include_name : "";
        const char *text = in->headers[i].source ? in->headers[i].source : "";
        size_t len = strlen(text);
        if (uses_the_clock(text, len))
            return false;
        hash_text(&h, name, strlen(name));
        hash_text(&h, text, len);
    }
    uint8_t printf_flag = in->lower_printf;
    llvm_blake3_hasher_update(&h, &printf_flag, 1);
    llvm_blake3_hasher_finalize(&h, key->bytes, sizeof key->bytes);
    return true;
}

/* The BLAKE3 hash of a regular file's contents; false if it cannot be read,
 * is no regular file, uses the clock, or (with not_since) was modified at or
 * after not_since - 1 s. */
static bool hash_file(const char *path, uint8_t sum[32], const struct timespec *not_since)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool ok = !fstat(fd, &st) && S_ISREG(st.st_mode);
    if (ok && not_since)
        ok = st.st_mtim.tv_sec < not_since->tv_sec - 1;
    mosaic_strbuf text = {0};
    char buf[65536];
    while (ok) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            ok = false;
        if (r <= 0)
            break;
        mosaic_strbuf_append(&text, buf, (size_t)r);
    }
    close(fd);
    ok = ok && !text.oom && !(not_since && uses_the_clock(text.data ? text.data : "", text.len));
    if (ok) {
        llvm_blake3_hasher h;
        llvm_blake3_hasher_init(&h);
        llvm_blake3_hasher_update(&h, text.data ? text.data : "", text.len);
        llvm_blake3_hasher_finalize(&h, sum, 32);
    }
    mosaic_strbuf_free(&text);
    return ok;
}

/* ---- reading an entry ---------------------------------------------------------------------- */
typedef struct reader { const char *p, *end; bool bad; } reader;

static const void *take(reader *r, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    const void *at = r->p;
    r->p += n;
    return at;
}

static uint64_t take_u(reader *r, size_t n)
{
    const void *at = take(r, n);
    uint64_t v = 0;
    if (at && n == 4) {
        uint32_t v32;
        memcpy(&v32, at, 4);
        v = v32;
    } else if (at) {
        memcpy(&v, at, 8);
    }
    return v;
}

bool mc_direct_lookup(const mc_cache_key *key, mosaic_bitcode *out, mosaic_strbuf *log)
{
    void *data;
    size_t size;
    if (!mc_cache_load(MC_CACHE_SOURCE, key, &data, &size))
        return false;
    reader r = {data, (const char *)data + size, false};
    bool same = true;
    for (uint64_t n = take_u(&r, 4), i = 0; same && !r.bad && i < n; i++) {
        size_t len = (size_t)take_u(&r, 4);
        const char *path = take(&r, len);
        const uint8_t *sum = take(&r, 32);
        uint8_t now[32];
        char name[PATH_MAX];
        if (r.bad || !len || len >= sizeof name)
            break;
        memcpy(name, path, len);
        name[len] = 0;
        same = hash_file(name, now, NULL) && !memcmp(now, sum, 32);
    }
    size_t msg_len = (size_t)take_u(&r, 8);
    const char *messages = take(&r, msg_len);
    uint32_t type = (uint32_t)take_u(&r, 4);
    size_t obj_size = (size_t)take_u(&r, 8);
    const void *obj = take(&r, obj_size);
    bool hit = same && !r.bad && r.p == r.end && type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && obj_size;
    if (hit) {
        out->data = malloc(obj_size);
        hit = out->data != NULL;
    }
    if (hit) {
        memcpy(out->data, obj, obj_size);
        out->size = obj_size;
        out->type = type;
        mosaic_strbuf_append(log, messages, msg_len);
    }
    free(data);
    return hit;
}

/* ---- writing one ---------------------------------------------------------------------------- */
static void put_u(mosaic_strbuf *s, uint64_t v, size_t n)
{
    if (n == 4) {
        uint32_t v32 = (uint32_t)v;
        mosaic_strbuf_append(s, (const char *)&v32, 4);
    } else {
        mosaic_strbuf_append(s, (const char *)&v, 8);
    }
}

/* The next file name of a make-style dependency list ("\ " is a space, "$$"
 * a dollar, backslash-newline a continuation); false at the end. */
static bool next_dependency(const char **at, mosaic_strbuf *name)
{
    const char *p = *at;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (p[0] == '\\' && (p[1] == '\n' || p[1] == '\r'))
            p += 2;
        else
            break;
    }
    if (!*p)
        return false;
    mosaic_strbuf_truncate(name, 0);
    while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
        if (p[0] == '\\' && (p[1] == ' ' || p[1] == '#')) {
            mosaic_strbuf_append(name, p + 1, 1);
            p += 2;
        } else if (p[0] == '\\' && (p[1] == '\n' || p[1] == '\r')) {
            break;
        } else if (p[0] == '$' && p[1] == '$') {
            mosaic_strbuf_append(name, "$", 1);
            p += 2;
        } else {
            mosaic_strbuf_append(name, p++, 1);
        }
    }
    *at = p;
    return true;
}

void mc_direct_store(const mc_cache_key *key, const char *work_dir, const char *deps_text,
                     const struct timespec *started, const mosaic_bitcode *obj, const char *messages,
                     size_t messages_len)
{
    if (!deps_text || !obj || !obj->size)
        return;
    /* the rule's target ends at the first ": " */
    const char *p = deps_text;
    while (*p && !(p[0] == ':' && (p[1] == ' ' || p[1] == '\n' || p[1] == '\r' || !p[1])))
        p++;
    if (!*p)
        return;
    p++;
    mosaic_strbuf files = {0}, name = {0}, entry = {0};
    char real[PATH_MAX];
    size_t dir_len = strlen(work_dir), n = 0;
    bool cacheable = true;
    while (cacheable && next_dependency(&p, &name)) {
        if (name.oom)
            break;
        const char *path = name.data;
        if (path[0] != '/') {
            /* clang ran in work_dir/include: a relative name is under it
             * (an embedded header or the prelude: in the key already), or
             * leads to a place that depends on where the work directory is */
            mosaic_strbuf full = {0};
            mosaic_strbuf_printf(&full, "%s/include/%s", work_dir, path);
            cacheable = !full.oom && realpath(full.data, real) && !strncmp(real, work_dir, dir_len) &&
                        real[dir_len] == '/';
            mosaic_strbuf_free(&full);
            continue;
        }
        if (!strncmp(path, work_dir, dir_len) && path[dir_len] == '/')
            continue;
        uint8_t sum[32];
        cacheable = hash_file(path, sum, started);
        put_u(&files, name.len, 4);
        mosaic_strbuf_append(&files, path, name.len);
        mosaic_strbuf_append(&files, (const char *)sum, 32);
        n++;
    }
    if (cacheable && !name.oom && !files.oom) {
        put_u(&entry, n, 4);
        mosaic_strbuf_append(&entry, files.data ? files.data : "", files.len);
        put_u(&entry, messages_len, 8);
        mosaic_strbuf_append(&entry, messages ? messages : "", messages_len);
        put_u(&entry, obj->type, 4);
        put_u(&entry, obj->size, 8);
        mosaic_strbuf_append(&entry, obj->data, obj->size);
        if (!entry.oom)
            mc_cache_store(MC_CACHE_SOURCE, key, entry.data, entry.len);
    }
    mosaic_strbuf_free(&files);
    mosaic_strbuf_free(&name);
    mosaic_strbuf_free(&entry);
}
