/* Calls at finalize (src/compiler/workgroup/calls.c): a call graph that fans out
 * builds in time linear in its source and gives the right answer; functions
 * left as calls read the work-item context (ids, sizes) of their caller's
 * work-item, through the work-group loop (wg_fn) and per work-item (wi_fn);
 * a barrier or a work-group collective inside a called function still
 * synchronises the group; a function called once from a function called from
 * many places is not what makes its caller a call; recursion is refused
 * with a clear log; which kernels cannot observe their work-groups.
 * usage: test_calls [case|--list]   (test_calls.list; none: all) */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_LIST "test_calls.list"
#include <llvm-c/IRReader.h>

#include "compiler_host.h"
#include "base/strbuf.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/calls.h"

#define ARGS(...) ((void *[]){__VA_ARGS__})

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- fan-out: f<d> calls f<d-1> four times, f0 is an 80-iteration loop ---------------------- */
static uint32_t host_f(int d, uint32_t x)
{
    if (d == 0) {
        for (int i = 0; i < 80; i++)
            x = (x * 1664525u + 1013904223u) ^ (x >> 7);
        return x;
    }
    return host_f(d - 1, x) + 3u * host_f(d - 1, x + 1u) + (host_f(d - 1, x ^ 5u) ^ host_f(d - 1, x + (uint32_t)d));
}

static char *fan_out_source(int depth)
{
    mosaic_strbuf s = {0};
    mosaic_strbuf_puts(&s, "uint f0(uint x)\n"
                           "{ for (int i = 0; i < 80; i++) x = (x * 1664525u + 1013904223u) ^ (x >> 7); return x; }\n");
    for (int d = 1; d <= depth; d++)
        mosaic_strbuf_printf(&s, "uint f%d(uint x)\n{ return f%d(x) + 3u * f%d(x + 1u) + (f%d(x ^ 5u) ^ f%d(x + %du)); }\n",
                             d, d - 1, d - 1, d - 1, d - 1, d);
    mosaic_strbuf_printf(&s, "kernel void k(global uint *out, uint base)\n"
                             "{ size_t i = get_global_id(0); out[i] = f%d((uint)i + base); }\n", depth);
    return mosaic_strbuf_take(&s);
}

static void fan_out(const char *options, double limit_s)
{
    enum { DEPTH = 5, N = 8 };
    char *src = fan_out_source(DEPTH);
    double t0 = now();
    mosaic_executable *exe = build_program(src, options);
    double t = now() - t0;
    free(src);
    if (!exe)
        return;
    /* all inlined, it took about a minute; optimised bottom up, well under a second unloaded */
    CHECK(t < limit_s, "depth %d took %.1f s to build (limit %.0f s)", DEPTH, t, limit_s);
    uint32_t out[N], base = 12345;
    uint32_t *po = out;
    ndrange r = {.dim = 1, .global = {N}, .local = {4}};
    run_kernel(exe, "k", ARGS(&po, &base), &r);
    int bad = 0;
    for (uint32_t i = 0; i < N; i++)
        bad += out[i] != host_f(DEPTH, i + base);
    CHECK(bad == 0, "%d wrong values (out[0] %u, expected %u)", bad, out[0], host_f(DEPTH, base));
    mosaic_executable_free(exe);
}

TEST(fan_out) { fan_out(NULL, 20); }
TEST(fan_out_opt_disable) { fan_out("-cl-opt-disable", 20); }

/* ---- the work-item context in functions left as calls ------------------------------------- */
/* noinline keeps them calls; the chain passes the context three deep, and a
 * dimension only known at run time goes through get_local_id(d). */
static const char context_source[] =
    "__attribute__((noinline)) size_t lin(uint d) { return get_local_id(d) + 100 * get_group_id(d); }\n"
    "__attribute__((noinline)) size_t mid(uint d) { return lin(d) * 1000 + get_global_id(1); }\n"
    "__attribute__((noinline)) size_t top(uint d) { return mid(d) + get_local_size(0) * 1000000; }\n"
    "__attribute__((noinline)) float pure(float x) { return x * 2.0f + 1.0f; }\n"
    "kernel void k(global ulong *out, global float *f, uint d)\n"
    "{ size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  out[i] = top(d) + top(0) * 0 ; f[i] = pure((float)i); }\n";

static void check_context(mosaic_executable *exe, int per_item, const char *how)
{
    enum { GX = 8, GY = 4, LX = 4, LY = 2, N = GX * GY };
    uint64_t out[N];
    float f[N];
    for (uint32_t d = 0; d < 3; d++) {
        memset(out, 0xff, sizeof out);
        uint64_t *po = out;
        float *pf = f;
        ndrange r = {.dim = 2, .global = {GX, GY}, .local = {LX, LY}, .per_item = per_item};
        run_kernel(exe, "k", ARGS(&po, &pf, &d), &r);
        int bad = 0;
        for (size_t y = 0; y < GY; y++)
            for (size_t x = 0; x < GX; x++) {
                size_t id[3] = {x, y, 0}, l[3] = {LX, LY, 1};
                uint64_t want = (uint64_t)(id[d] % l[d] + 100 * (id[d] / l[d])) * 1000 + y + LX * 1000000ull;
                bad += out[y * GX + x] != want;
                bad += f[y * GX + x] != (float)(y * GX + x) * 2.0f + 1.0f;
            }
        CHECK(bad == 0, "%s, d = %u: %d wrong values (out[5] = %llu)", how, d, bad, (unsigned long long)out[5]);
    }
}

TEST(context_in_calls)
{
    const char *opts[2] = {NULL, "-cl-opt-disable"};
    for (int o = 0; o < 2; o++) {
        mosaic_executable *exe = build_program(context_source, opts[o]);
        if (!exe)
            continue;
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
        CHECK(k && k->wg_fn && k->wi_fn, "a work-group function and a work-item function");
        check_context(exe, 0, opts[o] ? "wg_fn, -cl-opt-disable" : "wg_fn");
        check_context(exe, 1, opts[o] ? "wi_fn, -cl-opt-disable" : "wi_fn");
        mosaic_executable_free(exe);
    }
}

/* ---- barriers in called functions ---------------------------------------------------------- */
/* A barrier two calls down, in a function with a loop large enough that the
 * cost model alone would not inline it, called twice; the neighbour's value
 * is only right if every work-item stored before any reads. */
static const char barrier_source[] =
    "void sync_local(void) { barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "int exchange(local int *tmp, int v) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = v; sync_local();\n"
    "  int r = tmp[(l + 1) % n];\n"
    "  for (int i = 0; i < 50; i++) r = r * 3 + (int)(l ^ (size_t)i);\n"
    "  sync_local();\n"
    "  return r;\n"
    "}\n"
    "__attribute__((noinline)) int heavy(int x) { for (int i = 0; i < 30; i++) x = x * 7 + i; return x; }\n"
    "kernel void k(global int *in, global int *out, local int *tmp) {\n"
    "  size_t g = get_global_id(0);\n"
    "  int a = exchange(tmp, in[g]);\n"
    "  int b = exchange(tmp, heavy(a));\n"
    "  out[g] = b;\n"
    "}\n";

static int host_exchange_tail(int r, size_t l)
{
    for (int i = 0; i < 50; i++)
        r = (int)((unsigned)r * 3u + (unsigned)(l ^ (size_t)i));
    return r;
}

static int host_heavy(int x)
{
    for (int i = 0; i < 30; i++)
        x = (int)((unsigned)x * 7u + (unsigned)i);
    return x;
}

TEST(barrier_in_called_function)
{
    enum { N = 64, L = 16 };
    const char *opts[2] = {NULL, "-cl-opt-disable"};
    for (int o = 0; o < 2; o++) {
        mosaic_executable *exe = build_program(barrier_source, opts[o]);
        if (!exe)
            continue;
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
        CHECK(k && k->uses_barriers && k->wg_fn, "a barrier kernel cut into regions");
        int in[N], want[N], a[N];
        for (int i = 0; i < N; i++)
            in[i] = i * 13 - 7;
        for (int i = 0; i < N; i++) {
            size_t l = (size_t)i % L, base = (size_t)i - l;
            a[i] = host_exchange_tail(in[base + (l + 1) % L], l);
        }
        for (int i = 0; i < N; i++) {
            size_t l = (size_t)i % L, base = (size_t)i - l;
            want[i] = host_exchange_tail(host_heavy(a[base + (l + 1) % L]), l);
        }
        for (int per_item = 0; per_item < 2; per_item++) {
            int out[N];
            int *pi = in, *po = out;
            uint64_t offset = 0;
            ndrange r = {.dim = 1, .global = {N}, .local = {L}, .local_arg_bytes = L * sizeof(int),
                         .per_item = per_item};
            run_kernel(exe, "k", ARGS(&pi, &po, &offset), &r);
            int bad = 0;
            for (int i = 0; i < N; i++)
                bad += out[i] != want[i];
            CHECK(bad == 0, "%s%s: %d wrong values", per_item ? "wi_fn" : "wg_fn", opts[o] ? ", -cl-opt-disable" : "",
                  bad);
        }
        mosaic_executable_free(exe);
    }
}

TEST(collective_in_called_function)
{
    const char *src = "float total(float v) { return work_group_reduce_add(v); }\n"
                      "__attribute__((noinline)) float scale(float v) { return v * (float)get_local_size(0); }\n"
                      "float both(float v) { return scale(total(v)); }\n"
                      "kernel void k(global const float *in, global float *out)\n"
                      "{ out[get_global_id(0)] = both(in[get_global_id(0)]); }\n";
    enum { N = 32, L = 8 };
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i;
    float *pi = in, *po = out;
    ndrange r = {.dim = 1, .global = {N}, .local = {L}};
    run_kernel(exe, "k", ARGS(&pi, &po), &r);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float sum = 0;
        for (int j = i / L * L; j < i / L * L + L; j++)
            sum += in[j];
        bad += out[i] != sum * L;
    }
    CHECK(bad == 0, "%d wrong sums (out[0] %g)", bad, out[0]);
    mosaic_executable_free(exe);
}

/* ---- a deep chain with no recursion: 60 functions, every third kept a call ----------------- */
TEST(deep_chain)
{
    enum { LEN = 60, N = 16 };
    mosaic_strbuf s = {0};
    mosaic_strbuf_puts(&s, "uint c0(uint x) { return x ^ (uint)get_global_id(0); }\n");
    for (int i = 1; i < LEN; i++)
        mosaic_strbuf_printf(&s, "%suint c%d(uint x) { return c%d(x * 3u + %du) + %du; }\n",
                             i % 3 ? "" : "__attribute__((noinline)) ", i, i - 1, i, i * 7);
    mosaic_strbuf_printf(&s, "kernel void k(global uint *out) { out[get_global_id(0)] = c%d(5u); }\n", LEN - 1);
    char *src = mosaic_strbuf_take(&s);
    mosaic_executable *exe = build_program(src, NULL);
    free(src);
    if (!exe)
        return;
    uint32_t out[N];
    uint32_t *po = out;
    ndrange r = {.dim = 1, .global = {N}, .local = {8}};
    run_kernel(exe, "k", ARGS(&po), &r);
    int bad = 0;
    for (uint32_t g = 0; g < N; g++) {
        /* c_i(x) = c_{i-1}(3x + i) + 7i, outermost first */
        uint32_t x = 5, add = 0;
        for (int i = LEN - 1; i >= 1; i--) {
            x = x * 3u + (uint32_t)i;
            add += (uint32_t)i * 7u;
        }
        bad += out[g] != ((x ^ g) + add);
    }
    CHECK(bad == 0, "%d wrong values", bad);
    mosaic_executable_free(exe);
}

/* ---- an image passed to a function left as a call ------------------------------------------ */
TEST(image_in_called_function)
{
    const char *src = "__attribute__((noinline)) int dims(read_only image2d_t img)\n"
                      "{ return get_image_width(img) * 1000 + get_image_height(img) + (int)get_global_id(0); }\n"
                      "kernel void k(read_only image2d_t img, global int *out) { out[get_global_id(0)] = dims(img); }\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    char pixels[4 * 7 * 3] = {0};
    mosaic_image_desc desc = {.data = pixels, .width = 7, .height = 3, .depth = 1, .array_size = 1,
                              .row_pitch = 28, .slice_pitch = 84, .image_type = CL_MEM_OBJECT_IMAGE2D,
                              .channel_order = CL_RGBA, .channel_data_type = CL_UNORM_INT8, .pixel_size = 4,
                              .num_channels = 4};
    int out[4];
    void *pd = &desc;
    int *po = out;
    ndrange r = {.dim = 1, .global = {4}, .local = {4}};
    run_kernel(exe, "k", ARGS(&pd, &po), &r);
    for (int i = 0; i < 4; i++)
        CHECK(out[i] == 7003 + i, "out[%d] = %d", i, out[i]);
    mosaic_executable_free(exe);
}

/* ---- CL_KERNEL_PRIVATE_MEM_SIZE counts what the calls use ------------------------------------ */
TEST(private_memory_of_calls)
{
    const char *src = "__attribute__((noinline)) int table(int i, int n) {\n"
                      "  int t[300]; for (int k = 0; k < 300; k++) t[k] = k * n; return t[i % 300]; }\n"
                      "kernel void k(global int *out, int n) { out[get_global_id(0)] = table(out[get_global_id(0)], n); }\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
    CHECK(k && k->private_mem_size >= 1200, "private memory %zu bytes, the call's array is 1200",
          k ? (size_t)k->private_mem_size : 0);
    int out[4] = {1, 2, 301, 5}, n = 3;
    int *po = out;
    ndrange r = {.dim = 1, .global = {4}, .local = {4}};
    run_kernel(exe, "k", ARGS(&po, &n), &r);
    CHECK(out[0] == 3 && out[1] == 6 && out[2] == 3 && out[3] == 15, "%d %d %d %d", out[0], out[1], out[2], out[3]);
    mosaic_executable_free(exe);
}

/* ---- called once, from a function called from many places ----------------------------------
 * add(acc, x) adds x and, every 128, calls big(): big has one call site, so
 * LLVM's inliner would move it into add (its bonus for a function called
 * once), and add, now large, would stay a call at each of the kernel's
 * calls (sha512crypt's byte-wise updates: every byte a call).  Run as
 * finalize runs it: big stays a call, add is inlined into the kernel. */
static int calls_to(LLVMValueRef in, const char *callee)
{
    int n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(in); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef f = mc_called_function(i);
            n += f && !strcmp(LLVMGetValueName(f), callee);
        }
    return n;
}

TEST(called_once_from_shared)
{
    mosaic_strbuf ir = {0}, log = {0};
    /* big: 100 steps of an LCG and a shift, nothing the optimiser folds */
    mosaic_strbuf_puts(&ir, "define internal i32 @big(i32 %x) {\n  %v0 = add i32 %x, 1\n");
    for (int i = 1; i <= 100; i++)
        mosaic_strbuf_printf(&ir, "  %%m%d = mul i32 %%v%d, %d\n  %%s%d = lshr i32 %%m%d, %d\n"
                                  "  %%v%d = xor i32 %%m%d, %%s%d\n",
                             i, i - 1, 1664525 + 2 * i, i, i, 3 + i % 11, i, i, i);
    mosaic_strbuf_puts(&ir, "  ret i32 %v100\n}\n"
                            "define internal void @add(ptr %acc, i32 %x) {\n"
                            "  %v = load i32, ptr %acc\n  %s = add i32 %v, %x\n  store i32 %s, ptr %acc\n"
                            "  %m = and i32 %s, 127\n  %z = icmp eq i32 %m, 0\n  br i1 %z, label %full, label %done\n"
                            "full:\n  %b = call i32 @big(i32 %s)\n  store i32 %b, ptr %acc\n  br label %done\n"
                            "done:\n  ret void\n}\n"
                            "define spir_kernel void @k(ptr addrspace(1) %o) {\n"
                            "  %acc = alloca i32\n  %v = load i32, ptr addrspace(1) %o\n  store i32 %v, ptr %acc\n");
    for (int i = 1; i <= 6; i++)
        mosaic_strbuf_printf(&ir, "  call void @add(ptr %%acc, i32 %d)\n", i * 37);
    mosaic_strbuf_puts(&ir, "  %r = load i32, ptr %acc\n  store i32 %r, ptr addrspace(1) %o\n  ret void\n}\n");
    CHECK(!ir.oom);
    CHECK_ERR(mc_llvm_init(&log), CL_SUCCESS);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir.data, ir.len, "test");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    CHECK(!LLVMParseIRInContext(ctx, buf, &m, &msg), "the test's IR: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    LLVMTargetMachineRef tm = NULL;
    CHECK_ERR(mc_target_machine(&test_target, false, &tm, &log), CL_SUCCESS);
    if (m && tm) {
        LLVMValueRef k = LLVMGetNamedFunction(m, "k");
        bool any_must = false, any_left = false;
        mc_mark_program_functions(m);
        CHECK_ERR(mc_prepare_calls(m, &k, 1, &log), CL_SUCCESS);
        CHECK_ERR(mc_mark_must_inline(m, &k, 1, false, &any_must, &any_left, &log), CL_SUCCESS);
        CHECK(any_left, "add and big may stay calls");
        CHECK_ERR(mc_run_passes(m, tm, MC_INLINE_PIPELINE, &log), CL_SUCCESS);
        mc_end_inlining(m);
        LLVMValueRef big = LLVMGetNamedFunction(m, "big");
        CHECK(calls_to(k, "add") == 0, "add is inlined into the kernel (%d calls left)", calls_to(k, "add"));
        CHECK(big && !LLVMIsDeclaration(big) && calls_to(k, "big") == 6,
              "big stays a function, called from the kernel 6 times (%d)", big ? calls_to(k, "big") : -1);
        CHECK(big && LLVMGetLinkage(big) == LLVMInternalLinkage, "big is internal again");
    }
    if (tm)
        LLVMDisposeTargetMachine(tm);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    mosaic_strbuf_free(&ir);
    mosaic_strbuf_free(&log);
}

/* ---- kernels that cannot observe their work-groups ------------------------------------------ */
/* mosaic_kernel_info's regroupable: set for kernels that read global ids
 * and sizes only (also through a function left as a call, and with math,
 * printf and a fence, which orders a work-item's own accesses), clear for
 * each way of seeing the split: a work-item function of the group, in the
 * kernel or two calls down, __local memory, a barrier, a work-group
 * function, a loop that may wait for another work-item, and an atomic (it
 * may take tickets: a persistent-threads kernel sizes its groups to the
 * compute units).  Sub-group functions: test_work_groups.c, on the CPU
 * device. */
static const char group_use_source[] =
    "__attribute__((noinline)) size_t gid(uint d) { return get_global_id(d); }\n"
    "__attribute__((noinline)) size_t lid(uint d) { return get_local_id(d); }\n"
    "__attribute__((noinline)) size_t via_lid(uint d) { return lid(d) + 1; }\n"
    "kernel void ids(global float *o) { size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  o[i] = sqrt((float)(i + get_global_offset(0) + get_work_dim() + get_global_linear_id())); }\n"
    "kernel void helper(global float *o) { o[gid(0)] = (float)gid(1); }\n"
    "kernel void counts(global int *n, global float *o) { atomic_inc(n); o[get_global_id(0)] = 1.0f; }\n"
    "kernel void says(global float *o) { if (o[0] < 0.0f) printf(\"%zu\\n\", get_global_id(0)); }\n"
    "kernel void local_id(global float *o) { o[get_global_id(0)] = (float)get_local_id(0); }\n"
    "kernel void group_id(global float *o) { o[get_global_id(0)] = (float)get_group_id(0); }\n"
    "kernel void local_size(global float *o) { o[get_global_id(0)] = (float)get_local_size(0); }\n"
    "kernel void enqueued(global float *o) { o[get_global_id(0)] = (float)get_enqueued_local_size(0); }\n"
    "kernel void groups(global float *o) { o[get_global_id(0)] = (float)get_num_groups(0); }\n"
    "kernel void linear(global float *o) { o[get_global_id(0)] = (float)get_local_linear_id(); }\n"
    "kernel void deep(global float *o) { o[get_global_id(0)] = (float)via_lid(0); }\n"
    "kernel void local_var(global float *o) { local float t[4]; t[get_global_id(0) & 3] = 1.0f;\n"
    "  o[get_global_id(0)] = t[0]; }\n"
    "kernel void local_arg(global float *o, local float *t) { o[get_global_id(0)] = 1.0f; }\n"
    "kernel void barriers(global float *o) { o[get_global_id(0)] = 1.0f; barrier(CLK_GLOBAL_MEM_FENCE); }\n"
    "kernel void fences(global float *o) { o[get_global_id(0)] = 1.0f; mem_fence(CLK_GLOBAL_MEM_FENCE); }\n"
    "kernel void work_group(global float *o) { o[get_global_id(0)] = work_group_reduce_add(1.0f); }\n"
    "kernel void waits(volatile global int *flag, global float *o) { while (!*flag) ;\n"
    "  o[get_global_id(0)] = 1.0f; }\n";

TEST(group_observers)
{
    static const struct {
        const char *kernel;
        bool regroupable;
    } expect[] = {
        {"ids", true},        {"helper", true},    {"counts", false},   {"says", true},
        {"local_id", false},  {"group_id", false}, {"local_size", false}, {"enqueued", false},
        {"groups", false},    {"linear", false},   {"deep", false},      {"local_var", false},
        {"local_arg", false}, {"barriers", false}, {"work_group", false},  {"fences", true},
        {"waits", false},
    };
    const char *opts[2] = {"-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"};
    for (int o = 0; o < 2; o++) {
        mosaic_executable *exe = build_program(group_use_source, opts[o]);
        if (!exe)
            continue;
        for (size_t i = 0; i < sizeof expect / sizeof *expect; i++) {
            const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, expect[i].kernel);
            CHECK(k && k->regroupable == expect[i].regroupable, "%s (%s): regroupable %d, expected %d",
                  expect[i].kernel, opts[o], k ? k->regroupable : -1, expect[i].regroupable);
        }
        mosaic_executable_free(exe);
    }
}

/* ---- recursion: a build error naming the functions, not a hang in the inliner --------------- */
TEST(recursion)
{
    const char *src = "int odd(int n);\n"
                      "int even(int n) { return n == 0 ? 1 : odd(n - 1); }\n"
                      "int odd(int n) { return n == 0 ? 0 : even(n - 1); }\n"
                      "kernel void k(global int *out) { out[0] = even(out[0]); }\n";
    mosaic_executable *exe = NULL;
    char *log = NULL;
    cl_int r = build_program_status(src, NULL, &exe, &log);
    CHECK(r == CL_BUILD_PROGRAM_FAILURE, "got %d", r);
    CHECK(log && strstr(log, "recursion") && (strstr(log, "'even'") || strstr(log, "'odd'")), "log: %s",
          log ? log : "(none)");
    mosaic_executable_free(exe);
    free(log);
}

int main(int argc, char **argv)
{
    setenv("MOSAIC_CACHE", "0", 1); /* build times are measured cold */
    test_run(argc, argv);
    return test_summary();
}
