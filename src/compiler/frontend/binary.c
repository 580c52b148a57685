/* Program binaries (a small header around spir64 LLVM bitcode) and linking. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <llvm-c/blake3.h>

#include "base/settings.h"
#include "compiler/cache/cache.h"
#include "compiler/frontend/binary.h"
#include "compiler/frontend/child.h"
#include "compiler/frontend/options.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"

typedef struct blob_header {
    char magic[8];
    uint32_t version;
    uint32_t type;
    uint64_t bitcode_size;
    uint8_t checksum[8]; /* the first 8 bytes of blob_digest */
} blob_header;

_Static_assert(sizeof(blob_header) == MC_BLOB_HEADER_SIZE, "blob header size");

/* BLAKE3 of the header (checksum zero) and the bitcode.  LLVM's bitcode
 * reader crashes on some damaged input, so no byte reaches it unchecked. */
static void blob_digest(const blob_header *h, const void *bitcode, size_t size, uint8_t digest[32])
{
    blob_header zero = *h;
    memset(zero.checksum, 0, sizeof zero.checksum);
    llvm_blake3_hasher b;
    llvm_blake3_hasher_init(&b);
    llvm_blake3_hasher_update(&b, &zero, sizeof zero);
    llvm_blake3_hasher_update(&b, bitcode, size);
    llvm_blake3_hasher_finalize(&b, digest, 32);
}

/* ---- blobs safe to parse: made by this process, or checked before -------------------
 * (mosaic_bitcode_validate checks nothing more for them) */
#define TRUSTED_MAX 64
static uint8_t trusted[TRUSTED_MAX][32];
static unsigned trusted_count, trusted_next;
static pthread_mutex_t trusted_lock = PTHREAD_MUTEX_INITIALIZER;

static void trust(const uint8_t digest[32])
{
    pthread_mutex_lock(&trusted_lock);
    memcpy(trusted[trusted_next], digest, 32);
    trusted_next = (trusted_next + 1) % TRUSTED_MAX;
    if (trusted_count < TRUSTED_MAX)
        trusted_count++;
    pthread_mutex_unlock(&trusted_lock);
}

static bool is_trusted(const uint8_t digest[32])
{
    bool found = false;
    pthread_mutex_lock(&trusted_lock);
    for (unsigned i = 0; i < trusted_count && !found; i++)
        found = !memcmp(trusted[i], digest, 32);
    pthread_mutex_unlock(&trusted_lock);
    return found;
}

/* The kernel cache's marker of a blob safe to parse (MC_CACHE_CHECKED):
 * keyed by the whole blob, so only these exact bytes find it. */
static void checked_key(mc_cache_key *key, const void *blob, size_t size)
{
    mc_cache_key_compute(key, blob, size, "bitcode checked by opt", "", "", NULL);
}

static void store_checked_marker(const void *blob, size_t size)
{
    mc_cache_key key;
    checked_key(&key, blob, size);
    mc_cache_store(MC_CACHE_CHECKED, &key, "ok", 2);
}

cl_int mc_blob_wrap(cl_program_binary_type type, const void *bitcode, size_t size, mosaic_bitcode *out,
                    mosaic_strbuf *log)
{
    out->type = type;
    out->size = 0;
    out->data = malloc(MC_BLOB_HEADER_SIZE + size);
    if (!out->data)
        return mc_out_of_memory(log);
    blob_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MC_BLOB_MAGIC, 8);
    h.version = MC_BLOB_VERSION;
    h.type = (uint32_t)type;
    h.bitcode_size = size;
    uint8_t digest[32];
    blob_digest(&h, bitcode, size, digest);
    memcpy(h.checksum, digest, sizeof h.checksum);
    trust(digest); /* LLVM wrote it */
    memcpy(out->data, &h, sizeof h);
    memcpy((char *)out->data + sizeof h, bitcode, size);
    out->size = MC_BLOB_HEADER_SIZE + size;
    /* The application may save the blob (CL_PROGRAM_BINARIES) and give it
     * back in its next run: the marker spares the bitcode checker then, as
     * the marker of a checked binary does.  Trusting it is trusting the
     * cache, whose object code runs anyway; a binary with other bytes has
     * another key. */
    if (mc_cache_enabled())
        store_checked_marker(out->data, out->size);
    return CL_SUCCESS;
}

cl_int mc_blob_unwrap(const void *data, size_t size, cl_program_binary_type *type, const void **bitcode,
                      size_t *bitcode_size, uint8_t digest[32], mosaic_strbuf *log)
{
    blob_header h;
    if (!data || size < sizeof h + 4 || memcmp(data, MC_BLOB_MAGIC, 8)) {
        mosaic_strbuf_puts(log, "error: not a Mosaic program binary\n");
        return CL_INVALID_BINARY;
    }
    memcpy(&h, data, sizeof h);
    const unsigned char *bc = (const unsigned char *)data + sizeof h;
    if (h.version != MC_BLOB_VERSION) {
        mosaic_strbuf_printf(log, "error: the program binary has format version %u, this Mosaic reads version %u\n",
                             h.version, MC_BLOB_VERSION);
        return CL_INVALID_BINARY;
    }
    uint8_t d[32];
    blob_digest(&h, bc, size - sizeof h, d);
    if (memcmp(d, h.checksum, sizeof h.checksum)) {
        mosaic_strbuf_puts(log, "error: the program binary is damaged: its checksum does not match its contents\n");
        return CL_INVALID_BINARY;
    }
    if (h.bitcode_size != size - sizeof h || bc[0] != 'B' || bc[1] != 'C' || bc[2] != 0xC0 || bc[3] != 0xDE ||
        (h.type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && h.type != CL_PROGRAM_BINARY_TYPE_LIBRARY &&
         h.type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)) {
        mosaic_strbuf_puts(log, "error: the program binary's header is inconsistent (size, type or bitcode magic)\n");
        return CL_INVALID_BINARY;
    }
    if (type)
        *type = h.type;
    if (bitcode)
        *bitcode = bc;
    if (bitcode_size)
        *bitcode_size = (size_t)h.bitcode_size;
    if (digest)
        memcpy(digest, d, 32);
    return CL_SUCCESS;
}

cl_int mc_blob_load(LLVMContextRef ctx, const mosaic_bitcode *blob, LLVMModuleRef *out, mosaic_strbuf *log)
{
    const void *bc;
    size_t n;
    *out = NULL;
    if (!blob) {
        mosaic_strbuf_puts(log, "error: not a Mosaic program binary\n");
        return CL_INVALID_BINARY;
    }
    cl_int r = mc_blob_unwrap(blob->data, blob->size, NULL, &bc, &n, NULL, log);
    if (r != CL_SUCCESS)
        return r;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bc, n, "program", 0);
    if (!buf)
        return mc_out_of_memory(log);
    bool unreadable = LLVMParseBitcodeInContext2(ctx, buf, out);
    LLVMDisposeMemoryBuffer(buf);
    if (unreadable) {
        *out = NULL;
        mosaic_strbuf_puts(log, "error: the program binary holds unreadable bitcode\n");
        return CL_INVALID_BINARY;
    }
    return CL_SUCCESS;
}

/* ---- the bitcode checker --------------------------------------------------------------
 * A checksum stops damage, not a binary made to hurt: LLVM's bitcode reader
 * trusts its input (out-of-range metadata and type ids crash it, absurd sizes
 * abort it with "out of memory").  So a binary from the application is read
 * and verified by opt-16 in a child process first, with a memory and a time
 * limit; only bitcode that passed there is parsed in this process (the same
 * libLLVM-16, so it parses the same way). */
int mc_bitcode_check_timeout_ms = 60000;

/* What the checker said, for the log: its first error or warning, and its
 * first line if that came before (the verifier's reason). */
static void checker_message(const mosaic_strbuf *out, mosaic_strbuf *log)
{
    const char *text = out->data ? out->data : "", *what = NULL, *line = text;
    for (; *line && !what; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
        size_t n = strcspn(line, "\n");
        const char *e = memmem(line, n, "error: ", 7), *w = memmem(line, n, "warning: ", 9);
        what = e ? e + 7 : w ? w + 9 : NULL;
    }
    int n = (int)strcspn(text, "\n"), m = what ? (int)strcspn(what, "\n") : 0;
    n = n > 200 ? 200 : n;
    m = m > 200 ? 200 : m;
    if (!what)
        mosaic_strbuf_printf(log, "error: the program binary holds invalid bitcode: %.*s\n", n,
                             n ? text : "(the bitcode checker said nothing)");
    else if (what < text + n)
        mosaic_strbuf_printf(log, "error: the program binary holds invalid bitcode: %.*s\n", m, what);
    else
        mosaic_strbuf_printf(log, "error: the program binary holds invalid bitcode: %.*s (%.*s)\n", m, what, n, text);
}

static cl_int check_in_child(const void *bitcode, size_t size, mosaic_strbuf *log)
{
    const char *opt = mosaic_settings()->opt;
    /* the bitcode reaches the child's stdin through an unlinked in-memory file */
    int fd = memfd_create("mosaic-bitcode", MFD_CLOEXEC);
    size_t done = 0;
    while (fd >= 0 && done < size) {
        ssize_t w = write(fd, (const char *)bitcode + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    if (fd < 0 || done < size || lseek(fd, 0, SEEK_SET) != 0) {
        mosaic_strbuf_printf(log, "error: cannot hand the program binary to the bitcode checker: %s\n",
                             strerror(errno));
        if (fd >= 0)
            close(fd);
        return CL_INVALID_BINARY;
    }
    /* -print-pipeline-passes: opt prints "verify,..." once the module parsed
     * and verified, and stops; that line is the answer even when the exit
     * status is lost (an application that ignores SIGCHLD). */
    const char *argv[] = {opt, "--disable-symbolication", "-passes=verify", "-print-pipeline-passes",
                          "-disable-output", NULL};
    mc_child child = {.stdin_fd = fd, .timeout_ms = mc_bitcode_check_timeout_ms,
                      .max_memory = ((uint64_t)1 << 30) + 64 * (uint64_t)size};
    mosaic_strbuf out = {0};
    mc_run_child(argv, &child, &out);
    close(fd);
    cl_int r = CL_INVALID_BINARY;
    if (child.end == MC_CHILD_NOT_STARTED) {
        mosaic_strbuf_printf(log, "error: cannot run the bitcode checker '%s': %s (set MOSAIC_OPT to opt-16)\n",
                             opt, strerror(child.code));
    } else if (child.end == MC_CHILD_SIGNALED) {
        mosaic_strbuf_printf(log, "error: the program binary's bitcode crashed the bitcode checker (%s, signal %d)\n",
                             opt, child.code);
    } else if (child.end == MC_CHILD_TIMED_OUT) {
        mosaic_strbuf_printf(log, "error: the bitcode checker (%s) took over %d ms on the program binary's bitcode\n",
                             opt, mc_bitcode_check_timeout_ms);
    } else if ((child.end == MC_CHILD_EXITED && child.code != 0) || strncmp(out.data ? out.data : "", "verify", 6) ||
               strcspn(out.data, "\n") + 1 < out.len) {
        /* anything besides the pipeline line (invalid debug info is only a
         * warning) is refused: LLVM's reader would print it here on stderr */
        checker_message(&out, log);
    } else {
        r = CL_SUCCESS;
    }
    mosaic_strbuf_free(&out);
    return r;
}

cl_int mc_module_to_blob(LLVMModuleRef m, cl_program_binary_type type, mosaic_bitcode *out, mosaic_strbuf *log)
{
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
    if (!buf)
        return mc_out_of_memory(log);
    cl_int r = mc_blob_wrap(type, LLVMGetBufferStart(buf), LLVMGetBufferSize(buf), out, log);
    LLVMDisposeMemoryBuffer(buf);
    return r;
}

/* Parses a blob here and runs LLVM's verifier on it. */
static cl_int load_and_verify(const mosaic_bitcode *blob, mosaic_strbuf *log)
{
    LLVMContextRef ctx = mc_context_create(NULL);
    if (!ctx)
        return mc_out_of_memory(log);
    LLVMModuleRef m;
    cl_int r = mc_blob_load(ctx, blob, &m, log);
    char *msg = NULL;
    if (m && LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        size_t n = msg ? strcspn(msg, "\n") : 0;
        mosaic_strbuf_printf(log, "error: the program binary holds an invalid module: %.*s\n", (int)(n > 300 ? 300 : n),
                             msg ? msg : "");
        r = CL_INVALID_BINARY;
    }
    LLVMDisposeMessage(msg);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return r;
}

/* The architecture (the triple's first part) of validated bitcode, into
 * arch[0..cap): lazily loaded, module records only.  False when unreadable. */
static bool bitcode_arch(const void *bc, size_t n, char *arch, size_t cap)
{
    LLVMContextRef ctx = mc_context_create(NULL);
    LLVMMemoryBufferRef buf = ctx ? LLVMCreateMemoryBufferWithMemoryRange(bc, n, "program", 0) : NULL;
    LLVMModuleRef m = NULL;
    bool ok = buf && !LLVMGetBitcodeModuleInContext2(ctx, buf, &m);
    if (ok) {
        const char *triple = LLVMGetTarget(m);
        snprintf(arch, cap, "%.*s", (int)strcspn(triple, "-"), triple);
        LLVMDisposeModule(m); /* it owns buf */
    } else if (buf) {
        LLVMDisposeMemoryBuffer(buf);
    }
    if (ctx)
        LLVMContextDispose(ctx);
    return ok;
}

/* Is validated bitcode for the target's architecture?  (A program's
 * binaries are one per device: the CPU's spir64 one given for the GPU, or
 * the GPU's nvptx64 one for the CPU, is CL_INVALID_BINARY.) */
static cl_int check_target(const mosaic_compiler_target *target, const void *data, size_t size, mosaic_strbuf *log)
{
    const void *bc;
    size_t n;
    cl_int r = mc_blob_unwrap(data, size, NULL, &bc, &n, NULL, log);
    if (r != CL_SUCCESS)
        return r;
    const char *want = target->triple ? target->triple : "spir64-unknown-unknown";
    char arch[64];
    if (!bitcode_arch(bc, n, arch, sizeof arch)) {
        mosaic_strbuf_puts(log, "error: the program binary holds unreadable bitcode\n");
        return CL_INVALID_BINARY;
    }
    if (strlen(arch) != strcspn(want, "-") || strncmp(arch, want, strlen(arch)) != 0) {
        mosaic_strbuf_printf(log, "error: the binary was built for %s, not for this device (%.*s)\n", arch,
                             (int)strcspn(want, "-"), want);
        return CL_INVALID_BINARY;
    }
    return CL_SUCCESS;
}

cl_int mosaic_bitcode_validate(const mosaic_compiler_target *target, const void *data, size_t size,
                               cl_program_binary_type *type, char **log_out)
{
    mosaic_strbuf log = {0};
    cl_program_binary_type t;
    uint8_t digest[32];
    const void *bc;
    size_t n;
    cl_int r = mc_blob_unwrap(data, size, &t, &bc, &n, digest, &log);
    if (r == CL_SUCCESS && !is_trusted(digest)) {
        /* A marker in the kernel cache (trusted as much as the object code
         * there) spares the child on the application's next run. */
        bool use_cache = mc_cache_enabled(), known = false;
        mc_cache_key key;
        void *entry;
        size_t entry_size;
        if (use_cache) {
            checked_key(&key, data, size);
            known = mc_cache_load(MC_CACHE_CHECKED, &key, &entry, &entry_size);
            if (known)
                free(entry);
        }
        if (!known) {
            r = check_in_child(bc, n, &log);
            if (r == CL_SUCCESS)
                r = load_and_verify(&(mosaic_bitcode){t, (void *)data, size}, &log);
            if (r == CL_SUCCESS && use_cache)
                store_checked_marker(data, size);
        }
        if (r == CL_SUCCESS)
            trust(digest);
    }
    if (r == CL_SUCCESS && target) /* safe to parse here now that it passed */
        r = check_target(target, data, size, &log);
    if (r == CL_SUCCESS && type)
        *type = t;
    if (log_out)
        *log_out = mosaic_strbuf_take(&log);
    else
        mosaic_strbuf_free(&log);
    return r;
}

void mosaic_bitcode_free(mosaic_bitcode *bc)
{
    if (!bc)
        return;
    free(bc->data);
    bc->data = NULL;
    bc->size = 0;
}

/* The cache key of a link: what decides its result (the builtins and the
 * checks are Mosaic's own, under its build id). */
static void link_key(mc_cache_key *key, const mosaic_compiler_target *target, size_t count,
                     const mosaic_bitcode *inputs, const char *options, bool create_library)
{
    llvm_blake3_hasher h;
    mc_cache_hasher_start(&h, "mosaic link cache 1");
    uint64_t n[2] = {count, create_library};
    llvm_blake3_hasher_update(&h, n, sizeof n);
    const char *o = options ? options : "";
    llvm_blake3_hasher_update(&h, o, strlen(o) + 1);
    for (size_t i = 0; target && i < target->num_runtime_symbols; i++) {
        const char *s = target->runtime_symbols[i].name ? target->runtime_symbols[i].name : "";
        llvm_blake3_hasher_update(&h, s, strlen(s) + 1);
    }
    for (size_t i = 0; i < count; i++) {
        uint64_t size = inputs[i].size;
        llvm_blake3_hasher_update(&h, &size, sizeof size);
        llvm_blake3_hasher_update(&h, inputs[i].data, inputs[i].size);
    }
    llvm_blake3_hasher_finalize(&h, key->bytes, sizeof key->bytes);
}

/* A link done before, from the cache: true with its result in *out. */
static bool cached_link(const mc_cache_key *key, bool create_library, mosaic_bitcode *out)
{
    void *data;
    size_t size;
    if (!mc_cache_load(MC_CACHE_LINKED, key, &data, &size))
        return false;
    cl_program_binary_type type;
    mosaic_strbuf ignored = {0};
    bool ok = mc_blob_unwrap(data, size, &type, NULL, NULL, NULL, &ignored) == CL_SUCCESS &&
              type == (create_library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    mosaic_strbuf_free(&ignored);
    if (!ok) {
        free(data);
        return false;
    }
    *out = (mosaic_bitcode){type, data, size};
    return true;
}

cl_int mosaic_link_bitcode(const mosaic_compiler_target *target, size_t count, const mosaic_bitcode *inputs,
                           const char *options, bool create_library, mosaic_bitcode *out, char **log_out)
{
    mosaic_strbuf log = {0};
    mc_options opts;
    LLVMContextRef ctx = NULL;
    LLVMModuleRef dst = NULL;
    if (out)
        memset(out, 0, sizeof *out);
    cl_int r = mc_parse_options(options, MC_OPTIONS_LINK, &opts, &log);
    if (r != CL_SUCCESS)
        goto done;
    create_library |= opts.create_library;
    mc_free_options(&opts);
    if (!count || !inputs || !out) {
        mosaic_strbuf_puts(&log, "error: nothing to link\n");
        r = CL_LINK_PROGRAM_FAILURE;
        goto done;
    }
    mc_cache_key key;
    bool use_cache = mc_cache_enabled();
    if (use_cache) {
        link_key(&key, target, count, inputs, options, create_library);
        if (cached_link(&key, create_library, out))
            goto done;
    }
    ctx = mc_context_create(&log);
    if (!ctx) {
        r = mc_out_of_memory(&log);
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        LLVMModuleRef m;
        r = mc_blob_load(ctx, &inputs[i], &m, &log);
        if (r != CL_SUCCESS)
            goto done;
        if (!dst) {
            dst = m;
        } else if (LLVMLinkModules2(dst, m)) { /* consumes m; diagnostics went to the log */
            r = CL_LINK_PROGRAM_FAILURE;
            goto done;
        }
    }
    /* An executable must not call anything that will not exist.  The GPU's
     * (nvptx64: compiled for MC_PTX_TRIPLE) built-ins are libclc's, which
     * only finalize links in and which refuses a missing one by name there
     * (gpu/ptx.c): its link checks the variables alone. */
    if (!create_library) {
        bool gpu = !strncmp(LLVMGetTarget(dst), "nvptx", 5);
        r = gpu ? mc_report_undefined_variables(dst, target, CL_LINK_PROGRAM_FAILURE, &log)
                : mc_report_undefined(dst, true, target, CL_LINK_PROGRAM_FAILURE, &log);
        if (r != CL_SUCCESS)
            goto done;
    }
    r = mc_module_to_blob(dst, create_library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                          out, &log);
    /* a link that printed nothing is stored: a warning would be lost on a hit */
    if (r == CL_SUCCESS && use_cache && !log.len)
        mc_cache_store(MC_CACHE_LINKED, &key, out->data, out->size);
done:
    if (dst)
        LLVMDisposeModule(dst);
    if (ctx)
        LLVMContextDispose(ctx);
    return mc_finish_log(&log, r, log_out, "link");
}
