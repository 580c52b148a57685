/* The front end: OpenCL C source -> spir64 bitcode (a GPU's: nvptx64, its
 * target's triple), by running clang-16 as a child process in a private
 * temporary directory.
 *
 * The directory keeps the user's headers apart from the compiler's files, so
 * that no include name can replace one of them:
 *   DIR/include/   the embedded headers under their include names; clang's
 *                  working directory and its first -I after the user's
 *   DIR/           the source, the prelude, clang's arguments (a response
 *                  file) and its output
 * The source reaches clang on its standard input: a quoted #include looks
 * first beside the including file, which for standard input is the working
 * directory, the headers' own.  The application's working directory comes
 * last (make_clang_arguments), as a compiler running inside the
 * application would search it.
 *
 * Before any of this, the front end's cache (direct_cache.c) may have the
 * compiled object already: then clang does not run. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>

#include "base/settings.h"
#include "compiler/cache/cache.h"
#include "compiler/cache/direct_cache.h"
#include "compiler/frontend/binary.h"
#include "compiler/frontend/child.h"
#include "compiler/frontend/frontend.h"
#include "compiler/frontend/options.h"
#include "compiler/frontend/printf.h"
#include "compiler/frontend/work_dir.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"

/* What mosaic_compile_source works with, phase after phase. */
typedef struct compile_job {
    const mosaic_compiler_target *target;
    mosaic_strbuf *log;
    mc_options opts;
    char **feat;              /* the device's clang feature options */
    size_t nfeat;
    char dir[4096];           /* the temporary directory, "" until it exists */
    int dir_lock;             /* held while it is in use (work_dir.c) */
    char input[4200], output[4200], include[4200], args_path[4200], deps_path[4200];
    mosaic_strbuf prelude;    /* the prelude's text */
    mosaic_strbuf args;       /* clang's arguments: the response file's text */
    bool cached;              /* the front end's cache is on for this compilation */
    mc_cache_key key;         /* its key there */
    struct timespec started;
    mc_child child;           /* clang */
    mosaic_strbuf clang_log;  /* what it printed */
    char *bc;                 /* what it wrote */
    size_t bc_size;
} compile_job;

/* Writes n bytes of text to a new file at path.  Failing is
 * CL_COMPILE_PROGRAM_FAILURE, logged as "cannot write <what>: <errno>". */
static cl_int write_file(const char *path, const char *text, size_t n, mosaic_strbuf *log, const char *what, ...)
    __attribute__((format(printf, 5, 6)));
static cl_int write_file(const char *path, const char *text, size_t n, mosaic_strbuf *log, const char *what, ...)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    bool written = fd >= 0;
    while (written && n) {
        ssize_t w = write(fd, text, n);
        if (w < 0 && errno == EINTR)
            continue;
        written = w >= 0;
        if (written) {
            text += w;
            n -= (size_t)w;
        }
    }
    int err = errno;
    if (fd >= 0 && close(fd) && written)
        written = false, err = errno;
    if (written)
        return CL_SUCCESS;
    va_list ap;
    va_start(ap, what);
    mosaic_strbuf_puts(log, "error: cannot write ");
    mosaic_strbuf_vprintf(log, what, ap);
    mosaic_strbuf_printf(log, ": %s\n", strerror(err));
    va_end(ap);
    return CL_COMPILE_PROGRAM_FAILURE;
}

/* The contents of the file at path (none, *size 0, when there is no such file). */
static cl_int read_file(const char *path, char **data, size_t *size, mosaic_strbuf *log)
{
    *data = NULL;
    *size = 0;
    mosaic_strbuf s = {0};
    mc_read_whole_file(path, &s);
    if (s.oom) {
        mosaic_strbuf_free(&s);
        return mc_out_of_memory(log);
    }
    *size = s.len;
    *data = mosaic_strbuf_take(&s);
    return CL_SUCCESS;
}

/* Writes a header under its include name ("dir/x.h" makes dir/). */
static cl_int write_header(const char *dir, const mosaic_header *h, mosaic_strbuf *log)
{
    const char *name = h->include_name;
    if (!name || !*name || !h->source) {
        mosaic_strbuf_puts(log, "error: a header has no name or no source\n");
        return CL_COMPILE_PROGRAM_FAILURE;
    }
    while (*name == '/')
        name++;
    if (!strcmp(name, "..") || !strncmp(name, "../", 3) || strstr(name, "/../") ||
        (strlen(name) >= 3 && !strcmp(name + strlen(name) - 3, "/.."))) {
        mosaic_strbuf_printf(log, "error: header name '%s' leaves the include directory\n", h->include_name);
        return CL_COMPILE_PROGRAM_FAILURE;
    }
    mosaic_strbuf path = {0};
    mosaic_strbuf_printf(&path, "%s/%s", dir, name);
    if (path.oom) {
        mosaic_strbuf_free(&path);
        return mc_out_of_memory(log);
    }
    for (char *p = path.data + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        mkdir(path.data, 0700);
        *p = '/';
    }
    cl_int r = write_file(path.data, h->source, strlen(h->source), log, "header '%s'", h->include_name);
    mosaic_strbuf_free(&path);
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

/* Appends arg to a response file's text: double-quoted, with \ and " escaped. */
static void append_quoted(mosaic_strbuf *text, const char *arg)
{
    mosaic_strbuf_puts(text, "\"");
    for (const char *a = arg; *a; a++) {
        size_t n = strcspn(a, "\\\"");
        mosaic_strbuf_append(text, a, n);
        a += n;
        if (!*a)
            break;
        mosaic_strbuf_append(text, "\\", 1);
        mosaic_strbuf_append(text, a, 1);
    }
    mosaic_strbuf_puts(text, "\"\n");
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
 * device's -cl-ext list does not name.  On other targets (the GPU's
 * nvptx64) it defines the extensions' macros the list names, as the default
 * header would for SPIR: the built-in declarations follow them. */
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

/* OpenCL C 3.0 features clang 16 takes in -cl-ext but defines no macro for:
 * the prelude defines them (OpenCL C 3.0 only, as the spec says) when the
 * device has them. */
static const char *const undefined_feature_macros[] = {
    "__opencl_c_fp16",
};

/* Extensions and their features that clang 16 takes in -cl-ext but defines
 * no macro for: the prelude defines them, in every OpenCL C version, when the
 * device has them.  cl_khr_expect_assume's built-ins are clang's own
 * (__builtin_expect, __builtin_assume); cl_khr_kernel_clock's are declared
 * below and defined by builtins/kernel_clock.cl. */
static const char *const undefined_extension_macros[] = {
    "cl_khr_expect_assume",
    "cl_khr_kernel_clock",
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group",
};

/* Declarations of the built-ins of extensions clang 16 does not know, each
 * with the feature or extension macro that brings it. */
static const struct { const char *macro, *declarations; } undeclared_builtins[] = {
    { "__opencl_c_kernel_clock_scope_device",
      "ulong __attribute__((overloadable)) clock_read_device(void);\n"
      "uint2 __attribute__((overloadable)) clock_read_hilo_device(void);\n" },
    { "__opencl_c_kernel_clock_scope_work_group",
      "ulong __attribute__((overloadable)) clock_read_work_group(void);\n"
      "uint2 __attribute__((overloadable)) clock_read_hilo_work_group(void);\n" },
    { "__opencl_c_kernel_clock_scope_sub_group",
      "ulong __attribute__((overloadable)) clock_read_sub_group(void);\n"
      "uint2 __attribute__((overloadable)) clock_read_hilo_sub_group(void);\n" },
    /* on the OpenCL C 2.0 collectives: its macro too, with them */
    { "cl_khr_work_group_uniform_arithmetic",
      "#if __OPENCL_C_VERSION__ >= 200 && defined(__opencl_c_work_group_collective_functions)\n"
      "#define cl_khr_work_group_uniform_arithmetic 1\n"
      "#define __MOSAIC_WG(T, OP) T __attribute__((overloadable)) work_group_reduce_##OP(T); \\\n"
      "  T __attribute__((overloadable)) work_group_scan_inclusive_##OP(T); \\\n"
      "  T __attribute__((overloadable)) work_group_scan_exclusive_##OP(T);\n"
      "#define __MOSAIC_WG_INT(T) __MOSAIC_WG(T, and) __MOSAIC_WG(T, or) __MOSAIC_WG(T, xor) __MOSAIC_WG(T, mul)\n"
      "__MOSAIC_WG_INT(int) __MOSAIC_WG_INT(uint) __MOSAIC_WG_INT(long) __MOSAIC_WG_INT(ulong)\n"
      "__MOSAIC_WG(float, mul)\n"
      "#ifdef cl_khr_fp64\n__MOSAIC_WG(double, mul)\n#endif\n"
      "#ifdef cl_khr_fp16\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__MOSAIC_WG(half, mul)\n"
      "#pragma OPENCL EXTENSION cl_khr_fp16 : disable\n#endif\n"
      "__MOSAIC_WG(int, logical_and) __MOSAIC_WG(int, logical_or) __MOSAIC_WG(int, logical_xor)\n"
      "#undef __MOSAIC_WG_INT\n#undef __MOSAIC_WG\n"
      "#endif\n" },
};

/* cl_khr_extended_bit_ops' and cl_khr_integer_dot_product's functions, which
 * clang 16 declares for SPIR only: declared again for other targets (the
 * GPU's nvptx64) that have the extensions; the same declarations twice are
 * one function. */
static const char bit_ops_declarations[] =
    "#ifdef cl_khr_extended_bit_ops\n"
    "#define __MOSAIC_OC __attribute__((overloadable, const))\n"
    "#define __MOSAIC_BO(S, U, W) \\\n"
    "  S##W __MOSAIC_OC bitfield_insert(S##W, S##W, uint, uint); U##W __MOSAIC_OC bitfield_insert(U##W, U##W, uint, uint); \\\n"
    "  S##W __MOSAIC_OC bitfield_extract_signed(S##W, uint, uint); S##W __MOSAIC_OC bitfield_extract_signed(U##W, uint, uint); \\\n"
    "  U##W __MOSAIC_OC bitfield_extract_unsigned(S##W, uint, uint); U##W __MOSAIC_OC bitfield_extract_unsigned(U##W, uint, uint); \\\n"
    "  S##W __MOSAIC_OC bit_reverse(S##W); U##W __MOSAIC_OC bit_reverse(U##W);\n"
    "#define __MOSAIC_BOW(S, U) __MOSAIC_BO(S, U, ) __MOSAIC_BO(S, U, 2) __MOSAIC_BO(S, U, 3) __MOSAIC_BO(S, U, 4) \\\n"
    "  __MOSAIC_BO(S, U, 8) __MOSAIC_BO(S, U, 16)\n"
    "__MOSAIC_BOW(char, uchar) __MOSAIC_BOW(short, ushort) __MOSAIC_BOW(int, uint) __MOSAIC_BOW(long, ulong)\n"
    "#undef __MOSAIC_BOW\n#undef __MOSAIC_BO\n#undef __MOSAIC_OC\n"
    "#endif\n";
static const char integer_dot_declarations[] =
    "#define __MOSAIC_OC __attribute__((overloadable, const))\n"
    "#ifdef __opencl_c_integer_dot_product_input_4x8bit\n"
    "uint __MOSAIC_OC dot(uchar4, uchar4); int __MOSAIC_OC dot(char4, char4);\n"
    "int __MOSAIC_OC dot(uchar4, char4); int __MOSAIC_OC dot(char4, uchar4);\n"
    "uint __MOSAIC_OC dot_acc_sat(uchar4, uchar4, uint); int __MOSAIC_OC dot_acc_sat(char4, char4, int);\n"
    "int __MOSAIC_OC dot_acc_sat(uchar4, char4, int); int __MOSAIC_OC dot_acc_sat(char4, uchar4, int);\n"
    "#endif\n"
    "#ifdef __opencl_c_integer_dot_product_input_4x8bit_packed\n"
    "uint __MOSAIC_OC dot_4x8packed_uu_uint(uint, uint); int __MOSAIC_OC dot_4x8packed_ss_int(uint, uint);\n"
    "int __MOSAIC_OC dot_4x8packed_us_int(uint, uint); int __MOSAIC_OC dot_4x8packed_su_int(uint, uint);\n"
    "uint __MOSAIC_OC dot_acc_sat_4x8packed_uu_uint(uint, uint, uint);\n"
    "int __MOSAIC_OC dot_acc_sat_4x8packed_ss_int(uint, uint, int);\n"
    "int __MOSAIC_OC dot_acc_sat_4x8packed_us_int(uint, uint, int);\n"
    "int __MOSAIC_OC dot_acc_sat_4x8packed_su_int(uint, uint, int);\n"
    "#endif\n"
    "#undef __MOSAIC_OC\n";

/* Where a sub-group is hardware lanes (the GPU's warps), a non-uniform
 * sub-group function works on the lanes active at the call.  Two identical
 * calls in the two arms of an if are one call to LLVM's optimiser, which
 * hoists or sinks them into one call that every lane reaches (a convergent
 * call may lose control dependences).  The functions whose result depends
 * on which lanes take part (votes, ballots, reductions and scans), declared
 * again as nomerge, stay where the source put them; shuffles and broadcasts
 * give each lane the same value either way. */
static const char non_uniform_nomerge[] =
    "#if __OPENCL_C_VERSION__ >= 200 && defined(cl_khr_subgroups)\n"
    "#define __MOSAIC_NM __attribute__((overloadable, nomerge))\n"
    "#define __MOSAIC_INTEGERS(X) X(char) X(uchar) X(short) X(ushort) X(int) X(uint) X(long) X(ulong)\n"
    "#if defined(cl_khr_fp64)\n#define __MOSAIC_DOUBLE(X) X(double)\n#else\n#define __MOSAIC_DOUBLE(X)\n#endif\n"
    "#define __MOSAIC_SCALARS(X) __MOSAIC_INTEGERS(X) X(float) __MOSAIC_DOUBLE(X)\n"
    "#ifdef cl_khr_subgroup_non_uniform_vote\n"
    "int __MOSAIC_NM sub_group_elect(void); int __MOSAIC_NM sub_group_non_uniform_all(int);\n"
    "int __MOSAIC_NM sub_group_non_uniform_any(int);\n"
    "#define __MOSAIC_X(T) int __MOSAIC_NM sub_group_non_uniform_all_equal(T);\n"
    "__MOSAIC_SCALARS(__MOSAIC_X)\n#undef __MOSAIC_X\n"
    "#endif\n"
    "#ifdef cl_khr_subgroup_ballot\n"
    "uint4 __MOSAIC_NM sub_group_ballot(int);\n"
    "#define __MOSAIC_X(T) T __MOSAIC_NM sub_group_broadcast_first(T);\n"
    "__MOSAIC_SCALARS(__MOSAIC_X)\n#undef __MOSAIC_X\n"
    "#endif\n"
    "#define __MOSAIC_OPS(X, T) X(T, add) X(T, mul) X(T, min) X(T, max)\n"
    "#define __MOSAIC_BITS(X, T) X(T, and) X(T, or) X(T, xor)\n"
    "#ifdef cl_khr_subgroup_non_uniform_arithmetic\n"
    "#define __MOSAIC_X(T, OP) T __MOSAIC_NM sub_group_non_uniform_reduce_##OP(T); \\\n"
    "  T __MOSAIC_NM sub_group_non_uniform_scan_inclusive_##OP(T); T __MOSAIC_NM sub_group_non_uniform_scan_exclusive_##OP(T);\n"
    "#define __MOSAIC_Y(T) __MOSAIC_OPS(__MOSAIC_X, T)\n#define __MOSAIC_Z(T) __MOSAIC_BITS(__MOSAIC_X, T)\n"
    "__MOSAIC_SCALARS(__MOSAIC_Y) __MOSAIC_INTEGERS(__MOSAIC_Z)\n"
    "__MOSAIC_X(int, logical_and) __MOSAIC_X(int, logical_or) __MOSAIC_X(int, logical_xor)\n"
    "#undef __MOSAIC_X\n#undef __MOSAIC_Y\n#undef __MOSAIC_Z\n"
    "#endif\n"
    "#ifdef cl_khr_subgroup_clustered_reduce\n"
    "#define __MOSAIC_X(T, OP) T __MOSAIC_NM sub_group_clustered_reduce_##OP(T, uint);\n"
    "#define __MOSAIC_Y(T) __MOSAIC_OPS(__MOSAIC_X, T)\n#define __MOSAIC_Z(T) __MOSAIC_BITS(__MOSAIC_X, T)\n"
    "__MOSAIC_SCALARS(__MOSAIC_Y) __MOSAIC_INTEGERS(__MOSAIC_Z)\n"
    "__MOSAIC_X(int, logical_and) __MOSAIC_X(int, logical_or) __MOSAIC_X(int, logical_xor)\n"
    "#undef __MOSAIC_X\n#undef __MOSAIC_Y\n#undef __MOSAIC_Z\n"
    "#endif\n"
    "#undef __MOSAIC_OPS\n#undef __MOSAIC_BITS\n#undef __MOSAIC_SCALARS\n#undef __MOSAIC_DOUBLE\n"
    "#undef __MOSAIC_INTEGERS\n#undef __MOSAIC_NM\n"
    "#endif\n";

#define PRELUDE_NAME "__mosaic_prelude.h"

bool mc_target_is_nvptx(const mosaic_compiler_target *target)
{
    return target && target->triple && !strncmp(target->triple, "nvptx", 5);
}

bool mc_target_has_extension(const mosaic_compiler_target *target, const char *name)
{
    bool on = false;
    size_t len = strlen(name);
    /* each word of the feature string; the last -cl-ext= entry naming it wins */
    for (const char *w = target ? target->clang_features : NULL; w && *w;) {
        w += strspn(w, " \t");
        size_t wlen = strcspn(w, " \t");
        if (wlen > 8 && !strncmp(w, "-cl-ext=", 8)) {
            for (const char *p = w + 8, *end = w + wlen; p < end;) {
                size_t n = strcspn(p, ", \t");
                if (n == 4 && !strncmp(p, "-all", 4))
                    on = false;
                else if (n == 4 && !strncmp(p, "+all", 4))
                    on = true;
                else if (n == len + 1 && (*p == '+' || *p == '-') && !strncmp(p + 1, name, len))
                    on = *p == '+';
                p += n + (p[n] == ',');
            }
        }
        w += wlen;
    }
    return on;
}

/* ---- the phases of mosaic_compile_source ------------------------------------------- */

/* The device's feature options (-cl-ext=... goes to clang's front end through -Xclang). */
static cl_int split_device_features(compile_job *job)
{
    const char *features = job->target ? job->target->clang_features : NULL;
    return mc_split_words(features, "the device's clang feature string", CL_COMPILE_PROGRAM_FAILURE, &job->feat,
                          &job->nfeat, job->log);
}

/* A private directory under TMPDIR (mosaic_settings; /tmp by default), its
 * include/ subdirectory, and the names of the files the compiler keeps there. */
static cl_int make_work_dir(compile_job *job)
{
    char dir[4096];
    int lock = mc_work_dir_create(dir, sizeof dir);
    if (lock < 0) {
        mosaic_strbuf_printf(job->log, "error: cannot create a temporary directory: %s\n", strerror(errno));
        return CL_COMPILE_PROGRAM_FAILURE;
    }
    memcpy(job->dir, dir, sizeof dir);
    job->dir_lock = lock;
    snprintf(job->input, sizeof job->input, "%s/source.cl", dir);
    snprintf(job->output, sizeof job->output, "%s/out.bc", dir);
    snprintf(job->include, sizeof job->include, "%s/include", dir);
    snprintf(job->args_path, sizeof job->args_path, "%s/clang.args", dir);
    snprintf(job->deps_path, sizeof job->deps_path, "%s/deps.d", dir);
    if (mkdir(job->include, 0700)) {
        mosaic_strbuf_printf(job->log, "error: cannot create a temporary directory: %s\n", strerror(errno));
        return CL_COMPILE_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

/* The prelude's text (see above). */
static cl_int make_prelude(compile_job *job)
{
    mosaic_strbuf *text = &job->prelude;
    mosaic_strbuf_puts(text, "/* Mosaic: feature macros the device does not report */\n");
    for (size_t i = 0; i < sizeof spir_default_macros / sizeof spir_default_macros[0]; i++) {
        const char *m = spir_default_macros[i];
        if (!mc_target_has_extension(job->target, strcmp(m, "__IMAGE_SUPPORT__") ? m : "__opencl_c_images"))
            mosaic_strbuf_printf(text, "#undef %s\n", m);
        else if (strcmp(m, "__IMAGE_SUPPORT__")) /* other targets (nvptx64): defined as on SPIR */
            mosaic_strbuf_printf(text, "#if __OPENCL_C_VERSION__ >= 200 && !defined(%s)\n#define %s 1\n#endif\n", m, m);
    }
    for (size_t i = 0; i < sizeof undefined_feature_macros / sizeof undefined_feature_macros[0]; i++)
        if (mc_target_has_extension(job->target, undefined_feature_macros[i]))
            mosaic_strbuf_printf(text, "#if __OPENCL_C_VERSION__ >= 300\n#define %s 1\n#endif\n",
                                 undefined_feature_macros[i]);
    for (size_t i = 0; i < sizeof undefined_extension_macros / sizeof undefined_extension_macros[0]; i++)
        if (mc_target_has_extension(job->target, undefined_extension_macros[i]))
            mosaic_strbuf_printf(text, "#define %s 1\n", undefined_extension_macros[i]);
    for (size_t i = 0; i < sizeof undeclared_builtins / sizeof undeclared_builtins[0]; i++)
        if (mc_target_has_extension(job->target, undeclared_builtins[i].macro))
            mosaic_strbuf_puts(text, undeclared_builtins[i].declarations);
    if (mc_target_is_nvptx(job->target)) {
        mosaic_strbuf_puts(text, non_uniform_nomerge);
        mosaic_strbuf_puts(text, bit_ops_declarations);
        mosaic_strbuf_puts(text, integer_dot_declarations);
    }
    /* OpenCL C 3.1, which clang 16 does not know: it compiles as 3.0 (options.c) */
    mosaic_strbuf_puts(text, "#define CL_VERSION_3_1 310\n");
    if (job->opts.cl_std == 310)
        mosaic_strbuf_puts(text, "#undef __OPENCL_C_VERSION__\n#define __OPENCL_C_VERSION__ 310\n");
    return text->oom ? mc_out_of_memory(job->log) : CL_SUCCESS;
}

/* The prelude, in the directory. */
static cl_int write_prelude(compile_job *job)
{
    mosaic_strbuf path = {0};
    mosaic_strbuf_printf(&path, "%s/" PRELUDE_NAME, job->dir);
    cl_int r = path.oom ? mc_out_of_memory(job->log)
                        : write_file(path.data, job->prelude.data, job->prelude.len, job->log, "the feature prelude");
    mosaic_strbuf_free(&path);
    return r;
}

/* What clang reads: the source (its standard input), the headers under
 * include/, the prelude. */
static cl_int write_inputs(compile_job *job, const char *source, size_t num_headers, const mosaic_header *headers)
{
    cl_int r = write_file(job->input, source, strlen(source), job->log, "the source to %s", job->dir);
    for (size_t i = 0; i < num_headers && r == CL_SUCCESS; i++)
        r = write_header(job->include, &headers[i], job->log);
    if (r == CL_SUCCESS)
        r = write_prelude(job);
    return r;
}

/* clang's arguments (docs/compiler.md), the text of a response file (clang
 * @file): option strings of any length, where a command line stops at the
 * kernel's limits (E2BIG).  Each argument is double-quoted, with \ and "
 * escaped. */
static cl_int make_clang_arguments(compile_job *job, const char *source)
{
    static const char *const fixed[] = {
        "-Xclang", "-finclude-default-header", "-Xclang", "-fdeclare-opencl-builtins", "-cl-kernel-arg-info",
        "-emit-llvm", "-c", "-fno-color-diagnostics",
    };
    mosaic_strbuf text = {0};
    append_quoted(&text, "-x");
    append_quoted(&text, "cl");
    append_quoted(&text, "-target");
    append_quoted(&text, job->target && job->target->triple ? job->target->triple : "spir64-unknown-unknown");
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        append_quoted(&text, fixed[i]);
    /* the files it read, for the front end's cache */
    append_quoted(&text, "-MD");
    append_quoted(&text, "-MF");
    append_quoted(&text, "../deps.d");
    for (size_t i = 0; i < job->nfeat; i++) {
        if (!strncmp(job->feat[i], "-cl-ext=", 8))
            append_quoted(&text, "-Xclang");
        append_quoted(&text, job->feat[i]);
    }
    if (!job->opts.cl_std)
        append_quoted(&text, "-cl-std=CL1.2"); /* the OpenCL rule when -cl-std is not given */
    /* Optimisation attributes, but no passes: everything is optimised once,
     * with the builtins, at finalize time, or not at all (-cl-opt-disable).
     * Not -O0 for -cl-opt-disable: at -O0 clang leaves out the bodies of C99
     * inline definitions (a function declared `inline` only, as libraries'
     * kernels often are), and their calls could not be resolved. */
    append_quoted(&text, "-O2");
    append_quoted(&text, "-Xclang");
    append_quoted(&text, "-disable-llvm-passes");
    for (size_t i = 0; i < job->opts.num_clang_args; i++)
        append_quoted(&text, job->opts.clang_args[i]);
    /* checking mode names the source lines of what it finds (docs/check.md) */
    if (mosaic_settings()->check && !job->opts.debug_info && mosaic_target_has_symbol(job->target, "__mosaic_check_access"))
        append_quoted(&text, "-gline-tables-only");
    /* clang runs in DIR/include and sees relative names only, so the bitcode
     * is the same for the same source (the kernel cache's key). */
    append_quoted(&text, "-I");
    append_quoted(&text, ".");
    /* Last, the application's working directory: compilers that run inside
     * the application (PoCL, clang as a library) find headers there, and
     * programs written for them rely on it (Rodinia's heartwall includes
     * "./main.h" from where it runs).  Only for a source that mentions
     * `include` at all: any other builds the same from every directory and
     * keeps one cache entry (the path is part of the key). */
    char cwd[PATH_MAX];
    if (strstr(source, "include") && getcwd(cwd, sizeof cwd)) {
        append_quoted(&text, "-I");
        append_quoted(&text, cwd);
    }
    append_quoted(&text, "-include");
    append_quoted(&text, "../" PRELUDE_NAME);
    append_quoted(&text, "-o");
    append_quoted(&text, "../out.bc");
    append_quoted(&text, "-"); /* the source, on standard input */
    job->args = text;
    return text.oom ? mc_out_of_memory(job->log) : CL_SUCCESS;
}

/* The arguments, as the response file. */
static cl_int write_clang_arguments(compile_job *job)
{
    return write_file(job->args_path, job->args.data, job->args.len, job->log, "the compiler's arguments to %s",
                      job->args_path);
}

/* Runs clang in DIR/include with the source on its standard input; what it
 * prints goes to job->clang_log. */
static cl_int run_clang(compile_job *job)
{
    const char *clang = mosaic_settings()->clang;
    const char *const clang_argv[] = { clang, "@../clang.args", NULL };
    unsigned long timeout_s = mosaic_settings()->build_timeout_s;
    job->child = (mc_child){.dir = job->include, .stdin_fd = open(job->input, O_RDONLY | O_CLOEXEC),
                            .timeout_ms = (int)(timeout_s * 1000)};
    if (job->child.stdin_fd < 0) {
        job->child.end = MC_CHILD_NOT_STARTED;
        job->child.code = errno;
    } else {
        if (!mc_fork_server_run(clang_argv, &job->child, &job->clang_log))
            mc_run_child(clang_argv, &job->child, &job->clang_log);
        close(job->child.stdin_fd);
    }
    if (job->child.end == MC_CHILD_NOT_STARTED) {
        mosaic_strbuf_printf(job->log, "error: cannot run the OpenCL C compiler '%s': %s (set MOSAIC_CLANG to "
                                       "clang-16)\n", clang, strerror(job->child.code));
        return CL_COMPILE_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

/* clang's messages into the log, naming the user's source "<source>" and
 * headers by include name. */
static void take_clang_messages(compile_job *job)
{
    mosaic_strbuf *m = &job->clang_log;
    replace_all(m, "<stdin>:", "<source>:");
    replace_all(m, "\n./", "\n");
    replace_all(m, "from ./", "from ");
    if (m->len > 2 && !strncmp(m->data, "./", 2))
        mosaic_strbuf_consume(m, 2);
    if (m->len)
        mosaic_strbuf_append(job->log, m->data, m->len);
}

/* The bitcode clang wrote.  None is a failure that clang's messages explain,
 * or this one when it said nothing. */
static cl_int read_clang_output(compile_job *job)
{
    const mc_child *c = &job->child;
    bool exited_ok = (c->end == MC_CHILD_EXITED && c->code == 0) || c->end == MC_CHILD_UNKNOWN;
    if (exited_ok) {
        cl_int r = read_file(job->output, &job->bc, &job->bc_size, job->log);
        if (r != CL_SUCCESS || job->bc_size)
            return r;
    }
    if (c->end == MC_CHILD_TIMED_OUT)
        mosaic_strbuf_printf(job->log, "error: the OpenCL C compiler did not finish in %lu s and was stopped "
                                       "(MOSAIC_BUILD_TIMEOUT_S sets the limit)\n",
                             mosaic_settings()->build_timeout_s);
    else if (c->end == MC_CHILD_SIGNALED)
        mosaic_strbuf_printf(job->log, "error: the OpenCL C compiler was killed by signal %d\n", c->code);
    else if (!job->clang_log.len)
        mosaic_strbuf_puts(job->log, "error: the OpenCL C compiler failed without a message\n");
    return CL_COMPILE_PROGRAM_FAILURE;
}

/* clang's bitcode, read (what is not bitcode fails the compilation, not a
 * later step), with its printf calls lowered (printf.c) when `lower`, as a
 * compiled object. */
static cl_int read_bitcode(const char *bc, size_t size, bool lower, mosaic_bitcode *out, mosaic_strbuf *log)
{
    LLVMContextRef ctx = mc_context_create(log);
    if (!ctx)
        return mc_out_of_memory(log);
    cl_int r;
    LLVMModuleRef m = NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bc, size, "input", 0);
    if (!buf) {
        r = mc_out_of_memory(log);
    } else if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
        m = NULL;
        mosaic_strbuf_puts(log, "error: the OpenCL C compiler's output is not LLVM bitcode that can be read\n");
        r = CL_COMPILE_PROGRAM_FAILURE;
    } else if (lower) {
        r = mc_lower_printf(m, log);
        if (r == CL_SUCCESS)
            r = mc_module_to_blob(m, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, out, log);
    } else {
        r = mc_blob_wrap(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, bc, size, out, log);
    }
    if (buf)
        LLVMDisposeMemoryBuffer(buf);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return r;
}

/* Does the device take printf calls through __mosaic_printf (compiler.h)? */
static bool lowers_printf(const compile_job *job)
{
    return mosaic_target_has_symbol(job->target, "__mosaic_printf");
}

/* The compiled object: clang's bitcode, its printf calls lowered when the
 * device wants it. */
static cl_int make_compiled_object(compile_job *job, mosaic_bitcode *out)
{
    bool lower = lowers_printf(job) && memmem(job->bc, job->bc_size, "printf", 6);
    return read_bitcode(job->bc, job->bc_size, lower, out, job->log);
}

/* The front end's cache (direct_cache.c): true when it had the compiled
 * object (and clang's messages went to the log). */
static bool look_up(compile_job *job, const char *source, size_t num_headers, const mosaic_header *headers,
                    mosaic_bitcode *out)
{
    if (!mc_cache_enabled())
        return false;
    mc_direct_inputs in = {job->args.data, job->args.len, job->prelude.data, job->prelude.len, source,
                           num_headers, headers, lowers_printf(job)};
    job->cached = mc_direct_key(&in, &job->key);
    clock_gettime(CLOCK_REALTIME, &job->started);
    bool hit = job->cached && mc_direct_lookup(&job->key, out, job->log);
    if (mosaic_debugging(MOSAIC_DEBUG_CACHE))
        fprintf(stderr, "mosaic: front end cache %s\n", hit ? "hit" : "miss");
    return hit;
}

/* After a successful compilation: the entry for the next one. */
static void store(compile_job *job, const mosaic_bitcode *out, size_t messages_at)
{
    if (!job->cached)
        return;
    char *deps;
    size_t n;
    if (read_file(job->deps_path, &deps, &n, job->log) != CL_SUCCESS || !deps)
        return;
    const char *messages = job->log->data ? job->log->data + messages_at : ""; /* (no log yet: no data) */
    mc_direct_store(&job->key, job->dir, deps, &job->started, out, messages, job->log->len - messages_at);
    free(deps);
}

static void compile_job_free(compile_job *job)
{
    if (job->dir[0])
        mc_work_dir_remove(job->dir, job->dir_lock);
    free(job->bc);
    mosaic_strbuf_free(&job->clang_log);
    mosaic_strbuf_free(&job->prelude);
    mosaic_strbuf_free(&job->args);
    mc_free_words(job->feat, job->nfeat);
    mc_free_options(&job->opts);
}

cl_int mosaic_compile_source(const mosaic_compiler_target *target, const char *source, const char *options,
                             size_t num_headers, const mosaic_header *headers, mosaic_bitcode *out, char **log_out)
{
    mosaic_strbuf log = {0};
    compile_job job = {.target = target, .log = &log};
    if (out)
        memset(out, 0, sizeof *out);
    cl_int r = mc_parse_options(options, MC_OPTIONS_COMPILE, &job.opts, &log);
    if (r == CL_SUCCESS && (!source || !out)) {
        mosaic_strbuf_puts(&log, "error: no source to compile\n");
        r = CL_COMPILE_PROGRAM_FAILURE;
    }
    if (r == CL_SUCCESS)
        r = split_device_features(&job);
    if (r == CL_SUCCESS)
        r = make_prelude(&job);
    if (r == CL_SUCCESS)
        r = make_clang_arguments(&job, source);
    if (r == CL_SUCCESS && look_up(&job, source, num_headers, headers, out)) {
        compile_job_free(&job);
        return mc_finish_log(&log, r, log_out, "compile");
    }
    size_t messages_at = log.len; /* clang's messages: kept with the cache entry */
    if (r == CL_SUCCESS)
        r = make_work_dir(&job);
    if (r == CL_SUCCESS)
        r = write_inputs(&job, source, num_headers, headers);
    if (r == CL_SUCCESS)
        r = write_clang_arguments(&job);
    if (r == CL_SUCCESS)
        r = run_clang(&job);
    if (r == CL_SUCCESS) {
        take_clang_messages(&job);
        r = read_clang_output(&job);
    }
    if (r == CL_SUCCESS)
        r = make_compiled_object(&job, out);
    if (r == CL_SUCCESS)
        store(&job, out, messages_at);
    compile_job_free(&job);
    return mc_finish_log(&log, r, log_out, "compile");
}
