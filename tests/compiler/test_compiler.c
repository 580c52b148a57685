/* Compiler pipeline tests: real kernels through compile -> link -> finalize,
 * run on host arrays through the work-group and work-item functions.
 * usage: test_compiler [group]   (no group: everything) */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define ARGS(...) ((void *[]){__VA_ARGS__})

/* ---- basic kernels --------------------------------------------------------------- */
static void test_vector_add(void)
{
    const char *src = "kernel void vadd(global const float *a, global const float *b, global float *c, uint n) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  if (i < n) c[i] = a[i] + b[i];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "vadd");
    CHECK(k && k->wg_fn && k->wi_fn && !k->uses_barriers, "vadd should have a work-group function");
    CHECK(k && k->num_args == 4, "4 args");
    if (k && k->num_args == 4) {
        CHECK(k->args[0].kind == MOSAIC_ARG_GLOBAL_PTR && k->args[0].size == sizeof(cl_mem), "arg 0 global");
        CHECK(k->args[0].type_qualifier == CL_KERNEL_ARG_TYPE_CONST, "arg 0 const");
        CHECK(!strcmp(k->args[0].type_name, "float*"), "type %s", k->args[0].type_name);
        CHECK(!strcmp(k->args[2].name, "c"), "name %s", k->args[2].name);
        CHECK(k->args[3].kind == MOSAIC_ARG_BY_VALUE && k->args[3].size == 4, "arg 3 uint");
        CHECK(k->args[3].address_qualifier == CL_KERNEL_ARG_ADDRESS_PRIVATE, "arg 3 private");
    }
    enum { N = 1000 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = calloc(N + 1, sizeof *c);
    for (int i = 0; i < N; i++)
        a[i] = (float)i, b[i] = 0.5f * (float)i;
    c[N] = 42.0f;
    cl_uint n = N;
    /* 1000 = 15 groups of 64 + a trailing group of 40 (non-uniform) */
    ndrange r = {.dim = 1, .global = {N}, .local = {64}};
    run_kernel(exe, "vadd", ARGS(&a, &b, &c, &n), &r);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != 1.5f * (float)i;
    CHECK(bad == 0, "%d wrong sums", bad);
    CHECK(c[N] == 42.0f, "wrote past the end");
    free(a), free(b), free(c);
    mosaic_executable_free(exe);
}

static void test_2d_offsets(void)
{
    const char *src =
        "kernel void ids(global ulong *out, int width) {\n"
        "  size_t x = get_global_id(0), y = get_global_id(1);\n"
        "  size_t i = ((y - get_global_offset(1)) * width + (x - get_global_offset(0))) * 8;\n"
        "  out[i + 0] = x; out[i + 1] = y;\n"
        "  out[i + 2] = get_local_id(0) + 100 * get_local_id(1);\n"
        "  out[i + 3] = get_group_id(0) + 100 * get_group_id(1);\n"
        "  out[i + 4] = get_local_size(0) + 100 * get_local_size(1) + 10000 * get_enqueued_local_size(0);\n"
        "  out[i + 5] = get_num_groups(0) + 100 * get_num_groups(1) + 10000 * get_work_dim();\n"
        "  out[i + 6] = get_global_linear_id() + 100000 * get_local_linear_id();\n"
        "  out[i + 7] = get_global_size(2) + 10 * get_local_id(2) + 100 * get_global_id(2) + 1000 * get_local_size(7)"
        " + 10000 * get_global_id(5);\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { W = 10, H = 7 };
    uint64_t *out = calloc(W * H * 8, sizeof *out);
    int width = W;
    ndrange r = {.dim = 2, .global = {W, H}, .local = {4, 3}, .offset = {5, 20}};
    run_kernel(exe, "ids", ARGS(&out, &width), &r);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint64_t *o = out + (y * W + x) * 8;
            uint64_t lx = x % 4, ly = y % 3, gx = x / 4, gy = y / 3;
            uint64_t lsx = x >= 8 ? 2 : 4, lsy = y >= 6 ? 1 : 3;
            uint64_t expect[8] = {
                (uint64_t)x + 5, (uint64_t)y + 20, lx + 100 * ly, gx + 100 * gy, lsx + 100 * lsy + 10000 * 4,
                3 + 100 * 3 + 10000 * 2, (uint64_t)(y * W + x) + 100000 * (ly * lsx + lx), 1 + 1000,
            };
            for (int k = 0; k < 8; k++)
                if (o[k] != expect[k]) {
                    if (bad++ < 5)
                        fprintf(stderr, "ids (%d,%d)[%d] = %llu, expected %llu\n", x, y, k,
                                (unsigned long long)o[k], (unsigned long long)expect[k]);
                }
        }
    CHECK(bad == 0, "%d wrong ids", bad);
    free(out);
    mosaic_executable_free(exe);
}

static void test_struct_by_value(void)
{
    const char *src = "typedef struct { int a; float b; double c; char d[3]; float4 v; } S;\n"
                      "kernel void st(S s, global float *out, float4 scale, char tag) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  s.a += (int)i;              /* the kernel's own copy */\n"
                      "  out[i] = s.a + s.b + (float)s.c + s.d[2] + s.v.w * scale.y + tag;\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    typedef struct {
        cl_int a;
        cl_float b;
        cl_double c;
        cl_char d[3];
        cl_float4 v;
    } S;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "st");
    CHECK(k && k->num_args == 4, "args");
    if (k && k->num_args == 4) {
        CHECK(k->args[0].kind == MOSAIC_ARG_BY_VALUE && k->args[0].size == sizeof(S), "struct size %zu vs %zu",
              k->args[0].size, sizeof(S));
        CHECK(k->args[0].alignment == 16, "struct alignment %zu", k->args[0].alignment);
        CHECK(k->args[2].size == 16 && k->args[3].size == 1, "float4 and char sizes");
        CHECK(!strcmp(k->args[0].type_name, "S"), "struct type name %s", k->args[0].type_name);
    }
    S s = {.a = 10, .b = 0.5f, .c = 2.0, .d = {1, 2, 3}, .v = {{0, 0, 0, 4.0f}}};
    cl_float4 scale = {{1, 2, 3, 4}};
    cl_char tag = 7;
    float out[16];
    ndrange r = {.dim = 1, .global = {16}, .local = {8}};
    float *o = out;
    run_kernel(exe, "st", ARGS(&s, &o, &scale, &tag), &r);
    int bad = 0;
    for (int i = 0; i < 16; i++)
        bad += out[i] != (float)(10 + i) + 0.5f + 2.0f + 3 + 8.0f + 7;
    CHECK(bad == 0, "%d wrong (out[1] = %g)", bad, out[1]);
    CHECK(s.a == 10, "the kernel wrote the shared argument");
    mosaic_executable_free(exe);
}

static void test_local_arg(void)
{
    /* reverse each work-group's slice through a __local argument */
    const char *src = "kernel void rev(global const int *in, global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  tmp[l] = in[get_global_id(0)];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[get_global_id(0)] = tmp[n - 1 - l];\n"
                      "}\n"
                      "kernel void own(global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0);\n"
                      "  tmp[l] = (int)l * 3;\n"
                      "  out[get_global_id(0)] = tmp[l] + 1;\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "rev");
    CHECK(k && k->uses_barriers && !k->wg_fn && k->wi_fn, "rev uses barriers");
    CHECK(k && k->num_args == 3 && k->args[2].kind == MOSAIC_ARG_LOCAL_PTR && k->args[2].size == 0 &&
              k->args[2].address_qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL,
          "local arg");
    k = mosaic_executable_find_kernel(exe, "own");
    CHECK(k && k->wg_fn && k->static_local_mem_size == 0, "own has a wg function");
    enum { N = 64 };
    int in[N], out[N], out2[N];
    for (int i = 0; i < N; i++)
        in[i] = i * 7;
    int *pi = in, *po = out, *po2 = out2;
    uint64_t offset = 0; /* no static locals: the argument starts the arena */
    ndrange r = {.dim = 1, .global = {N}, .local = {16}, .local_arg_bytes = 16 * sizeof(int)};
    run_kernel(exe, "rev", ARGS(&pi, &po, &offset), &r);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != in[(i / 16) * 16 + 15 - i % 16];
    CHECK(bad == 0, "%d wrong reversed values", bad);
    run_kernel(exe, "own", ARGS(&po2, &offset), &r);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += out2[i] != (i % 16) * 3 + 1;
    CHECK(bad == 0, "%d wrong own values", bad);
    mosaic_executable_free(exe);
}

static void test_static_local(void)
{
    /* two static __local arrays, one used inside a constant expression
     * (tile[0][1]), one reached through a __local argument after them */
    const char *src = "kernel void tiles(global int *out, local int *extra) {\n"
                      "  local char pad[3];\n"
                      "  local int tile[4][8];\n"
                      "  size_t x = get_local_id(0), y = get_local_id(1);\n"
                      "  if (x == 0 && y == 0) { pad[0] = 1; pad[2] = 5; }\n"
                      "  tile[y][x] = (int)(x + 10 * y);\n"
                      "  extra[y * 8 + x] = 1000;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[get_global_id(1) * 8 + get_global_id(0)] = tile[3 - y][7 - x] + tile[0][1] * 100\n"
                      "      + pad[2] * 10000 + extra[(3 - y) * 8 + (7 - x)];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, NULL);
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "tiles");
    CHECK(k && k->uses_barriers, "barrier kernel");
    CHECK(k && k->static_local_mem_size >= 3 + 4 * 8 * 4 && k->static_local_mem_size <= 4 + 4 * 8 * 4 + 8,
          "static local size %zu", k ? k->static_local_mem_size : 0);
    if (!k) {
        mosaic_executable_free(exe);
        return;
    }
    int out[8 * 8];
    int *po = out;
    uint64_t extra = (k->static_local_mem_size + 127) / 128 * 128;
    ndrange r = {.dim = 2, .global = {8, 8}, .local = {8, 4}, .local_arg_bytes = 32 * sizeof(int)};
    run_kernel(exe, "tiles", ARGS(&po, &extra), &r);
    int bad = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            int ly = y % 4;
            int expect = (7 - x) + 10 * (3 - ly) + 100 + 50000 + 1000;
            bad += out[y * 8 + x] != expect;
        }
    CHECK(bad == 0, "%d wrong tile values (out[0] = %d)", bad, out[0]);
    mosaic_executable_free(exe);
}

/* ---- the seed kernels -------------------------------------------------------------
 * Transcribed from /work/shared/seeds (000: kernel_dot, its '〈' typeset as '<';
 * 003: fill_tiles), built with the options the seeds' hosts pass. */
static void test_seed_kernel_dot(void)
{
    const char *src = "__kernel void kernel_dot(__global int *pDst, __global int *pSrc1,\n"
                      "__global int *pSrc2)\n"
                      "{\n"
                      "__local int localBuffer[TOTAL_NUMBER_OF_WORKITEMS];\n"
                      "int index = get_global_id(0);\n"
                      "localBuffer[index] = pSrc1[index] * pSrc2[index];\n"
                      "barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "if(index == 0)\n"
                      "{\n"
                      "int sum = 0;\n"
                      "for(int i = 0; i < TOTAL_NUMBER_OF_WORKITEMS; i++)\n"
                      "sum += localBuffer[i];\n"
                      "pDst[0] = sum;\n"
                      "}\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, "-D TOTAL_NUMBER_OF_WORKITEMS=128");
    if (!exe)
        return;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "kernel_dot");
    CHECK(k && k->static_local_mem_size == 128 * sizeof(int), "kernel_dot static local %zu",
          k ? k->static_local_mem_size : 0);
    int src1[128], src2[128], dst = -1, sum = 0;
    for (int i = 0; i < 128; i++) {
        src1[i] = i + 1;
        src2[i] = i + 1;
        sum += src1[i] * src2[i];
    }
    int *pd = &dst, *p1 = src1, *p2 = src2;
    ndrange r = {.dim = 1, .global = {128}, .local = {128}};
    run_kernel(exe, "kernel_dot", ARGS(&pd, &p1, &p2), &r);
    CHECK(dst == sum, "kernel_dot gave %d, expected %d", dst, sum);
    mosaic_executable_free(exe);
}

static void test_seed_fill_tiles(void)
{
    const char *src = "__kernel void fill_tiles(__global float* a,\n"
                      "\t\t\t__global float* b,\n"
                      "\t\t\t__global float* c)\n"
                      "{\n"
                      "  int row = get_global_id(1);\n"
                      "  int col = get_global_id(0);\n"
                      "  __local float aTile[TILE_DIM_Y][TILE_DIM_X];\n"
                      "  __local float bTile[TILE_DIM_Y][TILE_DIM_X];\n"
                      "  int y = get_local_id(1);\n"
                      "  int x = get_local_id(0);\n"
                      "  aTile[y][x] = a[row*N + col];\n"
                      "  bTile[y][x] = b[row*N + col];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  c[row*N + col] = aTile[x][y] * bTile[y][x];\n"
                      "}\n";
    enum { T = 16, M_TILES = 2, N_TILES = 3, NN = N_TILES * T, MM = M_TILES * T };
    char opts[128];
    snprintf(opts, sizeof opts, "-D TILE_DIM_X=%d -D TILE_DIM_Y=%d -D N=%d", T, T, NN);
    mosaic_executable *exe = build_program(src, opts);
    if (!exe)
        return;
    float *a = malloc(MM * NN * sizeof *a), *b = malloc(MM * NN * sizeof *b), *c = calloc(MM * NN, sizeof *c);
    srand(4);
    for (int i = 0; i < MM * NN; i++) {
        a[i] = (float)rand() / (float)RAND_MAX;
        b[i] = (float)rand() / (float)RAND_MAX;
    }
    ndrange r = {.dim = 2, .global = {NN, MM}, .local = {T, T}};
    run_kernel(exe, "fill_tiles", ARGS(&a, &b, &c), &r);
    int bad = 0;
    for (int row = 0; row < M_TILES; row++)
        for (int col = 0; col < N_TILES; col++)
            for (int y = 0; y < T; y++)
                for (int x = 0; x < T; x++) {
                    int ry = row * T + y, rx = row * T + x;
                    float av = a[rx * NN + col * T + y];
                    float bv = b[ry * NN + col * T + x];
                    bad += c[ry * NN + col * T + x] != av * bv;
                }
    CHECK(bad == 0, "fill_tiles: %d wrong", bad);
    free(a), free(b), free(c);
    mosaic_executable_free(exe);
}

/* ---- diagnostics and options --------------------------------------------------------- */
static void test_build_error(void)
{
    const char *src = "kernel void k(global int *p) {\n"
                      "  p[0] = 1;\n"
                      "  p[1] = undeclared_thing;\n"
                      "}\n";
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, src, NULL, 0, NULL, &obj, &log);
    CHECK(r == CL_COMPILE_PROGRAM_FAILURE, "compile returned %d", r);
    CHECK(log && strstr(log, "<source>:3:") && strstr(log, "undeclared_thing"), "log: %s", log ? log : "(null)");
    CHECK(obj.data == NULL, "no binary on failure");
    free(log);
}

static void test_invalid_options(void)
{
    static const char *const bad[] = {"-cl-no-such-option", "-cl-std=CL4.0", "-D", "--help", "-O3", "\"-Dx"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mosaic_bitcode obj = {0};
        char *log = NULL;
        cl_int r = mosaic_compile_source(&test_target, "kernel void k() {}", bad[i], 0, NULL, &obj, &log);
        CHECK(r == CL_INVALID_COMPILER_OPTIONS, "'%s' gave %d", bad[i], r);
        CHECK(log && strlen(log) > 0, "'%s': empty log", bad[i]);
        free(log);
        mosaic_bitcode_free(&obj);
    }
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_link_bitcode(&test_target, 0, NULL, "-cl-opt-disable", 0, &obj, &log);
    CHECK(r == CL_INVALID_LINKER_OPTIONS, "link option gave %d", r);
    free(log);
    mosaic_executable *exe = NULL;
    r = mosaic_finalize(&test_target, &obj, "-create-library", &exe, &log);
    CHECK(r == CL_INVALID_BUILD_OPTIONS, "build option gave %d", r);
    free(log);

    /* accepted options, quoted values, both -D forms */
    const char *src2 = "kernel void k(global int *o) { o[0] = A + B; o[1] = sizeof(MSG) - 1; }\n";
    exe = build_program(src2, "-DA=40 -D B=2 -D 'MSG=\"two words\"' -cl-mad-enable -cl-fast-relaxed-math "
                              "-cl-std=CL2.0 -w -cl-denorms-are-zero -cl-kernel-arg-info -Werror");
    if (exe) {
        int o[2] = {0}, *po = o;
        ndrange rr = {.dim = 1, .global = {1}, .local = {1}};
        run_kernel(exe, "k", ARGS(&po), &rr);
        CHECK(o[0] == 42 && o[1] == 9, "options gave %d %d", o[0], o[1]);
        mosaic_executable_free(exe);
    }
}

static void test_headers(void)
{
    const mosaic_header h[2] = {
        {"defs.h", "#define SCALE 3\n#include \"sub/more.h\"\n"},
        {"sub/more.h", "#define OFFSET 4\n"},
    };
    const char *src = "#include \"defs.h\"\nkernel void k(global int *o) { o[get_global_id(0)] = SCALE * "
                      "(int)get_global_id(0) + OFFSET; }\n";
    mosaic_bitcode obj = {0}, exe_bc = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, src, "", 2, h, &obj, &log);
    CHECK(r == CL_SUCCESS, "compile with headers: %d %s", r, log);
    free(log);
    CHECK(obj.type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "compiled object type");
    r = mosaic_link_bitcode(&test_target, 1, &obj, NULL, 0, &exe_bc, &log);
    CHECK(r == CL_SUCCESS && exe_bc.type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "link %d", r);
    free(log);
    mosaic_executable *exe = NULL;
    r = mosaic_finalize(&test_target, &exe_bc, NULL, &exe, &log);
    CHECK(r == CL_SUCCESS, "finalize %d: %s", r, log);
    free(log);
    if (exe) {
        int o[4], *po = o;
        ndrange rr = {.dim = 1, .global = {4}, .local = {2}};
        run_kernel(exe, "k", ARGS(&po), &rr);
        CHECK(o[0] == 4 && o[3] == 13, "header values %d %d", o[0], o[3]);
        mosaic_executable_free(exe);
    }
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&exe_bc);
}

static void test_unimplemented_function(void)
{
    const char *src = "float not_a_builtin(float x);\n"
                      "kernel void k(global float *o) { o[0] = not_a_builtin(o[1]); }\n";
    mosaic_bitcode obj = {0}, linked = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, src, NULL, 0, NULL, &obj, &log);
    CHECK(r == CL_SUCCESS, "compile: %d %s", r, log);
    free(log);
    /* the linker refuses an executable with an undefined function... */
    r = mosaic_link_bitcode(&test_target, 1, &obj, NULL, 0, &linked, &log);
    CHECK(r == CL_LINK_PROGRAM_FAILURE, "link gave %d", r);
    CHECK(log && strstr(log, "not_a_builtin"), "link log: %s", log ? log : "");
    free(log);
    /* ...and so does finalize, given the compiled object directly */
    mosaic_executable *exe = NULL;
    r = mosaic_finalize(&test_target, &obj, NULL, &exe, &log);
    CHECK(r == CL_BUILD_PROGRAM_FAILURE && !exe, "finalize gave %d", r);
    CHECK(log && strstr(log, "undefined function 'not_a_builtin'") && strstr(log, "called from 'k'"), "log: %s",
          log ? log : "");
    free(log);
    /* a library may leave it undefined */
    r = mosaic_link_bitcode(&test_target, 1, &obj, "-create-library", 0, &linked, &log);
    CHECK(r == CL_SUCCESS && linked.type == CL_PROGRAM_BINARY_TYPE_LIBRARY, "library link %d", r);
    free(log);
    mosaic_bitcode_free(&linked);
    mosaic_bitcode_free(&obj);
}

static void test_link_two_objects(void)
{
    const char *lib_fixed = "constant float offset_value = 0.25f;\n"
                            "float helper(float x) { return x * 2.0f + offset_value; }\n";
    const char *main_src = "float helper(float x);\n"
                           "kernel void use(global float *o) { o[get_global_id(0)] = helper((float)get_global_id(0)); }\n";
    mosaic_bitcode objs[2] = {{0}}, library = {0}, exe_bc = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, lib_fixed, "-cl-std=CL2.0", 0, NULL, &objs[0], &log);
    CHECK(r == CL_SUCCESS, "lib compile %d %s", r, log);
    free(log);
    r = mosaic_compile_source(&test_target, main_src, NULL, 0, NULL, &objs[1], &log);
    CHECK(r == CL_SUCCESS, "main compile %d %s", r, log);
    free(log);
    /* library first, then library + object -> executable */
    r = mosaic_link_bitcode(&test_target, 1, &objs[0], NULL, 1, &library, &log);
    CHECK(r == CL_SUCCESS && library.type == CL_PROGRAM_BINARY_TYPE_LIBRARY, "library %d", r);
    free(log);
    mosaic_bitcode inputs[2] = {objs[1], library};
    r = mosaic_link_bitcode(&test_target, 2, inputs, "-cl-fast-relaxed-math", 0, &exe_bc, &log);
    CHECK(r == CL_SUCCESS, "link %d %s", r, log);
    free(log);
    mosaic_executable *exe = NULL;
    if (r == CL_SUCCESS) {
        r = mosaic_finalize(&test_target, &exe_bc, NULL, &exe, &log);
        CHECK(r == CL_SUCCESS, "finalize %d %s", r, log);
        free(log);
    }
    if (exe) {
        float o[4], *po = o;
        ndrange rr = {.dim = 1, .global = {4}, .local = {4}};
        run_kernel(exe, "use", ARGS(&po), &rr);
        CHECK(o[0] == 0.25f && o[3] == 6.25f, "linked helper gave %g %g", o[0], o[3]);
        mosaic_executable_free(exe);
    }
    /* the same symbol twice is a link error */
    mosaic_bitcode twice[2] = {objs[0], objs[0]}, dup = {0};
    r = mosaic_link_bitcode(&test_target, 2, twice, NULL, 1, &dup, &log);
    CHECK(r == CL_LINK_PROGRAM_FAILURE, "duplicate symbols gave %d", r);
    CHECK(log && strstr(log, "multiply defined"), "dup log: %s", log ? log : "");
    free(log);
    mosaic_bitcode_free(&objs[0]);
    mosaic_bitcode_free(&objs[1]);
    mosaic_bitcode_free(&library);
    mosaic_bitcode_free(&exe_bc);
}

static void test_binary_roundtrip(void)
{
    const char *src = "kernel __attribute__((reqd_work_group_size(4,2,1))) __attribute__((vec_type_hint(float4)))\n"
                      "void sq(global int *o) { size_t i = get_global_id(0); o[i] = (int)(i * i); }\n";
    mosaic_bitcode obj = {0}, exe_bc = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, src, NULL, 0, NULL, &obj, &log);
    free(log);
    r |= mosaic_link_bitcode(&test_target, 1, &obj, NULL, 0, &exe_bc, &log);
    free(log);
    CHECK(r == CL_SUCCESS, "build %d", r);
    cl_program_binary_type type = 0;
    CHECK(mosaic_bitcode_validate(exe_bc.data, exe_bc.size, &type) == CL_SUCCESS &&
              type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
          "valid executable binary");
    CHECK(mosaic_bitcode_validate(obj.data, obj.size, &type) == CL_SUCCESS &&
              type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
          "valid object binary");
    /* garbage, truncation, a flipped byte in the bitcode */
    char garbage[256];
    memset(garbage, 0x5a, sizeof garbage);
    CHECK(mosaic_bitcode_validate(garbage, sizeof garbage, &type) == CL_INVALID_BINARY, "garbage");
    CHECK(mosaic_bitcode_validate(exe_bc.data, exe_bc.size / 2, &type) == CL_INVALID_BINARY, "truncated");
    CHECK(mosaic_bitcode_validate(NULL, 0, &type) == CL_INVALID_BINARY, "null");
    unsigned char *copy = malloc(exe_bc.size);
    memcpy(copy, exe_bc.data, exe_bc.size);
    for (size_t i = 40; i < exe_bc.size; i += 7)
        copy[i] ^= 0xff;
    CHECK(mosaic_bitcode_validate(copy, exe_bc.size, &type) == CL_INVALID_BINARY, "corrupted bitcode");
    /* a copy of the blob (as clCreateProgramWithBinary gets it) builds */
    memcpy(copy, exe_bc.data, exe_bc.size);
    mosaic_bitcode again = {type, copy, exe_bc.size};
    mosaic_executable *exe = NULL;
    r = mosaic_finalize(&test_target, &again, "-cl-opt-disable", &exe, &log);
    CHECK(r == CL_SUCCESS, "finalize from copy %d %s", r, log);
    free(log);
    if (exe) {
        const mosaic_kernel_info *k = mosaic_executable_kernel(exe, 0);
        CHECK(mosaic_executable_num_kernels(exe) == 1 && k && !strcmp(k->name, "sq"), "one kernel");
        CHECK(k && k->reqd_work_group_size[0] == 4 && k->reqd_work_group_size[1] == 2 &&
                  k->reqd_work_group_size[2] == 1,
              "reqd_work_group_size");
        CHECK(k && k->attributes && strstr(k->attributes, "reqd_work_group_size(4,2,1)") &&
                  strstr(k->attributes, "vec_type_hint(float4)"),
              "attributes '%s'", k && k->attributes ? k->attributes : "");
        int o[8], *po = o;
        ndrange rr = {.dim = 1, .global = {8}, .local = {4}};
        run_kernel(exe, "sq", ARGS(&po), &rr);
        CHECK(o[7] == 49 && o[3] == 9, "sq gave %d", o[7]);
        mosaic_executable_free(exe);
    }
    free(copy);
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&exe_bc);
    CHECK(mosaic_finalize(&test_target, &(mosaic_bitcode){0}, NULL, &exe, &log) == CL_INVALID_BINARY, "empty");
    free(log);
}

/* ---- driver ----------------------------------------------------------------------------- */
typedef struct test_case {
    const char *group, *name;
    void (*fn)(void);
} test_case;

static const test_case tests[] = {
    {"kernels", "vector_add", test_vector_add},
    {"kernels", "2d_offsets", test_2d_offsets},
    {"kernels", "struct_by_value", test_struct_by_value},
    {"kernels", "local_arg", test_local_arg},
    {"kernels", "static_local", test_static_local},
    {"seeds", "kernel_dot", test_seed_kernel_dot},
    {"seeds", "fill_tiles", test_seed_fill_tiles},
    {"diagnostics", "build_error", test_build_error},
    {"diagnostics", "invalid_options", test_invalid_options},
    {"diagnostics", "unimplemented_function", test_unimplemented_function},
    {"programs", "headers", test_headers},
    {"programs", "link_two_objects", test_link_two_objects},
    {"programs", "binary_roundtrip", test_binary_roundtrip},
};

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int ran = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (only && strcmp(only, tests[i].group) && strcmp(only, tests[i].name))
            continue;
        int before = test_failures;
        tests[i].fn();
        printf("%-5s %s/%s\n", test_failures == before ? "ok" : "FAIL", tests[i].group, tests[i].name);
        fflush(stdout);
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no test named %s\n", only);
        return 2;
    }
    return test_failures ? 1 : 0;
}
