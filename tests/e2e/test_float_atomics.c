/*
 * cl_ext_float_atomics (builtins/float_atomics.cl): what the device reports
 * (the extension and its version, the three capability queries, the OpenCL C
 * features and their macros), and atomic_fetch_add/sub/min/max and
 * atomic_exchange on half, float and double from many work-items at once, on
 * __global, __local and generic pointers to either, each work-item taking
 * its turn of the plain, order-only and order-and-scope forms.  Every result
 * is checked exactly: sums of values that add without rounding, the value
 * each work-item got back (every partial sum once), min and max with NaNs and
 * signed zeros as the extension specifies them, and a SPIR-V module's
 * OpAtomicFAddEXT, OpAtomicFMinEXT and OpAtomicFMaxEXT.
 *
 *   usage: test_float_atomics [case|--list]   (the cases: test_float_atomics.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cl_ext_compat.h"

#define TEST_LIST "test_float_atomics.list"
#include "test.h"
#include "cl_test.h"

#ifndef SPIRV_DIR
#error "SPIRV_DIR: the folder of the SPIR-V files the build made"
#endif

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* ---- the kernels, built once per type ------------------------------------------------- */

/* T: the type, A: its atomic type, U: what the host reads and writes (float
 * for half: every half converts to float exactly). */
static const char kernels[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    /* the work-items take turns: plain, order only, then order and scope */
    "#define TURNS(F, p, v, i, S) \\\n"
    "  ((i) % 6 == 0 ? F(p, v) \\\n"
    "   : (i) % 6 == 1 ? F##_explicit(p, v, memory_order_relaxed) \\\n"
    "   : (i) % 6 == 2 ? F##_explicit(p, v, memory_order_acquire, S) \\\n"
    "   : (i) % 6 == 3 ? F##_explicit(p, v, memory_order_release, S) \\\n"
    "   : (i) % 6 == 4 ? F##_explicit(p, v, memory_order_acq_rel, S) \\\n"
    "   : F##_explicit(p, v, memory_order_seq_cst, memory_scope_device))\n"
    "#define RMW(op, p, v, i, S) \\\n"
    "  ((op) == 0 ? TURNS(atomic_fetch_add, p, v, i, S) \\\n"
    "   : (op) == 1 ? TURNS(atomic_fetch_sub, p, v, i, S) \\\n"
    "   : (op) == 2 ? TURNS(atomic_fetch_min, p, v, i, S) \\\n"
    "   : (op) == 3 ? TURNS(atomic_fetch_max, p, v, i, S) \\\n"
    "   : TURNS(atomic_exchange, p, v, i, S))\n"
    "kernel void init(global A *obj, global const U *start) {\n"
    "  size_t i = get_global_id(0);\n"
    "  atomic_store_explicit(&obj[i], (T)start[i], memory_order_relaxed, memory_scope_device);\n"
    "}\n"
    /* many work-items on one object for long: lost updates would show */
    "kernel void hammer(global A *obj, int reps) {\n"
    "  for (int r = 0; r < reps; r++) {\n"
    "    atomic_fetch_add_explicit(obj, (T)1, memory_order_relaxed, memory_scope_device);\n"
    "    atomic_fetch_sub(obj, (T)1);\n"
    "  }\n"
    "  atomic_fetch_add_explicit(obj, (T)1, memory_order_acq_rel, memory_scope_all_svm_devices);\n"
    "}\n"
    "kernel void read(global A *obj, global U *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = (U)atomic_load(&obj[i]);\n"
    "}\n"
    /* work-item i works on object i % nobj */
    "kernel void on_global(global A *obj, uint nobj, global const U *vals, global U *olds, int op) {\n"
    "  uint i = get_global_id(0);\n"
    "  olds[i] = (U)RMW(op, &obj[i % nobj], (T)vals[i], i, memory_scope_all_svm_devices);\n"
    "}\n"
    /* a work-group on one object */
    "kernel void on_local(global const U *start, global const U *vals, global U *olds, global U *finals, int op) {\n"
    "  local A obj;\n"
    "  uint i = get_global_id(0), g = get_group_id(0);\n"
    "  if (get_local_id(0) == 0)\n"
    "    atomic_store_explicit(&obj, (T)start[g], memory_order_relaxed, memory_scope_work_group);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  olds[i] = (U)RMW(op, &obj, (T)vals[i], i, memory_scope_work_group);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0)\n"
    "    finals[g] = (U)atomic_load_explicit(&obj, memory_order_relaxed, memory_scope_work_group);\n"
    "}\n"
    /* either, through a generic pointer */
    "T on_any(volatile A *p, int op, T v, uint i) { return RMW(op, p, v, i, memory_scope_device); }\n"
    "kernel void on_generic(global A *gobj, uint nobj, global const U *start, global const U *vals,\n"
    "                       global U *olds, global U *finals, int op, int use_local) {\n"
    "  local A lobj;\n"
    "  uint i = get_global_id(0), g = get_group_id(0);\n"
    "  if (use_local && get_local_id(0) == 0)\n"
    "    atomic_store_explicit(&lobj, (T)start[g], memory_order_relaxed, memory_scope_work_group);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  volatile A *p = use_local ? (volatile A *)&lobj : (volatile A *)&gobj[i % nobj];\n"
    "  olds[i] = (U)on_any(p, op, (T)vals[i], i);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (use_local && get_local_id(0) == 0)\n"
    "    finals[g] = (U)atomic_load(&lobj);\n"
    "}\n";

typedef struct fp_type {
    const char *name, *atomic, *host; /* T, A, U */
    size_t host_size;                 /* sizeof(U) */
} fp_type;

enum { HALF, FLOAT, DOUBLE, NUM_TYPES };
static const fp_type types[NUM_TYPES] = {
    {"half", "atomic_half", "float", sizeof(float)},
    {"float", "atomic_float", "float", sizeof(float)},
    {"double", "atomic_double", "double", sizeof(double)},
};
static cl_program programs[NUM_TYPES];

enum where { GLOBAL, LOCAL, GENERIC_GLOBAL, GENERIC_LOCAL, NUM_WHERES };
static const char *const where_names[NUM_WHERES] = {"global", "local", "generic (global)", "generic (local)"};
enum { ADD, SUB, MIN, MAX, XCHG };
static const char *const op_names[] = {"add", "sub", "min", "max", "exchange"};

static cl_program program_of(int t)
{
    if (!programs[t]) {
        char options[256];
        snprintf(options, sizeof options, "-cl-std=CL3.0 -DT=%s -DA=%s -DU=%s", types[t].name, types[t].atomic,
                 types[t].host);
        programs[t] = test_build_program(context, device, kernels, options);
    }
    return programs[t];
}

static double signaling_nan(void)
{
    double d;
    uint64_t bits = 0x7ff4000000000000ull; /* exponent all ones, quiet bit clear */
    memcpy(&d, &bits, sizeof d);
    return d;
}

static bool is_signaling(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return isnan(d) && !(bits & 0x0008000000000000ull);
}

static cl_mem buffer_of(int t, size_t count, const double *values)
{
    size_t each = types[t].host_size;
    unsigned char *host = calloc(count ? count : 1, each);
    for (size_t i = 0; values && i < count; i++) {
        if (each == sizeof(float) && is_signaling(values[i])) { /* a conversion would quiet it */
            uint32_t bits = 0x7fa00000u;
            memcpy(host + i * each, &bits, each);
        } else if (each == sizeof(float)) {
            float f = (float)values[i];
            memcpy(host + i * each, &f, each);
        } else {
            memcpy(host + i * each, &values[i], each);
        }
    }
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, count * each, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    free(host);
    return m;
}

static void read_back(int t, cl_mem m, size_t count, double *out)
{
    size_t each = types[t].host_size;
    unsigned char *host = malloc(count * each);
    CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * each, host, 0, NULL, NULL), CL_SUCCESS);
    for (size_t i = 0; i < count; i++) {
        if (each == sizeof(float)) {
            float f;
            memcpy(&f, host + i * each, each);
            out[i] = f; /* a float NaN stays a NaN (its sign and payload do not matter here) */
        } else {
            memcpy(&out[i], host + i * each, each);
        }
    }
    free(host);
}

static void launch(cl_kernel k, size_t global, size_t local)
{
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL), CL_SUCCESS);
}

/* n work-items apply op with vals[i] to nobj objects that start at start[]:
 * item i to object i % nobj in global memory, i / (n / nobj) in local memory
 * (a work-group each).  The value each got back goes to olds, the objects'
 * last values to finals. */
static bool run(int t, enum where w, int op, size_t n, size_t nobj, const double *start, const double *vals,
                double *olds, double *finals)
{
    cl_program program = program_of(t);
    if (!program)
        return false;
    cl_int err;
    cl_uint nobj_arg = (cl_uint)nobj;
    cl_int op_arg = op, use_local = w == GENERIC_LOCAL;
    bool local = w == LOCAL || w == GENERIC_LOCAL;
    cl_mem obj = buffer_of(t, nobj * 8, NULL); /* room for any atomic type */
    cl_mem start_buf = buffer_of(t, nobj, start), vals_buf = buffer_of(t, n, vals);
    cl_mem olds_buf = buffer_of(t, n, NULL), finals_buf = buffer_of(t, nobj, NULL);
    cl_kernel init = clCreateKernel(program, "init", &err);
    cl_kernel rd = clCreateKernel(program, "read", &err);
    cl_kernel k = clCreateKernel(program, w == GLOBAL ? "on_global" : w == LOCAL ? "on_local" : "on_generic", &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!local) {
        clSetKernelArg(init, 0, sizeof obj, &obj);
        clSetKernelArg(init, 1, sizeof start_buf, &start_buf);
        launch(init, nobj, 0);
    }
    if (w == GLOBAL) {
        clSetKernelArg(k, 0, sizeof obj, &obj);
        clSetKernelArg(k, 1, sizeof nobj_arg, &nobj_arg);
        clSetKernelArg(k, 2, sizeof vals_buf, &vals_buf);
        clSetKernelArg(k, 3, sizeof olds_buf, &olds_buf);
        clSetKernelArg(k, 4, sizeof op_arg, &op_arg);
    } else if (w == LOCAL) {
        clSetKernelArg(k, 0, sizeof start_buf, &start_buf);
        clSetKernelArg(k, 1, sizeof vals_buf, &vals_buf);
        clSetKernelArg(k, 2, sizeof olds_buf, &olds_buf);
        clSetKernelArg(k, 3, sizeof finals_buf, &finals_buf);
        clSetKernelArg(k, 4, sizeof op_arg, &op_arg);
    } else {
        clSetKernelArg(k, 0, sizeof obj, &obj);
        clSetKernelArg(k, 1, sizeof nobj_arg, &nobj_arg);
        clSetKernelArg(k, 2, sizeof start_buf, &start_buf);
        clSetKernelArg(k, 3, sizeof vals_buf, &vals_buf);
        clSetKernelArg(k, 4, sizeof olds_buf, &olds_buf);
        clSetKernelArg(k, 5, sizeof finals_buf, &finals_buf);
        clSetKernelArg(k, 6, sizeof op_arg, &op_arg);
        clSetKernelArg(k, 7, sizeof use_local, &use_local);
    }
    launch(k, n, local ? n / nobj : 64);
    if (!local) {
        clSetKernelArg(rd, 0, sizeof obj, &obj);
        clSetKernelArg(rd, 1, sizeof finals_buf, &finals_buf);
        launch(rd, nobj, 0);
    }
    read_back(t, olds_buf, n, olds);
    read_back(t, finals_buf, nobj, finals);
    clReleaseKernel(init);
    clReleaseKernel(rd);
    clReleaseKernel(k);
    cl_mem all[] = {obj, start_buf, vals_buf, olds_buf, finals_buf};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clReleaseMemObject(all[i]);
    return true;
}

static size_t object_of(enum where w, size_t i, size_t n, size_t nobj)
{
    return w == LOCAL || w == GENERIC_LOCAL ? i / (n / nobj) : i % nobj;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- reported ---------------------------------------------------------------------- */

static bool reports_extension(const char *name, cl_version *version)
{
    cl_name_version list[128];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof list, list, &size), CL_SUCCESS);
    for (size_t i = 0; i < size / sizeof *list; i++)
        if (strcmp(list[i].name, name) == 0) {
            *version = list[i].version;
            return true;
        }
    return false;
}

static bool reports_feature(const char *name)
{
    cl_name_version list[128];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof list, list, &size), CL_SUCCESS);
    for (size_t i = 0; i < size / sizeof *list; i++)
        if (strcmp(list[i].name, name) == 0)
            return true;
    return false;
}

TEST(reported)
{
    char extensions[8192] = "";
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL), CL_SUCCESS);
    CHECK(strstr(extensions, "cl_ext_float_atomics") != NULL, "not in CL_DEVICE_EXTENSIONS: %s", extensions);
    cl_version version = 0;
    CHECK(reports_extension("cl_ext_float_atomics", &version) && version == CL_MAKE_VERSION(1, 0, 0),
          "version 0x%x", version);

    static const cl_device_info queries[] = {CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT,
                                             CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT,
                                             CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT};
    static const char *const prefixes[] = {"fp16", "fp32", "fp64"};
    static const struct { const char *feature; cl_device_fp_atomic_capabilities_ext bit; } bits[] = {
        {"global_atomic_load_store", CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT},
        {"local_atomic_load_store", CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT},
        {"global_atomic_add", CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT},
        {"local_atomic_add", CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT},
        {"global_atomic_min_max", CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT},
        {"local_atomic_min_max", CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT},
    };
    /* the kernel sees a macro for each feature: bit 1 + 6 * type + feature, bit 0 the extension's */
    char source[8192];
    int len = snprintf(source, sizeof source,
                       "kernel void k(global ulong *out) {\n  ulong n = 0;\n"
                       "#ifdef cl_ext_float_atomics\n  n |= 1;\n#endif\n");
    cl_ulong expected_macros = 1;
    for (size_t t = 0; t < 3; t++) {
        cl_device_fp_atomic_capabilities_ext caps = 0;
        size_t size = 0;
        CHECK_ERR(clGetDeviceInfo(device, queries[t], sizeof caps, &caps, &size), CL_SUCCESS);
        CHECK(size == sizeof caps, "size %zu", size);
        /* everything, on every type */
        CHECK(caps == (CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
                       CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
                       CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT),
              "%s: 0x%llx", prefixes[t], (unsigned long long)caps);
        CHECK_ERR(clGetDeviceInfo(device, queries[t], sizeof caps - 1, &caps, NULL), CL_INVALID_VALUE);
        for (size_t b = 0; b < sizeof bits / sizeof *bits; b++) {
            char feature[128];
            snprintf(feature, sizeof feature, "__opencl_c_ext_%s_%s", prefixes[t], bits[b].feature);
            bool has = reports_feature(feature);
            /* fp32 and fp64 load and store are OpenCL C 2.0's, without a feature of their own */
            if (t == 0 || b >= 2) {
                CHECK(has == ((caps & bits[b].bit) != 0), "%s reported %d, capability 0x%llx", feature, has,
                      (unsigned long long)caps);
                if (has)
                    expected_macros |= 1ull << (1 + 6 * t + b);
            } else {
                CHECK(!has, "%s is no feature of the extension", feature);
            }
            len += snprintf(source + len, sizeof source - len, "#ifdef %s\n  n |= 1ul << %zu;\n#endif\n", feature,
                            1 + 6 * t + b);
        }
    }
    snprintf(source + len, sizeof source - len, "  out[0] = n;\n}\n");
    cl_program program = test_build_program(context, device, source, "-cl-std=CL3.0");
    if (!program)
        return;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    cl_ulong zero = 0, macros = 0;
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    clSetKernelArg(kernel, 0, sizeof out, &out);
    launch(kernel, 1, 1);
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof macros, &macros, 0, NULL, NULL), CL_SUCCESS);
    CHECK(macros == expected_macros, "macros 0x%llx, features 0x%llx", (unsigned long long)macros,
          (unsigned long long)expected_macros);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- add and sub ----------------------------------------------------------------------- */

enum { N = 2048, NOBJ = 8 }; /* 256 work-items on each object; a work-group each in local memory */

/* Each object's sum is exact, and what its work-items got back are its
 * partial sums, each once: sorted, they start at the object's start and step
 * (to the next, the last to the end) by each value once. */
static void check_sums(int t, enum where w, int op, const double *vals)
{
    double start[NOBJ], finals[NOBJ], *olds = malloc(N * sizeof *olds), *got = malloc(N * sizeof *got);
    for (size_t o = 0; o < NOBJ; o++)
        start[o] = op == ADD ? o : 400 - (double)o; /* every partial sum below 512: exact in half too */
    if (!run(t, w, op, N, NOBJ, start, vals, olds, finals))
        goto out;
    for (size_t o = 0; o < NOBJ; o++) {
        double sum = start[o];
        size_t count = 0;
        for (size_t i = 0; i < N; i++)
            if (object_of(w, i, N, NOBJ) == o) {
                sum += op == ADD ? vals[i] : -vals[i];
                got[count++] = olds[i];
            }
        CHECK(finals[o] == sum, "%s %s %s: object %zu is %.17g, not %.17g", types[t].name, where_names[w],
              op_names[op], o, finals[o], sum);
        qsort(got, count, sizeof *got, by_value);
        if (op == SUB) /* rising order is the reverse of the subtractions' */
            for (size_t i = 0; i < count / 2; i++) {
                double x = got[i];
                got[i] = got[count - 1 - i];
                got[count - 1 - i] = x;
            }
        CHECK(count && got[0] == start[o], "%s %s %s: object %zu: first value got back %.17g, not its start",
              types[t].name, where_names[w], op_names[op], o, count ? got[0] : 0.0);
        /* distinct, and each step one of the values: the multiset of steps is the multiset of values */
        double *steps = malloc(count * sizeof *steps), *want = malloc(count * sizeof *want);
        size_t k = 0;
        for (size_t i = 0; i < count; i++) {
            double next = i + 1 < count ? got[i + 1] : finals[o];
            steps[i] = op == ADD ? next - got[i] : got[i] - next;
        }
        for (size_t i = 0; i < N; i++)
            if (object_of(w, i, N, NOBJ) == o)
                want[k++] = vals[i];
        qsort(steps, count, sizeof *steps, by_value);
        qsort(want, count, sizeof *want, by_value);
        CHECK(k == count && memcmp(steps, want, count * sizeof *steps) == 0,
              "%s %s %s: object %zu: the values got back are not each partial sum once", types[t].name,
              where_names[w], op_names[op], o);
        free(steps);
        free(want);
    }
out:
    free(olds);
    free(got);
}

TEST(add_sub)
{
    double *ones = malloc(N * sizeof *ones), *mixed = malloc(N * sizeof *mixed);
    for (size_t i = 0; i < N; i++) {
        ones[i] = 1;
        mixed[i] = 0.25 * (double)(1 + (i * 7) % 5); /* sums stay below 512: exact in half (steps of 0.25) */
    }
    for (int t = 0; t < NUM_TYPES; t++)
        for (int w = 0; w < NUM_WHERES; w++)
            for (int op = ADD; op <= SUB; op++) {
                check_sums(t, (enum where)w, op, ones);
                check_sums(t, (enum where)w, op, mixed);
            }
    free(ones);
    free(mixed);
}

/* Every work-item adds and subtracts 1 many times on one object, then adds
 * 1: the object ends at the number of work-items (at most 2048: exact in
 * half), whatever the threads' interleaving, unless an update was lost. */
TEST(contention)
{
    for (int t = 0; t < NUM_TYPES; t++) {
        cl_program program = program_of(t);
        if (!program)
            continue;
        double zero = 0, end = -1;
        cl_mem start = buffer_of(t, 1, &zero), obj = buffer_of(t, 1, NULL), out = buffer_of(t, 1, NULL);
        cl_int err, reps = 500;
        cl_kernel init = clCreateKernel(program, "init", &err), hammer = clCreateKernel(program, "hammer", &err);
        cl_kernel rd = clCreateKernel(program, "read", &err);
        CHECK_ERR(err, CL_SUCCESS);
        clSetKernelArg(init, 0, sizeof obj, &obj);
        clSetKernelArg(init, 1, sizeof start, &start);
        launch(init, 1, 1);
        clSetKernelArg(hammer, 0, sizeof obj, &obj);
        clSetKernelArg(hammer, 1, sizeof reps, &reps);
        launch(hammer, N, 16);
        clSetKernelArg(rd, 0, sizeof obj, &obj);
        clSetKernelArg(rd, 1, sizeof out, &out);
        launch(rd, 1, 1);
        read_back(t, out, 1, &end);
        CHECK(end == N, "%s: %d work-items left %g", types[t].name, N, end);
        clReleaseKernel(init);
        clReleaseKernel(hammer);
        clReleaseKernel(rd);
        clReleaseMemObject(start);
        clReleaseMemObject(obj);
        clReleaseMemObject(out);
    }
}

/* ---- min and max ------------------------------------------------------------------------- */

/* Many work-items on one object each: the object ends as the least (greatest)
 * of the values that are not NaN and of its start when that is not NaN;
 * every value got back is the start or no less (no greater) than the end. */
TEST(min_max)
{
    double *vals = malloc(N * sizeof *vals), *olds = malloc(N * sizeof *olds);
    for (size_t i = 0; i < N; i++) {
        vals[i] = (double)((long)((i * 389) % 1001) - 500); /* -500 ... 500, integers exact in half */
        if (i % 97 == 5)
            vals[i] = NAN;
        else if (i % 89 == 3)
            vals[i] = i % 2 ? -0.0 : 0.0;
    }
    for (int t = 0; t < NUM_TYPES; t++)
        for (int w = 0; w < NUM_WHERES; w++)
            for (int op = MIN; op <= MAX; op++) {
                double start[NOBJ], finals[NOBJ];
                for (size_t o = 0; o < NOBJ; o++) /* NaN, an end, or inside the values' range */
                    start[o] = o % 3 == 0 ? NAN : o % 3 == 1 ? (op == MIN ? INFINITY : -INFINITY) : (double)o * 40 - 150;
                if (!run(t, (enum where)w, op, N, NOBJ, start, vals, olds, finals))
                    continue;
                for (size_t o = 0; o < NOBJ; o++) {
                    double want = start[o];
                    for (size_t i = 0; i < N; i++)
                        if (object_of((enum where)w, i, N, NOBJ) == o && !isnan(vals[i]) &&
                            (isnan(want) || (op == MIN ? vals[i] < want : vals[i] > want)))
                            want = vals[i];
                    CHECK(finals[o] == want, "%s %s %s: object %zu (start %g) is %g, not %g", types[t].name,
                          where_names[(enum where)w], op_names[op], o, start[o], finals[o], want);
                    size_t bad = 0;
                    for (size_t i = 0; i < N; i++)
                        if (object_of((enum where)w, i, N, NOBJ) == o && !isnan(olds[i]) &&
                            (op == MIN ? olds[i] < finals[o] : olds[i] > finals[o]))
                            bad++;
                        else if (object_of((enum where)w, i, N, NOBJ) == o && isnan(olds[i]) && !isnan(start[o]))
                            bad++;
                    CHECK(bad == 0, "%s %s %s: object %zu: %zu values got back beyond its end", types[t].name,
                          where_names[(enum where)w], op_names[op], o, bad);
                }
            }
    free(vals);
    free(olds);
}

/* ---- every pair of special values -------------------------------------------------------- */

/* min(a, b) and max(a, b) as the extension specifies them: a qNaN operand
 * gives the other one; -0 and +0 either zero; with an sNaN, a NaN or the
 * other operand. */
static bool special_result_ok(int op, double a, double b, double got, bool b_signals)
{
    if (isnan(a) && isnan(b))
        return isnan(got);
    if (b_signals)
        return isnan(got) || got == a;
    if (isnan(b))
        return got == a && signbit(got) == signbit(a);
    if (isnan(a))
        return got == b && signbit(got) == signbit(b);
    if (a == 0 && b == 0)
        return got == 0;
    double want = op == MIN ? (b < a ? b : a) : (b > a ? b : a);
    return got == want && signbit(got) == signbit(want);
}

TEST(special_values)
{
    const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1000.0, INFINITY, -INFINITY, NAN, -NAN};
    enum { S = sizeof specials / sizeof *specials, PAIRS = S * S + S };
    /* an object per pair (a, b): a to start, b its operand; then b a signalling NaN for every a */
    double start[PAIRS], vals[PAIRS], olds[PAIRS], finals[PAIRS];
    for (size_t i = 0; i < S * S; i++) {
        start[i] = specials[i / S];
        vals[i] = specials[i % S];
    }
    for (size_t i = 0; i < S; i++) {
        start[S * S + i] = specials[i];
        vals[S * S + i] = signaling_nan();
    }
    for (int t = 0; t < NUM_TYPES; t++)
        for (int w = 0; w < NUM_WHERES; w++)
            for (int op = MIN; op <= MAX; op++) {
                if (!run(t, (enum where)w, op, PAIRS, PAIRS, start, vals, olds, finals))
                    continue;
                size_t bad = 0;
                for (size_t i = 0; i < PAIRS; i++) {
                    bool old_ok = isnan(start[i]) ? isnan(olds[i])
                                                  : olds[i] == start[i] && signbit(olds[i]) == signbit(start[i]);
                    bool ok = special_result_ok(op, start[i], vals[i], finals[i], i >= S * S);
                    if (!old_ok || !ok) {
                        if (bad++ < 4)
                            TEST_FAIL("%s %s %s(%g, %g): object %g, got back %g", types[t].name,
                                      where_names[(enum where)w], op_names[op], start[i], vals[i], finals[i],
                                      olds[i]);
                    }
                }
                CHECK(bad == 0, "%s %s %s: %zu pairs wrong", types[t].name, where_names[(enum where)w], op_names[op],
                      bad);
            }
}

/* ---- exchange -------------------------------------------------------------------------------- */

/* Each object's start, and every value exchanged into it, is got back once
 * or left at the end: the values got back and the end are a permutation of
 * the start and the values. */
TEST(exchange)
{
    double *vals = malloc(N * sizeof *vals), *olds = malloc(N * sizeof *olds), *got = malloc(N * sizeof *got);
    double *want = malloc(N * sizeof *want);
    for (size_t i = 0; i < N; i++)
        vals[i] = (double)i; /* below 2048: exact in half */
    for (int t = 0; t < NUM_TYPES; t++)
        for (int w = 0; w < NUM_WHERES; w++) {
            double start[NOBJ], finals[NOBJ];
            for (size_t o = 0; o < NOBJ; o++)
                start[o] = -1.0 - (double)o;
            if (!run(t, (enum where)w, XCHG, N, NOBJ, start, vals, olds, finals))
                continue;
            for (size_t o = 0; o < NOBJ; o++) {
                size_t n = 0, k = 0;
                got[n++] = finals[o];
                want[k++] = start[o];
                for (size_t i = 0; i < N; i++)
                    if (object_of((enum where)w, i, N, NOBJ) == o) {
                        got[n++] = olds[i];
                        want[k++] = vals[i];
                    }
                qsort(got, n, sizeof *got, by_value);
                qsort(want, k, sizeof *want, by_value);
                CHECK(n == k && memcmp(got, want, n * sizeof *got) == 0,
                      "%s %s exchange: object %zu lost or repeated a value", types[t].name,
                      where_names[(enum where)w], o);
            }
        }
    free(vals);
    free(olds);
    free(got);
    free(want);
}

/* ---- SPIR-V: OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT ---------------------------------- */

static bool has_opcode(const uint32_t *words, size_t count, uint32_t opcode)
{
    for (size_t i = 5; i < count;) { /* after the header, instruction by instruction */
        uint32_t length = words[i] >> 16;
        if ((words[i] & 0xffff) == opcode)
            return true;
        if (length == 0)
            return false;
        i += length;
    }
    return false;
}

/* The program of a SPIR-V module, built; NULL (a failure recorded) when it is not. */
static cl_program build_spirv(const uint32_t *words, size_t size)
{
    cl_int err;
    cl_program program = clCreateProgramWithIL(context, words, size, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!program)
        return NULL;
    err = clBuildProgram(program, 1, &device, NULL, NULL, NULL);
    if (err != CL_SUCCESS) {
        char *log = test_build_log(program, device);
        TEST_FAIL("build: %d\n%s", err, log);
        free(log);
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

TEST(spirv)
{
    size_t size = 0;
    uint32_t *words = test_read_spirv(SPIRV_DIR, "float_atomics", &size);
    if (!words)
        return;
    /* the instructions the extension's SPIR-V side adds, not calls */
    CHECK(has_opcode(words, size / 4, 6035), "no OpAtomicFAddEXT in float_atomics.spv");
    CHECK(has_opcode(words, size / 4, 5614), "no OpAtomicFMinEXT in float_atomics.spv");
    CHECK(has_opcode(words, size / 4, 5615), "no OpAtomicFMaxEXT in float_atomics.spv");

    cl_program program = build_spirv(words, size);
    free(words);
    if (!program)
        return;
    cl_int err;
    enum { ITEMS = 4096, GROUP = 128, GROUPS = ITEMS / GROUP };
    static float vals[ITEMS];
    float want_total = 0, lowest = INFINITY, highest = -INFINITY, group_want[GROUPS] = {0};
    for (size_t i = 0; i < ITEMS; i++) {
        vals[i] = 0.125f * (float)((long)((i * 13) % 41) - 20); /* -2.5 ... 2.5: every sum exact */
        want_total += vals[i];
        group_want[i / GROUP] += vals[i];
        lowest = vals[i] < lowest ? vals[i] : lowest;
        highest = vals[i] > highest ? vals[i] : highest;
    }
    float zero = 0, plus_inf = INFINITY, minus_inf = -INFINITY;
    double dzero = 0;
    cl_mem total = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    cl_mem dtotal = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof dzero, &dzero, &err);
    cl_mem lo = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof plus_inf, &plus_inf, &err);
    cl_mem hi = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof minus_inf, &minus_inf, &err);
    cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof vals, vals, &err);
    cl_mem groups = clCreateBuffer(context, CL_MEM_READ_WRITE, GROUPS * sizeof(float), NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(program, "float_atomics", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem args[] = {total, dtotal, lo, hi, in, groups};
    for (cl_uint a = 0; a < 6; a++)
        CHECK_ERR(clSetKernelArg(k, a, sizeof args[a], &args[a]), CL_SUCCESS);
    launch(k, ITEMS, GROUP);
    float got_total, got_lo, got_hi, got_groups[GROUPS];
    double got_dtotal;
    CHECK_ERR(clEnqueueReadBuffer(queue, total, CL_TRUE, 0, sizeof got_total, &got_total, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, dtotal, CL_TRUE, 0, sizeof got_dtotal, &got_dtotal, 0, NULL, NULL),
              CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, lo, CL_TRUE, 0, sizeof got_lo, &got_lo, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, hi, CL_TRUE, 0, sizeof got_hi, &got_hi, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, groups, CL_TRUE, 0, sizeof got_groups, got_groups, 0, NULL, NULL),
              CL_SUCCESS);
    CHECK(got_total == want_total, "sum %g, not %g", got_total, want_total);
    CHECK(got_dtotal == -(double)want_total, "double difference %g, not %g", got_dtotal, -(double)want_total);
    CHECK(got_lo == lowest && got_hi == highest, "min %g max %g, not %g %g", got_lo, got_hi, lowest, highest);
    size_t bad = 0;
    for (size_t g = 0; g < GROUPS; g++)
        bad += got_groups[g] != group_want[g];
    CHECK(bad == 0, "%zu work-groups' local sums wrong", bad);
    clReleaseKernel(k);
    for (size_t a = 0; a < 6; a++)
        clReleaseMemObject(args[a]);
    clReleaseProgram(program);
}

/* Half through SPIR-V (spirv/float16_atomics.spvasm): OpAtomicFAddEXT under
 * SPV_EXT_shader_atomic_float16_add, OpAtomicFMinEXT and OpAtomicFMaxEXT. */
TEST(spirv_half)
{
    size_t size = 0;
    uint32_t *words = test_read_spirv(SPIRV_DIR, "float16_atomics", &size);
    if (!words)
        return;
    bool float16_add = false;
    for (size_t i = 5; i + 1 < size / 4 && words[i] >> 16;) {
        float16_add |= (words[i] & 0xffff) == 17 /* OpCapability */ && words[i + 1] == 6095 /* AtomicFloat16AddEXT */;
        i += words[i] >> 16;
    }
    CHECK(float16_add, "float16_atomics.spv declares no AtomicFloat16AddEXT");
    cl_program program = build_spirv(words, size);
    free(words);
    if (!program)
        return;
    enum { ITEMS = 1024 };
    cl_half start[3] = {0x0000, 0x7c00, 0xfc00}; /* 0, +inf, -inf */
    cl_int err;
    cl_mem m[3];
    for (int i = 0; i < 3; i++)
        m[i] = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_half), &start[i], &err);
    cl_kernel k = clCreateKernel(program, "half_atomics", &err);
    CHECK_ERR(err, CL_SUCCESS);
    for (cl_uint a = 0; a < 3; a++)
        CHECK_ERR(clSetKernelArg(k, a, sizeof m[a], &m[a]), CL_SUCCESS);
    launch(k, ITEMS, 64);
    cl_half got[3];
    for (int i = 0; i < 3; i++)
        CHECK_ERR(clEnqueueReadBuffer(queue, m[i], CL_TRUE, 0, sizeof got[i], &got[i], 0, NULL, NULL), CL_SUCCESS);
    /* 1024, 0 and 1023 as halves */
    CHECK(got[0] == 0x6400 && got[1] == 0x0000 && got[2] == 0x63fe, "sum 0x%04x min 0x%04x max 0x%04x", got[0],
          got[1], got[2]);
    clReleaseKernel(k);
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(m[i]);
    clReleaseProgram(program);
}

int main(int argc, char **argv)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, NULL);
    test_run(argc, argv);
    for (int t = 0; t < NUM_TYPES; t++)
        if (programs[t])
            clReleaseProgram(programs[t]);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
