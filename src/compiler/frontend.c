/* The front end: OpenCL C source -> spir64 bitcode, by running clang-16 as a
 * child process in a private temporary directory.
 *
 * The directory keeps the user's headers apart from the compiler's files, so
 * that no include name can replace one of them:
 *   DIR/include/   the embedded headers under their include names; clang's
 *                  working directory and its only -I
 *   DIR/           the source, the prelude, clang's arguments (a response
 *                  file) and its output
 * The source reaches clang on its standard input: a quoted #include looks
 * first beside the including file, which for standard input is the working
 * directory, the headers' own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>

#include "compiler/compiler_internal.h"

#ifndef MOSAIC_CLANG_PATH
#define MOSAIC_CLANG_PATH "clang-16"
#endif

static int write_file(const char *path, const char *text, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    while (n) {
        ssize_t w = write(fd, text, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        text += w;
        n -= (size_t)w;
    }
    return close(fd);
}

static int read_file(const char *path, char **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    mosaic_strbuf s = {0};
    char buf[65536];
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        mosaic_strbuf_append(&s, buf, (size_t)r);
    }
    close(fd);
    if (s.oom) {
        mosaic_strbuf_free(&s);
        return -1;
    }
    *size = s.len;
    *data = mosaic_strbuf_take(&s);
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Writes a header under its include name ("dir/x.h" makes dir/). */
static int write_header(const char *dir, const mosaic_header *h, mosaic_strbuf *log)
{
    const char *name = h->include_name;
    if (!name || !*name || !h->source) {
        mosaic_strbuf_puts(log, "error: a header has no name or no source\n");
        return -1;
    }
    while (*name == '/')
        name++;
    if (!strcmp(name, "..") || !strncmp(name, "../", 3) || strstr(name, "/../") ||
        (strlen(name) >= 3 && !strcmp(name + strlen(name) - 3, "/.."))) {
        mosaic_strbuf_printf(log, "error: header name '%s' leaves the include directory\n", h->include_name);
        return -1;
    }
    mosaic_strbuf path = {0};
    mosaic_strbuf_printf(&path, "%s/%s", dir, name);
    if (path.oom)
        return -1;
    for (char *p = path.data + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        mkdir(path.data, 0700);
        *p = '/';
    }
    int r = write_file(path.data, h->source, strlen(h->source));
    if (r)
        mosaic_strbuf_printf(log, "error: cannot write header '%s': %s\n", h->include_name, strerror(errno));
    mosaic_strbuf_free(&path);
    return r;
}

/* Writes clang's arguments as a response file (clang @file): option
 * strings of any length, where a command line stops at the kernel's limits
 * (E2BIG).  Each argument is double-quoted, with \\ and " escaped. */
static int write_response_file(const char *path, const char *const *args, size_t count, mosaic_strbuf *log)
{
    mosaic_strbuf text = {0};
    for (size_t i = 0; i < count; i++) {
        mosaic_strbuf_puts(&text, "\"");
        for (const char *a = args[i]; *a; a++) {
            size_t n = strcspn(a, "\\\"");
            mosaic_strbuf_append(&text, a, n);
            a += n;
            if (!*a)
                break;
            mosaic_strbuf_append(&text, "\\", 1);
            mosaic_strbuf_append(&text, a, 1);
        }
        mosaic_strbuf_puts(&text, "\"\n");
    }
    int r = text.oom ? -1 : write_file(path, text.data, text.len);
    if (r)
        mosaic_strbuf_printf(log, "error: cannot write the compiler's arguments to %s: %s\n", path, strerror(errno));
    mosaic_strbuf_free(&text);
    return r;
}

/* Replaces every occurrence of `from` in s by `to`. */
static void replace_all(mosaic_strbuf *s, const char *from, const char *to)
{
    if (!s->data || !*from)
        return;
    mosaic_strbuf out = {0};
    size_t fl = strlen(from);
    const char *p = s->data, *q;
    while ((q = strstr(p, from))) {
        mosaic_strbuf_append(&out, p, (size_t)(q - p));
        mosaic_strbuf_puts(&out, to);
        p = q + fl;
    }
    mosaic_strbuf_puts(&out, p);
    if (out.oom) {
        mosaic_strbuf_free(&out);
        return;
    }
    mosaic_strbuf_free(s);
    *s = out;
}

/* ---- the feature prelude ------------------------------------------------------
 * clang 16 defines some feature and extension macros for every SPIR target,
 * whatever -cl-ext says: __IMAGE_SUPPORT__ (a predefined macro), and in its
 * default header (opencl-c-base.h) the sub-group, bit-operation, dot-product
 * and float-atomic extensions for OpenCL C 2.0 and later, every OpenCL C 3.0
 * feature for 2.0, and the "header-only" 3.0 features (read-write images,
 * collectives, seq_cst, device and all-devices scopes).  A kernel testing
 * `#ifdef __IMAGE_SUPPORT__` or `#ifdef cl_khr_subgroup_ballot` must see what
 * the device reports, so a prelude header, included after the default header
 * (clang processes -include files after it), undefines each of these the
 * device's -cl-ext list does not name. */
static const char *const spir_default_macros[] = {
    "__IMAGE_SUPPORT__", /* kept when the device has __opencl_c_images */
    "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate", "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product", "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed", "cl_ext_float_atomics",
    "__opencl_c_ext_fp16_global_atomic_load_store", "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add", "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max", "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max", "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add", "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp64_local_atomic_min_max",
    "__opencl_c_pipes", "__opencl_c_generic_address_space", "__opencl_c_work_group_collective_functions",
    "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices", "__opencl_c_device_enqueue", "__opencl_c_read_write_images",
    "__opencl_c_program_scope_global_variables", "__opencl_c_images",
};

#define PRELUDE_NAME "__mosaic_prelude.h"

/* Is `name` switched on by the -cl-ext=... words of the device's feature options? */
static bool device_has(char **feat, size_t nfeat, const char *name)
{
    int on = 0;
    size_t len = strlen(name);
    for (size_t i = 0; i < nfeat; i++) {
        if (strncmp(feat[i], "-cl-ext=", 8))
            continue;
        for (const char *p = feat[i] + 8; *p;) {
            size_t n = strcspn(p, ",");
            if (n == 4 && !strncmp(p, "-all", 4))
                on = 0;
            else if (n == 4 && !strncmp(p, "+all", 4))
                on = 1;
            else if (n == len + 1 && (*p == '+' || *p == '-') && !strncmp(p + 1, name, len))
                on = *p == '+';
            p += n + (p[n] == ',');
        }
    }
    return on;
}

/* Writes the prelude (see above) into dir. */
static int write_prelude(const char *dir, char **feat, size_t nfeat, mosaic_strbuf *log)
{
    mosaic_strbuf text = {0}, path = {0};
    mosaic_strbuf_puts(&text, "/* Mosaic: feature macros the device does not report */\n");
    for (size_t i = 0; i < sizeof spir_default_macros / sizeof spir_default_macros[0]; i++) {
        const char *m = spir_default_macros[i];
        if (!device_has(feat, nfeat, strcmp(m, "__IMAGE_SUPPORT__") ? m : "__opencl_c_images"))
            mosaic_strbuf_printf(&text, "#undef %s\n", m);
    }
    mosaic_strbuf_printf(&path, "%s/" PRELUDE_NAME, dir);
    int r = text.oom || path.oom ? -1 : write_file(path.data, text.data, text.len);
    if (r)
        mosaic_strbuf_printf(log, "error: cannot write the feature prelude: %s\n", strerror(errno));
    mosaic_strbuf_free(&text);
    mosaic_strbuf_free(&path);
    return r;
}

/* Does the device take OpenCL C printf through __mosaic_printf (compiler.h)? */
static int wants_printf_lowering(const mosaic_compiler_target *target)
{
    for (size_t i = 0; target && i < target->num_runtime_symbols; i++)
        if (target->runtime_symbols[i].name && !strcmp(target->runtime_symbols[i].name, "__mosaic_printf"))
            return 1;
    return 0;
}

/* clang's bitcode with its printf calls lowered (printf.c), as a compiled object. */
static cl_int lower_printf(const char *bc, size_t size, mosaic_bitcode *out, mosaic_strbuf *log)
{
    LLVMContextRef ctx = mc_context_create(log);
    if (!ctx)
        return mc_out_of_memory(log);
    cl_int r = CL_COMPILE_PROGRAM_FAILURE;
    LLVMModuleRef m = NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bc, size, "input", 0);
    if (!buf) {
        r = mc_out_of_memory(log);
    } else if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
        m = NULL;
        mosaic_strbuf_puts(log, "error: cannot read the OpenCL C compiler's bitcode\n");
    } else {
        r = mc_lower_printf(m, log);
        if (r == CL_SUCCESS)
            r = mc_module_to_blob(m, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, out, log);
    }
    if (buf)
        LLVMDisposeMemoryBuffer(buf);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return r;
}

cl_int mosaic_compile_source(const mosaic_compiler_target *target, const char *source, const char *options,
                             size_t num_headers, const mosaic_header *headers, mosaic_bitcode *out, char **log_out)
{
    mosaic_strbuf log = {0};
    mc_options opts;
    cl_int r = CL_SUCCESS;
    char dir[4096] = "";
    char **feat = NULL;
    size_t nfeat = 0;
    const char **args = NULL;
    mosaic_strbuf clang_log = {0};
    char *bc = NULL;
    size_t bc_size = 0;

    if (out)
        memset(out, 0, sizeof *out);
    r = mc_parse_options(options, MC_OPTIONS_COMPILE, &opts, &log);
    if (r != CL_SUCCESS)
        return mc_finish_log(&log, r, log_out, "compile");
    if (!source || !out) {
        mosaic_strbuf_puts(&log, "error: no source to compile\n");
        r = CL_COMPILE_PROGRAM_FAILURE;
        goto done;
    }
    /* The device's feature options (-cl-ext=... goes to clang's front end through -Xclang). */
    r = mc_split_words(target ? target->clang_features : NULL, "the device's clang feature string",
                       CL_COMPILE_PROGRAM_FAILURE, &feat, &nfeat, &log);
    if (r != CL_SUCCESS)
        goto done;

    snprintf(dir, sizeof dir, "%s/mosaic-XXXXXX", mosaic_settings()->tmpdir);
    if (!mkdtemp(dir)) {
        snprintf(dir, sizeof dir, "/tmp/mosaic-XXXXXX");
        if (!mkdtemp(dir)) {
            mosaic_strbuf_printf(&log, "error: cannot create a temporary directory: %s\n", strerror(errno));
            dir[0] = 0;
            r = CL_COMPILE_PROGRAM_FAILURE;
            goto done;
        }
    }
    char input[4200], output[4200], include[4200], args_path[4200];
    snprintf(input, sizeof input, "%s/source.cl", dir);
    snprintf(output, sizeof output, "%s/out.bc", dir);
    snprintf(include, sizeof include, "%s/include", dir);
    snprintf(args_path, sizeof args_path, "%s/clang.args", dir);
    if (write_file(input, source, strlen(source)) || mkdir(include, 0700)) {
        mosaic_strbuf_printf(&log, "error: cannot write the source to %s: %s\n", dir, strerror(errno));
        r = CL_COMPILE_PROGRAM_FAILURE;
        goto done;
    }
    for (size_t i = 0; i < num_headers; i++)
        if (write_header(include, &headers[i], &log)) {
            r = CL_COMPILE_PROGRAM_FAILURE;
            goto done;
        }
    if (write_prelude(dir, feat, nfeat, &log)) {
        r = CL_COMPILE_PROGRAM_FAILURE;
        goto done;
    }

    const char *clang = mosaic_settings()->clang;
    size_t max = 32 + 2 * (size_t)nfeat + opts.num_clang_args;
    args = calloc(max, sizeof *args);
    if (!args) {
        r = mc_out_of_memory(&log);
        goto done;
    }
    size_t k = 0;
    static const char *const fixed[] = {
        "-x", "cl", "-target", "spir64-unknown-unknown", "-Xclang", "-finclude-default-header",
        "-Xclang", "-fdeclare-opencl-builtins", "-cl-kernel-arg-info", "-emit-llvm", "-c",
        "-fno-color-diagnostics",
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        args[k++] = fixed[i];
    for (size_t i = 0; i < nfeat; i++) {
        if (!strncmp(feat[i], "-cl-ext=", 8))
            args[k++] = "-Xclang";
        args[k++] = feat[i];
    }
    if (!opts.cl_std)
        args[k++] = "-cl-std=CL1.2"; /* the OpenCL rule when -cl-std is not given */
    if (!opts.opt_disable) {
        /* Optimisation attributes, but no passes: everything is optimised once,
         * with the builtins, at finalize time. */
        args[k++] = "-O2";
        args[k++] = "-Xclang";
        args[k++] = "-disable-llvm-passes";
    }
    for (size_t i = 0; i < opts.num_clang_args; i++)
        args[k++] = opts.clang_args[i];
    /* clang runs in DIR/include and sees relative names only, so the bitcode
     * is the same for the same source (the kernel cache's key). */
    args[k++] = "-I";
    args[k++] = ".";
    args[k++] = "-include";
    args[k++] = "../" PRELUDE_NAME;
    args[k++] = "-o";
    args[k++] = "../out.bc";
    args[k++] = "-"; /* the source, on standard input */
    if (write_response_file(args_path, args, k, &log)) {
        r = CL_COMPILE_PROGRAM_FAILURE;
        goto done;
    }
    const char *const clang_argv[] = { clang, "@../clang.args", NULL };
    mc_child child = {.dir = include, .stdin_fd = open(input, O_RDONLY | O_CLOEXEC)};
    if (child.stdin_fd < 0) {
        child.end = MC_CHILD_NOT_STARTED;
        child.code = errno;
    } else {
        mc_run_child(clang_argv, &child, &clang_log);
        close(child.stdin_fd);
    }
    if (child.end == MC_CHILD_NOT_STARTED) {
        mosaic_strbuf_printf(&log, "error: cannot run the OpenCL C compiler '%s': %s (set MOSAIC_CLANG to "
                                   "clang-16)\n", clang, strerror(child.code));
        r = CL_COMPILE_PROGRAM_FAILURE;
        goto done;
    }
    /* Diagnostics name the user's source "<source>" and headers by include name. */
    replace_all(&clang_log, "<stdin>:", "<source>:");
    replace_all(&clang_log, "\n./", "\n");
    replace_all(&clang_log, "from ./", "from ");
    if (clang_log.len > 2 && !strncmp(clang_log.data, "./", 2)) {
        memmove(clang_log.data, clang_log.data + 2, clang_log.len - 1);
        clang_log.len -= 2;
    }
    if (clang_log.len)
        mosaic_strbuf_append(&log, clang_log.data, clang_log.len);
    bool exited_ok = (child.end == MC_CHILD_EXITED && child.code == 0) || child.end == MC_CHILD_UNKNOWN;
    if (!exited_ok || read_file(output, &bc, &bc_size) || bc_size == 0) {
        if (child.end == MC_CHILD_SIGNALED)
            mosaic_strbuf_printf(&log, "error: the OpenCL C compiler was killed by signal %d\n", child.code);
        else if (!clang_log.len)
            mosaic_strbuf_puts(&log, "error: the OpenCL C compiler failed without a message\n");
        r = CL_COMPILE_PROGRAM_FAILURE;
        goto done;
    }
    if (wants_printf_lowering(target) && memmem(bc, bc_size, "printf", 6))
        r = lower_printf(bc, bc_size, out, &log);
    else
        r = mc_blob_wrap(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, bc, bc_size, out, &log);

done:
    if (dir[0])
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(bc);
    free(args);
    mosaic_strbuf_free(&clang_log);
    mc_free_words(feat, nfeat);
    mc_free_options(&opts);
    return mc_finish_log(&log, r, log_out, "compile");
}
