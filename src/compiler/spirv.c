/* SPIR-V programs (docs/spirv.md): clCreateProgramWithIL's modules are
 * checked by spirv-val and translated to LLVM bitcode by Debian's
 * llvm-spirv-15, both child processes (child.c), never read by a parser of
 * ours.  llvm-spirv-15 writes LLVM 15 bitcode, which LLVM 16 reads; with
 * --spirv-target-env=CL2.0 the OpenCL.std instructions and the SPIR-V
 * built-ins come back as calls of OpenCL C built-ins under their Itanium
 * mangled names, the names of the builtin library, so the module then goes down
 * the path of clang's bitcode (printf lowering, link, finalize).
 *
 * The only words read here: the header (magic number and version, for a
 * clear message) and, for specialization constants, the SpecId decorations,
 * the OpSpecConstant* instructions and the scalar types they use.  Values are
 * written into a copy of the module rather than passed to llvm-spirv's
 * --spec-const, which parses them as text and refuses negative numbers and
 * 64-bit values at or above 2^62. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>

#include "compiler/compiler_internal.h"

#define SPIRV_MAGIC 0x07230203u
#define HEADER_WORDS 5u
/* How long the validator may take on one module (the translator has
 * MOSAIC_BUILD_TIMEOUT_S), and how much memory a tool may map. */
#define TOOL_TIMEOUT_MS 60000
#define TOOL_MEMORY(size) (((uint64_t)1 << 30) + 64 * (uint64_t)(size))

enum {
    OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22,
    OP_SPEC_CONSTANT_TRUE = 48, OP_SPEC_CONSTANT_FALSE = 49, OP_SPEC_CONSTANT = 50,
    OP_DECORATE = 71, DECORATION_SPEC_ID = 1,
};

static uint32_t bswap32(uint32_t w)
{
    return w >> 24 | (w >> 8 & 0xff00u) | (w << 8 & 0xff0000u) | w << 24;
}

/* The module as little-endian words (SPIR-V may be written in either byte
 * order; the tools get this copy): NULL when out of memory. */
static uint32_t *module_words(const void *il, size_t size)
{
    uint32_t *w = malloc(size ? size : 1);
    if (!w)
        return NULL;
    memcpy(w, il, size);
    if (size >= 4 && w[0] == bswap32(SPIRV_MAGIC))
        for (size_t i = 0; i < size / 4; i++)
            w[i] = bswap32(w[i]);
    return w;
}

/* The header: the magic number, a version the translator reads. */
static cl_int check_header(const uint32_t *w, size_t size, mosaic_strbuf *log)
{
    if (size < HEADER_WORDS * 4 || size % 4) {
        mosaic_strbuf_printf(log, "error: the SPIR-V module is %zu bytes: a module is a whole number of 32-bit words, "
                                  "at least the 5 of its header\n", size);
        return CL_INVALID_VALUE;
    }
    if (w[0] != SPIRV_MAGIC) {
        mosaic_strbuf_printf(log, "error: not a SPIR-V module: its first word is 0x%08x, not the magic number "
                                  "0x07230203\n", w[0]);
        return CL_INVALID_VALUE;
    }
    unsigned major = w[1] >> 16 & 0xff, minor = w[1] >> 8 & 0xff;
    if (major != 1 || minor > MOSAIC_SPIRV_MAX_MINOR || (w[1] & 0xff0000ffu)) {
        mosaic_strbuf_printf(log, "error: the module is SPIR-V %u.%u (version word 0x%08x); Mosaic takes SPIR-V "
                                  "1.0 to 1.%d\n", major, minor, w[1], MOSAIC_SPIRV_MAX_MINOR);
        return CL_INVALID_VALUE;
    }
    return CL_SUCCESS;
}

/* An unlinked in-memory file holding the bytes (a child's stdin), or -1. */
static int memory_file(const void *data, size_t size)
{
    int fd = memfd_create("mosaic-spirv", MFD_CLOEXEC);
    size_t done = 0;
    while (fd >= 0 && done < size) {
        ssize_t n = write(fd, (const char *)data + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (fd >= 0 && (done < size || lseek(fd, 0, SEEK_SET) != 0)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* What a tool said, cut to a few lines a person reads. */
static void append_tool_output(mosaic_strbuf *log, const mosaic_strbuf *out)
{
    const char *p = out->data ? out->data : "";
    for (int lines = 0; *p && lines < 8; lines++) {
        size_t n = strcspn(p, "\n");
        mosaic_strbuf_printf(log, "  %.*s\n", (int)(n > 400 ? 400 : n), p);
        p += n + (p[n] == '\n');
    }
}

/* Why a tool that was to succeed did not: into the log. */
static void tool_failure(mosaic_strbuf *log, const char *what, const char *tool, const char *setting,
                         const mc_child *c, const mosaic_strbuf *out)
{
    if (c->end == MC_CHILD_NOT_STARTED)
        mosaic_strbuf_printf(log, "error: cannot run the %s '%s': %s (set %s)\n", what, tool, strerror(c->code),
                             setting);
    else if (c->end == MC_CHILD_SIGNALED)
        mosaic_strbuf_printf(log, "error: the %s (%s) crashed on the module (signal %d)\n", what, tool, c->code);
    else if (c->end == MC_CHILD_TIMED_OUT)
        mosaic_strbuf_printf(log, "error: the %s (%s) took over %d s on the module and was stopped\n", what,
                             tool, c->timeout_ms / 1000);
    else
        mosaic_strbuf_printf(log, "error: the %s (%s) refused the module:\n", what, tool);
    append_tool_output(log, out);
}

/* spirv-val on the module (universal environment: OpenCL's environments
 * stop at SPIR-V 1.2). */
static cl_int validate(const uint32_t *w, size_t size, mosaic_strbuf *log)
{
    const char *tool = mosaic_settings()->spirv_val;
    int fd = memory_file(w, size);
    if (fd < 0) {
        mosaic_strbuf_printf(log, "error: cannot hand the module to the SPIR-V validator: %s\n", strerror(errno));
        return CL_OUT_OF_HOST_MEMORY;
    }
    const char *argv[] = {tool, "-", NULL};
    mc_child c = {.stdin_fd = fd, .timeout_ms = TOOL_TIMEOUT_MS, .max_memory = TOOL_MEMORY(size)};
    mosaic_strbuf out = {0}, records = {0};
    if (mc_cache_enabled())
        mc_tool_files(tool, &records); /* what this validator is, before it runs */
    mc_run_child(argv, &c, &out);
    close(fd);
    /* silence is success: spirv-val prints nothing for a valid module (the
     * exit status is lost when the application ignores SIGCHLD) */
    bool ok = (c.end == MC_CHILD_EXITED && c.code == 0) || (c.end == MC_CHILD_UNKNOWN && !out.len);
    if (!ok)
        tool_failure(log, "SPIR-V validator", tool, "MOSAIC_SPIRV_VAL to spirv-val", &c, &out);
    else
        mc_spirv_store_validated(w, size, &records);
    mosaic_strbuf_free(&out);
    mosaic_strbuf_free(&records);
    return ok ? CL_SUCCESS : CL_INVALID_VALUE;
}

/* ---- specialization constants ---------------------------------------------------- */

/* Visits the instructions after the header: fn(words of one instruction,
 * its word count, arg), which may change the words (w is always our copy).
 * The module passed spirv-val, yet the counts are checked: nothing is read
 * past the end. */
static void each_instruction(uint32_t *w, size_t nwords, void (*fn)(uint32_t *, uint32_t, void *), void *arg)
{
    for (size_t i = HEADER_WORDS; i < nwords;) {
        uint32_t count = w[i] >> 16;
        if (!count || count > nwords - i)
            return;
        fn(w + i, count, arg);
        i += count;
    }
}

typedef struct spec_scan {
    mosaic_spec_constant *specs; /* one per SpecId decoration, in order */
    uint32_t *targets;           /* the decorated result id of each */
    size_t count, cap;
    bool oom;
} spec_scan;

static void find_spec_ids(uint32_t *ins, uint32_t count, void *arg)
{
    spec_scan *s = arg;
    if ((ins[0] & 0xffffu) != OP_DECORATE || count < 4 || ins[2] != DECORATION_SPEC_ID || s->oom)
        return;
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        mosaic_spec_constant *specs = realloc(s->specs, cap * sizeof *specs);
        if (specs)
            s->specs = specs;
        uint32_t *targets = specs ? realloc(s->targets, cap * sizeof *targets) : NULL;
        if (!targets) {
            s->oom = true;
            return;
        }
        s->targets = targets;
        s->cap = cap;
    }
    s->targets[s->count] = ins[1];
    s->specs[s->count++] = (mosaic_spec_constant){.id = ins[3]};
}

/* The scalar types (OpTypeBool/Int/Float) a constant may have: a module
 * declares each width and signedness once, a handful in all. */
typedef struct scalar_type { uint32_t id, bytes; bool is_bool, is_signed; } scalar_type;
typedef struct type_scan { const spec_scan *s; scalar_type types[64]; size_t ntypes; } type_scan;

static void find_types(uint32_t *ins, uint32_t count, void *arg)
{
    type_scan *t = arg;
    uint32_t op = ins[0] & 0xffffu;
    if (t->ntypes == sizeof t->types / sizeof t->types[0] || count < 2)
        return;
    if (op == OP_TYPE_BOOL)
        t->types[t->ntypes++] = (scalar_type){.id = ins[1], .bytes = 1, .is_bool = true};
    else if ((op == OP_TYPE_INT && count >= 4) || (op == OP_TYPE_FLOAT && count >= 3))
        t->types[t->ntypes++] = (scalar_type){.id = ins[1], .bytes = ins[2] / 8,
                                              .is_signed = op == OP_TYPE_INT && ins[3]};
}

static const scalar_type *type_of(const type_scan *t, uint32_t id)
{
    for (size_t i = 0; i < t->ntypes; i++)
        if (t->types[i].id == id)
            return &t->types[i];
    return NULL;
}

/* Index of the SpecId decoration on result id `target`, or -1. */
static long spec_index(const spec_scan *s, uint32_t target)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->targets[i] == target)
            return (long)i;
    return -1;
}

/* The size of each decorated constant: 1 for a boolean, else its type's. */
static void find_sizes(uint32_t *ins, uint32_t count, void *arg)
{
    type_scan *t = arg;
    uint32_t op = ins[0] & 0xffffu;
    if ((op != OP_SPEC_CONSTANT_TRUE && op != OP_SPEC_CONSTANT_FALSE && op != OP_SPEC_CONSTANT) || count < 3)
        return;
    long i = spec_index(t->s, ins[2]);
    const scalar_type *ty = type_of(t, ins[1]);
    if (i >= 0 && ty)
        t->s->specs[i].size = ty->bytes;
}

/* Writes the values set into the module's words. */
typedef struct spec_patch { type_scan *t; const mosaic_spec_constant *values; size_t nvalues; } spec_patch;

static const mosaic_spec_constant *value_of(const spec_patch *p, uint32_t spec_id)
{
    for (size_t i = 0; i < p->nvalues; i++)
        if (p->values[i].id == spec_id && p->values[i].set)
            return &p->values[i];
    return NULL;
}

static void patch_value(uint32_t *ins, uint32_t count, void *arg)
{
    spec_patch *p = arg;
    uint32_t op = ins[0] & 0xffffu;
    if ((op != OP_SPEC_CONSTANT_TRUE && op != OP_SPEC_CONSTANT_FALSE && op != OP_SPEC_CONSTANT) || count < 3)
        return;
    long i = spec_index(p->t->s, ins[2]);
    const scalar_type *ty = type_of(p->t, ins[1]);
    const mosaic_spec_constant *v = i >= 0 && ty ? value_of(p, p->t->s->specs[i].id) : NULL;
    if (!v)
        return;
    if (op != OP_SPEC_CONSTANT) {
        ins[0] = (ins[0] & 0xffff0000u) | (v->value ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE);
        return;
    }
    uint64_t x = v->value;
    if (ty->bytes < 8) {
        /* narrower than its words: unsigned and float zero-extend, signed sign-extends */
        unsigned bits = ty->bytes * 8;
        x &= (1ull << bits) - 1;
        if (ty->is_signed && bits < 32 && (x >> (bits - 1) & 1))
            x |= ~0ull << bits;
    }
    ins[3] = (uint32_t)x;
    if (count >= 5)
        ins[4] = (uint32_t)(x >> 32);
}

/* Lists the module's specialization constants (words already checked). */
static cl_int list_spec_constants(uint32_t *w, size_t nwords, mosaic_spec_constant **out, size_t *nout,
                                  mosaic_strbuf *log)
{
    spec_scan s = {0};
    each_instruction(w, nwords, find_spec_ids, &s);
    if (s.oom) {
        free(s.specs);
        free(s.targets);
        return mc_out_of_memory(log);
    }
    type_scan t = {.s = &s};
    each_instruction(w, nwords, find_types, &t);
    each_instruction(w, nwords, find_sizes, &t);
    free(s.targets);
    /* a SpecId on something that is not a scalar constant (spirv-val allows
     * it on nothing else) keeps size 0 and is not listed */
    size_t n = 0;
    for (size_t i = 0; i < s.count; i++)
        if (s.specs[i].size)
            s.specs[n++] = s.specs[i];
    if (!n) {
        free(s.specs);
        s.specs = NULL;
    }
    *out = s.specs;
    *nout = n;
    return CL_SUCCESS;
}

/* The module with the values set written in (w is modified). */
static cl_int apply_spec_constants(uint32_t *w, size_t nwords, size_t nvalues, const mosaic_spec_constant *values,
                                   mosaic_strbuf *log)
{
    bool any = false;
    for (size_t i = 0; i < nvalues; i++)
        any |= values[i].set;
    if (!any)
        return CL_SUCCESS;
    spec_scan s = {0};
    each_instruction(w, nwords, find_spec_ids, &s);
    type_scan t = {.s = &s};
    each_instruction(w, nwords, find_types, &t);
    spec_patch p = {.t = &t, .values = values, .nvalues = nvalues};
    if (!s.oom)
        each_instruction(w, nwords, patch_value, &p);
    free(s.specs);
    free(s.targets);
    return s.oom ? mc_out_of_memory(log) : CL_SUCCESS;
}

cl_int mosaic_spirv_check(const void *il, size_t size, mosaic_spec_constant **specs, size_t *num_specs,
                          char **log_out)
{
    mosaic_strbuf log = {0};
    *specs = NULL;
    *num_specs = 0;
    uint32_t *w = il ? module_words(il, size) : NULL;
    cl_int r = il && size ? CL_SUCCESS : CL_INVALID_VALUE;
    if (r != CL_SUCCESS)
        mosaic_strbuf_puts(&log, "error: no SPIR-V module\n");
    else if (!w)
        r = mc_out_of_memory(&log);
    if (r == CL_SUCCESS)
        r = check_header(w, size, &log);
    /* a module that passed this validator before (spirv_cache.c) is not validated again */
    bool known = r == CL_SUCCESS && mc_spirv_validated(w, size);
    if (mosaic_settings()->debug && r == CL_SUCCESS && mc_cache_enabled())
        fprintf(stderr, "mosaic: SPIR-V validation cache %s\n", known ? "hit" : "miss");
    if (r == CL_SUCCESS && !known)
        r = validate(w, size, &log);
    if (r == CL_SUCCESS)
        r = list_spec_constants(w, size / 4, specs, num_specs, &log);
    free(w);
    return mc_finish_log(&log, r, log_out, "SPIR-V check");
}

/* ---- translation ------------------------------------------------------------------ */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}


/* llvm-spirv-15 -r in a private directory: the module (its stdin, read as
 * /dev/stdin: it reads no standard input of its own) to out.bc there. */
static cl_int translate(const uint32_t *w, size_t size, mosaic_strbuf *bitcode, mosaic_strbuf *log)
{
    const char *tool = mosaic_settings()->llvm_spirv;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/mosaic-spirv-XXXXXX", mosaic_settings()->tmpdir);
    if (!mkdtemp(dir)) {
        snprintf(dir, sizeof dir, "/tmp/mosaic-spirv-XXXXXX");
        if (!mkdtemp(dir)) {
            mosaic_strbuf_printf(log, "error: cannot create a temporary directory: %s\n", strerror(errno));
            return CL_COMPILE_PROGRAM_FAILURE;
        }
    }
    int fd = memory_file(w, size);
    cl_int r = CL_SUCCESS;
    if (fd < 0) {
        mosaic_strbuf_printf(log, "error: cannot hand the module to the SPIR-V translator: %s\n", strerror(errno));
        r = CL_OUT_OF_HOST_MEMORY;
    } else {
        const char *argv[] = {tool, "-r", "--spirv-target-env=CL2.0", "/dev/stdin", "-o", "out.bc", NULL};
        /* a build step: MOSAIC_BUILD_TIMEOUT_S, as clang */
        int timeout_ms = (int)(mosaic_settings()->build_timeout_s * 1000);
        mc_child c = {.dir = dir, .stdin_fd = fd, .timeout_ms = timeout_ms, .max_memory = TOOL_MEMORY(size)};
        mosaic_strbuf out = {0};
        mc_run_child(argv, &c, &out);
        close(fd);
        bool exited_ok = (c.end == MC_CHILD_EXITED && c.code == 0) || c.end == MC_CHILD_UNKNOWN;
        char path[4200];
        snprintf(path, sizeof path, "%s/out.bc", dir);
        if (exited_ok)
            mc_read_whole_file(path, bitcode);
        if (!exited_ok || !bitcode->len) {
            tool_failure(log, "SPIR-V translator", tool, "MOSAIC_LLVM_SPIRV to llvm-spirv-15", &c, &out);
            r = CL_COMPILE_PROGRAM_FAILURE;
        } else if (bitcode->oom) {
            r = mc_out_of_memory(log);
        }
        mosaic_strbuf_free(&out);
    }
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return r;
}

/* A function or variable SPIR-V left without a name (no OpName) is
 * anonymous in the translator's module (@0); the rest of the compiler finds
 * functions by name, so each gets one (LLVM makes them unique). */
static void name_anonymous_symbols(LLVMModuleRef m)
{
    size_t len;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMGetValueName2(f, &len), !len)
            LLVMSetValueName2(f, "__mosaic_spirv_function", strlen("__mosaic_spirv_function"));
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (LLVMGetValueName2(g, &len), !len)
            LLVMSetValueName2(g, "__mosaic_spirv_variable", strlen("__mosaic_spirv_variable"));
}

/* SPIR-V's DontInline function control becomes noinline on the function
 * and on each call of it; finalize takes it off functions (clang puts it on
 * no call), so the calls lose it here. */
static void drop_call_noinline(LLVMModuleRef m)
{
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                if (LLVMIsACallInst(i))
                    LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, noinline);
}

/* The translator's bitcode, verified, its printf calls lowered (as clang's
 * are in the front end), as a compiled object. */
static cl_int make_object(const mosaic_compiler_target *target, const mosaic_strbuf *bc, mosaic_bitcode *out,
                          mosaic_strbuf *log)
{
    LLVMContextRef ctx = mc_context_create(log);
    if (!ctx)
        return mc_out_of_memory(log);
    cl_int r = CL_SUCCESS;
    LLVMModuleRef m = NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bc->data, bc->len, "spirv", 0);
    char *msg = NULL;
    if (!buf) {
        r = mc_out_of_memory(log);
    } else if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
        m = NULL;
        mosaic_strbuf_puts(log, "error: cannot read the SPIR-V translator's bitcode\n");
        r = CL_COMPILE_PROGRAM_FAILURE;
    } else if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        size_t n = msg ? strcspn(msg, "\n") : 0;
        mosaic_strbuf_printf(log, "error: the SPIR-V translator made an invalid module: %.*s\n",
                             (int)(n > 300 ? 300 : n), msg ? msg : "");
        r = CL_COMPILE_PROGRAM_FAILURE;
    }
    LLVMDisposeMessage(msg);
    if (r == CL_SUCCESS) {
        name_anonymous_symbols(m);
        drop_call_noinline(m);
    }
    if (r == CL_SUCCESS && mc_target_has_symbol(target, "__mosaic_printf"))
        r = mc_lower_printf(m, log);
    if (r == CL_SUCCESS)
        r = mc_module_to_blob(m, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, out, log);
    if (buf)
        LLVMDisposeMemoryBuffer(buf);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return r;
}

cl_int mosaic_compile_spirv(const mosaic_compiler_target *target, const void *il, size_t size, const char *options,
                            size_t num_specs, const mosaic_spec_constant *specs, mosaic_bitcode *out, char **log_out)
{
    mosaic_strbuf log = {0};
    if (out)
        memset(out, 0, sizeof *out);
    /* The compile options are checked as for source; those that act on
     * source (-D, -I, -cl-std, warnings) have nothing to act on here, and
     * the code generation ones take effect at finalize. */
    mc_options opts = {0};
    cl_int r = mc_parse_options(options, MC_OPTIONS_COMPILE, &opts, &log);
    mc_free_options(&opts);
    uint32_t *w = NULL;
    if (r == CL_SUCCESS && (!il || !out)) {
        mosaic_strbuf_puts(&log, "error: no SPIR-V module to compile\n");
        r = CL_COMPILE_PROGRAM_FAILURE;
    }
    if (r == CL_SUCCESS && !(w = module_words(il, size)))
        r = mc_out_of_memory(&log);
    if (r == CL_SUCCESS && check_header(w, size, &log) != CL_SUCCESS)
        r = CL_COMPILE_PROGRAM_FAILURE;
    if (r == CL_SUCCESS)
        r = apply_spec_constants(w, size / 4, num_specs, specs, &log);
    /* the same words translated before, by the same translator (spirv_cache.c) */
    mc_cache_key key;
    bool cached = r == CL_SUCCESS && mc_cache_enabled(), hit = false;
    if (cached) {
        mc_spirv_object_key(target, w, size, mc_target_has_symbol(target, "__mosaic_printf"), &key);
        hit = mc_spirv_cached_object(&key, out);
        if (mosaic_settings()->debug)
            fprintf(stderr, "mosaic: SPIR-V translation cache %s\n", hit ? "hit" : "miss");
    }
    mosaic_strbuf bc = {0}, records = {0};
    if (cached && !hit)
        mc_tool_files(mosaic_settings()->llvm_spirv, &records); /* what this translator is, before it runs */
    if (r == CL_SUCCESS && !hit)
        r = translate(w, size, &bc, &log);
    if (r == CL_SUCCESS && !hit)
        r = make_object(target, &bc, out, &log);
    if (r == CL_SUCCESS && cached && !hit)
        mc_spirv_store_object(&key, &records, out);
    mosaic_strbuf_free(&bc);
    mosaic_strbuf_free(&records);
    free(w);
    return mc_finish_log(&log, r, log_out, "compile");
}
