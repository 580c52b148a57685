/*
 * mosaic-opt: runs the compiler's passes on a module from a file and prints
 * the IR, as LLVM's opt does for LLVM's passes.  The pass tests
 * (the .ll files of tests/passes) are written with it.
 *
 *   mosaic-opt [options] FILE.ll|FILE.bc|-      the CPU pipeline on a front end's module
 *   mosaic-opt --cl FILE.cl                     the front end's module of an OpenCL C program
 *   mosaic-opt --list                           the passes, in the order the CPU runs them
 *
 * The input is what the front end makes of a program (OpenCL C through
 * clang-16, linked, the builtin library not yet in it): `--cl` prints it.
 * Passes keep what they build of each kernel (K.body, K.wg...) in the pass
 * state, not in the IR, so a pass runs after the passes before it:
 * `--stop-after=NAME` runs the pipeline up to and including NAME, and
 * `--print-before` prints the module before NAME too, so that a test sees
 * what NAME alone changed.  `--start-at=NAME` starts there instead of at
 * the first pass, for passes that read nothing of the state (safe-division
 * on any module).  `--one-size=K:X,Y,Z` builds kernel K alone for one local
 * size, as a launch asks the CPU device to.  Code is made for the host's
 * processor unless --mcpu and --mattr name another; the runtime symbols are
 * the CPU device's.
 *
 * It is built with Mosaic's objects (it reaches internal functions) and is
 * not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "compiler/compiler.h"
#include "compiler/frontend/binary.h"
#include "compiler/pipeline/pipeline.h"
#include "devices/cpu/cpu.h"

/* The OpenCL C extensions and features `--cl` builds with: those of the
 * compiler tests' target (tests/compiler/compiler_host.c). */
#define CLANG_FEATURES                                                                                           \
    "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,+__opencl_c_int64,"                                               \
    "+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,"                                     \
    "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,"                                       \
    "+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,"                                                   \
    "+cl_khr_byte_addressable_store,+__opencl_c_generic_address_space,"                                            \
    "+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,"                                           \
    "+__opencl_c_atomic_scope_device,+__opencl_c_atomic_scope_all_devices,"                                        \
    "+__opencl_c_program_scope_global_variables,+__opencl_c_work_group_collective_functions,"                     \
    "+__opencl_c_images,+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,"                               \
    "+cl_khr_3d_image_writes,+cl_khr_depth_images,+cl_khr_subgroups,+__opencl_c_subgroups -D__OPENCL_VERSION__=300"

typedef struct driver_args {
    const char *input, *output, *cl_source, *options;
    const char *start_at, *stop_after;
    bool print_before, list;
    mc_one_size one_size; /* a build of one kernel for one local size, when .kernel is set */
    char one_size_kernel[256];
} driver_args;

static void usage(FILE *f)
{
    fprintf(f, "usage: mosaic-opt [--stop-after=PASS] [--start-at=PASS] [--print-before] [--options=TEXT]\n"
               "                  [--one-size=KERNEL:X,Y,Z] [--mcpu=CPU] [--mattr=FEATURES] [-o FILE]\n"
               "                  FILE.ll|FILE.bc|-\n"
               "       mosaic-opt --cl FILE.cl [--options=TEXT] [-o FILE]\n"
               "       mosaic-opt --list\n"
               "  --stop-after=PASS  run the CPU pipeline up to and including PASS (default: every pass)\n"
               "  --start-at=PASS    start at PASS, on the module as it is (for passes that need no state)\n"
               "  --print-before     print the module before the last pass too, then a line ';; after PASS'\n"
               "  --options=TEXT     the program's build options (-cl-opt-disable, -cl-fast-relaxed-math...)\n"
               "  --one-size=K:X,Y,Z build kernel K alone for local size X,Y,Z (as a launch does)\n"
               "  --mcpu, --mattr    the processor and features code is made for (default: the host's)\n"
               "  --cl FILE.cl       print the front end's module of an OpenCL C program (a test's input)\n"
               "  --list             list the passes: name, scope, whether it changes code, its kind, purpose\n");
}

/* The value of `--name=value` or `--name value` (advancing *i), or NULL if
 * argv[*i] is not that option. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n))
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] || *i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* "k:16,4,1" (or "k:16"): kernel k's build for that local size. */
static bool parse_one_size(const char *text, driver_args *a)
{
    const char *colon = strchr(text, ':');
    if (!colon || colon == text || (size_t)(colon - text) >= sizeof a->one_size_kernel)
        return false;
    memcpy(a->one_size_kernel, text, (size_t)(colon - text));
    a->one_size_kernel[colon - text] = 0;
    size_t size[3] = {1, 1, 1};
    int n = sscanf(colon + 1, "%zu,%zu,%zu", &size[0], &size[1], &size[2]);
    if (n < 1 || !size[0] || !size[1] || !size[2])
        return false;
    a->one_size.kernel = a->one_size_kernel;
    memcpy(a->one_size.size, size, sizeof size);
    return true;
}

static int parse_args(int argc, char **argv, driver_args *a, mosaic_compiler_target *target)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (!strcmp(argv[i], "--list"))
            a->list = true;
        else if (!strcmp(argv[i], "--print-before"))
            a->print_before = true;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return usage(stdout), 0;
        else if ((v = option_value(argc, argv, &i, "--stop-after")))
            a->stop_after = v;
        else if ((v = option_value(argc, argv, &i, "--start-at")))
            a->start_at = v;
        else if ((v = option_value(argc, argv, &i, "--options")))
            a->options = v;
        else if ((v = option_value(argc, argv, &i, "--one-size"))) {
            if (!parse_one_size(v, a)) {
                fprintf(stderr, "mosaic-opt: --one-size takes KERNEL:X,Y,Z, not %s\n", v);
                return 2;
            }
        } else if ((v = option_value(argc, argv, &i, "--mcpu")))
            target->cpu_name = v;
        else if ((v = option_value(argc, argv, &i, "--mattr")))
            target->cpu_features = v;
        else if ((v = option_value(argc, argv, &i, "--cl")))
            a->cl_source = v;
        else if ((v = option_value(argc, argv, &i, "-o")))
            a->output = v;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "mosaic-opt: unknown option %s\n", argv[i]);
            return usage(stderr), 2;
        } else if (!a->input)
            a->input = argv[i];
        else
            return usage(stderr), 2;
    }
    if (!a->list && !a->cl_source && !a->input)
        return usage(stderr), 2;
    return -1; /* go on */
}

static void list_passes(void)
{
    for (size_t i = 0; i < mc_cpu_pipeline.num_passes; i++) {
        const mc_pass *p = mc_cpu_pipeline.passes[i];
        printf("%-26s %-6s %-7s %-12s %s\n", p->name, p->scope == MC_SCOPE_KERNEL ? "kernel" : "module",
               p->changes_code ? "changes" : "reads", p->kind == MC_KIND_OPTIMISATION ? "optimisation" : "required",
               p->purpose);
    }
}

/* The whole file (or stdin for "-"), NUL-terminated; NULL with a message. */
static char *read_file(const char *path, size_t *size)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger)
                free(text);
            text = bigger;
        }
    }
    if (f != stdin)
        fclose(f);
    if (!text)
        fprintf(stderr, "mosaic-opt: out of memory reading %s\n", path);
    else
        text[n] = 0, *size = n;
    return text;
}

/* The executable bitcode Mosaic's front end makes of an OpenCL C file
 * (compile, then link, as clBuildProgram does), as a module of ctx. */
static cl_int front_end(const mosaic_compiler_target *target, const char *path, const char *options,
                        LLVMContextRef ctx, LLVMModuleRef *m, mosaic_strbuf *log)
{
    size_t size;
    char *source = read_file(path, &size), *text = NULL;
    if (!source)
        return CL_INVALID_VALUE;
    mosaic_bitcode obj = {0}, linked = {0};
    cl_int r = mosaic_compile_source(target, source, options, 0, NULL, &obj, &text);
    free(source);
    mosaic_strbuf_puts(log, text ? text : "");
    free(text), text = NULL;
    if (r == CL_SUCCESS) {
        r = mosaic_link_bitcode(target, 1, &obj, "", false, &linked, &text);
        mosaic_strbuf_puts(log, text ? text : "");
        free(text);
    }
    if (r == CL_SUCCESS)
        r = mc_blob_load(ctx, &linked, m, log);
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&linked);
    return r;
}

/* A .ll or .bc file as a module of ctx (LLVM tells the two apart). */
static cl_int parse_module(const char *path, LLVMContextRef ctx, LLVMModuleRef *m, mosaic_strbuf *log)
{
    size_t size;
    char *bytes = read_file(path, &size), *error = NULL;
    if (!bytes)
        return CL_INVALID_VALUE;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bytes, size, path);
    free(bytes);
    if (LLVMParseIRInContext(ctx, buf, m, &error)) { /* it takes buf, also on failure */
        mosaic_strbuf_printf(log, "%s: %s\n", path, error ? error : "cannot be parsed");
        LLVMDisposeMessage(error);
        return CL_INVALID_VALUE;
    }
    return CL_SUCCESS;
}

/* The pass before `name` in the CPU pipeline, or NULL when it is the first
 * (or unknown: the runner says so). */
static const char *pass_before(const char *name)
{
    for (size_t i = 1; i < mc_cpu_pipeline.num_passes; i++)
        if (!strcmp(mc_cpu_pipeline.passes[i]->name, name))
            return mc_cpu_pipeline.passes[i - 1]->name;
    return NULL;
}

static int print_module(LLVMModuleRef m, FILE *out)
{
    char *text = LLVMPrintModuleToString(m);
    int ok = fputs(text, out) >= 0;
    LLVMDisposeMessage(text);
    return ok;
}

/* Runs what the arguments ask on module m (of ctx, both taken). */
static cl_int run_passes(const driver_args *a, const mosaic_compiler_target *target, LLVMContextRef ctx,
                         LLVMModuleRef m, FILE *out, mosaic_strbuf *log)
{
    mc_options opts;
    cl_int r = mc_parse_options(a->options ? a->options : "", MC_OPTIONS_BUILD, &opts, log);
    if (r != CL_SUCCESS) {
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        return r;
    }
    mc_pass_state s;
    r = mc_pass_state_init(&s, target, &opts, a->one_size.kernel ? &a->one_size : NULL, ctx, m, log);
    const char *last = a->stop_after ? a->stop_after : mc_cpu_pipeline.passes[mc_cpu_pipeline.num_passes - 1]->name;
    const char *start = a->start_at;
    if (r == CL_SUCCESS && a->print_before) {
        const char *before = pass_before(last); /* NULL: `last` is the first pass */
        if (before && !(start && !strcmp(start, last)))
            r = mc_pipeline_run_from(&mc_cpu_pipeline, &s, start, before);
        if (r == CL_SUCCESS) {
            print_module(s.m, out);
            fprintf(out, ";; after %s\n", last);
            start = last;
        }
    }
    if (r == CL_SUCCESS)
        r = mc_pipeline_run_from(&mc_cpu_pipeline, &s, start, last);
    if (r == CL_SUCCESS && !print_module(s.m, out))
        r = CL_OUT_OF_RESOURCES;
    mc_pass_state_free(&s);
    mc_free_options(&opts);
    return r;
}

int main(int argc, char **argv)
{
    mosaic_compiler_target target = {
        .clang_features = CLANG_FEATURES,
        .runtime_symbols = mosaic_cpu_runtime_symbols,
        .num_runtime_symbols = mosaic_cpu_num_runtime_symbols,
    };
    driver_args a = {0};
    int status = parse_args(argc, argv, &a, &target);
    if (status >= 0)
        return status;
    if (a.list) {
        list_passes();
        return 0;
    }
    FILE *out = a.output ? fopen(a.output, "w") : stdout;
    if (!out) {
        perror(a.output);
        return 1;
    }
    mosaic_strbuf log = {0};
    cl_int r = mc_llvm_init(&log);
    LLVMContextRef ctx = r == CL_SUCCESS ? mc_context_create(&log) : NULL;
    LLVMModuleRef m = NULL;
    if (r == CL_SUCCESS && !ctx)
        r = CL_OUT_OF_HOST_MEMORY;
    if (r == CL_SUCCESS)
        r = a.cl_source ? front_end(&target, a.cl_source, a.options, ctx, &m, &log)
                        : parse_module(a.input, ctx, &m, &log);
    if (r == CL_SUCCESS && a.cl_source) {
        if (!print_module(m, out))
            r = CL_OUT_OF_RESOURCES;
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    } else if (r == CL_SUCCESS)
        r = run_passes(&a, &target, ctx, m, out, &log);
    else if (ctx)
        LLVMContextDispose(ctx);
    if (out != stdout && fclose(out))
        r = r == CL_SUCCESS ? CL_OUT_OF_RESOURCES : r;
    char *text = mosaic_strbuf_take(&log);
    if (text && *text)
        fputs(text, stderr);
    free(text);
    if (r != CL_SUCCESS)
        fprintf(stderr, "mosaic-opt: failed (%d)\n", r);
    return r == CL_SUCCESS ? 0 : 1;
}
