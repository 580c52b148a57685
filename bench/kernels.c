/*
 * Kernel speed: a few typical kernels on every CPU device the ICD loader
 * finds (Mosaic and PoCL side by side in one run).  Prints the best time of
 * several runs per kernel and platform, and each platform's time relative to
 * Mosaic's (above 1.00 = Mosaic is faster).  Results are checked against the
 * host so a fast wrong answer does not count.
 *
 *   OCL_ICD_VENDORS=$PWD/build/bench/vendors build/bench/kernels [scale] [repetitions]
 *
 * The kernels: streaming (vector add), math-heavy (a polynomial and sqrt per
 * element), compute-bound with no memory traffic (Mandelbrot), a naive matrix
 * multiply, a tiled one with __local memory and barriers, a work-group
 * reduction with barriers, and seed 003's fill_tiles.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *source =
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "\n"
    "__kernel void mathy(__global const float *x, __global float *y)\n"
    "{ size_t i = get_global_id(0); float v = x[i];\n"
    "  y[i] = sqrt(fabs(v)) + ((0.5f * v + 1.25f) * v - 3.0f) * v + exp(-v * v); }\n"
    "\n"
    "__kernel void mandel(__global int *out, int width, int height)\n"
    "{ int px = get_global_id(0), py = get_global_id(1);\n"
    "  float cx = -2.0f + 3.0f * px / width, cy = -1.5f + 3.0f * py / height, zx = 0, zy = 0;\n"
    "  int n = 0;\n"
    "  while (n < 256 && zx * zx + zy * zy < 4.0f) { float t = zx * zx - zy * zy + cx; zy = 2 * zx * zy + cy; zx = t; n++; }\n"
    "  out[py * width + px] = n; }\n"
    "\n"
    "__kernel void matmul(__global const float *a, __global const float *b, __global float *c, int n)\n"
    "{ int col = get_global_id(0), row = get_global_id(1); float s = 0;\n"
    "  for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];\n"
    "  c[row * n + col] = s; }\n"
    "\n"
    "#define T 16\n"
    "__kernel void matmul_tiled(__global const float *a, __global const float *b, __global float *c, int n)\n"
    "{ __local float ta[T][T], tb[T][T];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);\n"
    "  float s = 0;\n"
    "  for (int t = 0; t < n; t += T) {\n"
    "    ta[ly][lx] = a[row * n + t + lx]; tb[ly][lx] = b[(t + ly) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < T; k++) s += ta[ly][k] * tb[k][lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[row * n + col] = s; }\n"
    "\n"
    "__kernel void reduce(__global const float *x, __global float *partial, __local float *scratch)\n"
    "{ size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  scratch[l] = x[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s /= 2) { if (l < s) scratch[l] += scratch[l + s]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "  if (l == 0) partial[get_group_id(0)] = scratch[0]; }\n"
    "\n"
    "#define TILE_DIM_X 16\n#define TILE_DIM_Y 16\n"
    "__kernel void fill_tiles(__global float *a, __global float *b, __global float *c, int N)\n"
    "{ int row = get_global_id(1), col = get_global_id(0);\n"
    "  __local float aTile[TILE_DIM_Y][TILE_DIM_X], bTile[TILE_DIM_Y][TILE_DIM_X];\n"
    "  int y = get_local_id(1), x = get_local_id(0);\n"
    "  aTile[y][x] = a[row * N + col]; bTile[y][x] = b[row * N + col];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  c[row * N + col] = aTile[x][y] * bTile[y][x]; }\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum { MAX_PLATFORMS = 8, NUM_BENCH = 7 };
static const char *bench_names[NUM_BENCH] = { "vadd", "mathy", "mandel", "matmul", "matmul_tiled", "reduce",
                                              "fill_tiles" };

typedef struct device_run {
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_device_id dev;
} device_run;

static size_t scale = 1;
static int reps = 5;

/* Inputs shared by all platforms. */
static size_t n_stream, mat_n, mandel_w, mandel_h, tiles_w, tiles_h;
static float *in_a, *in_b;

static cl_mem make(device_run *r, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)init, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateBuffer(%zu) failed: %d\n", bytes, err);
        exit(1);
    }
    return m;
}

/* Runs kernel `name` `reps` times and returns the best wall time in ms;
 * reads `out_bytes` of buffer `out` into `result`. */
static double run(device_run *r, const char *name, cl_uint dims, const size_t *global, const size_t *local,
                  cl_mem *bufs, int nbufs, const int *ints, int nints, size_t local_bytes, cl_mem out, void *result,
                  size_t out_bytes)
{
    cl_int err;
    cl_kernel k = clCreateKernel(r->prog, name, &err);
    if (err != CL_SUCCESS)
        return -1;
    int arg = 0;
    for (int i = 0; i < nbufs; i++)
        clSetKernelArg(k, arg++, sizeof(cl_mem), &bufs[i]);
    if (local_bytes)
        clSetKernelArg(k, arg++, local_bytes, NULL);
    for (int i = 0; i < nints; i++)
        clSetKernelArg(k, arg++, sizeof(int), &ints[i]);
    double best = 1e30;
    for (int i = 0; i < reps + 1; i++) {
        double t0 = now();
        err = clEnqueueNDRangeKernel(r->q, k, dims, NULL, global, local, 0, NULL, NULL);
        clFinish(r->q);
        double t = now() - t0;
        if (err != CL_SUCCESS) {
            fprintf(stderr, "%s: launch failed %d\n", name, err);
            return -1;
        }
        if (i > 0 && t < best) /* the first run warms caches and page tables */
            best = t;
    }
    clEnqueueReadBuffer(r->q, out, CL_TRUE, 0, out_bytes, result, 0, NULL, NULL);
    clReleaseKernel(k);
    return best * 1e3;
}

static int close_enough(const float *x, const float *y, size_t n, float tol)
{
    for (size_t i = 0; i < n; i++)
        if (fabsf(x[i] - y[i]) > tol * (1.0f + fabsf(y[i])))
            return 0;
    return 1;
}

/* Runs every kernel on one device; fills ms[] (negative = failed or wrong). */
static void bench_device(device_run *r, double *ms)
{
    size_t n = n_stream;
    float *out = malloc(n * sizeof(float) > mat_n * mat_n * 4 ? n * sizeof(float) : mat_n * mat_n * 4);
    float *ref = malloc(n * sizeof(float));
    cl_mem a = make(r, n * 4, in_a), b = make(r, n * 4, in_b), c = make(r, n * 4, NULL);

    size_t g1 = n;
    ms[0] = run(r, "vadd", 1, &g1, NULL, (cl_mem[]){ a, b, c }, 3, NULL, 0, 0, c, out, n * 4);
    for (size_t i = 0; i < n; i++)
        ref[i] = in_a[i] + in_b[i];
    if (!close_enough(out, ref, n, 0))
        ms[0] = -1;

    ms[1] = run(r, "mathy", 1, &g1, NULL, (cl_mem[]){ a, c }, 2, NULL, 0, 0, c, out, n * 4);
    for (size_t i = 0; i < n; i++) {
        float v = in_a[i];
        ref[i] = sqrtf(fabsf(v)) + ((0.5f * v + 1.25f) * v - 3.0f) * v + expf(-v * v);
    }
    if (!close_enough(out, ref, n, 1e-5f))
        ms[1] = -1;

    size_t gm[2] = { mandel_w, mandel_h };
    cl_mem mo = make(r, mandel_w * mandel_h * 4, NULL);
    int *iout = malloc(mandel_w * mandel_h * 4);
    ms[2] = run(r, "mandel", 2, gm, NULL, &mo, 1, (int[]){ (int)mandel_w, (int)mandel_h }, 2, 0, mo, iout,
                mandel_w * mandel_h * 4);
    long total = 0;
    for (size_t i = 0; i < mandel_w * mandel_h; i++)
        total += iout[i];
    if (total < (long)(mandel_w * mandel_h)) /* every pixel iterates at least once */
        ms[2] = -1;
    free(iout);
    clReleaseMemObject(mo);

    size_t mn = mat_n, gmm[2] = { mn, mn }, lt[2] = { 16, 16 };
    cl_mem ma = make(r, mn * mn * 4, in_a), mb = make(r, mn * mn * 4, in_b), mc = make(r, mn * mn * 4, NULL);
    float *mref = malloc(mn * mn * 4);
    ms[3] = run(r, "matmul", 2, gmm, NULL, (cl_mem[]){ ma, mb, mc }, 3, (int[]){ (int)mn }, 1, 0, mc, mref, mn * mn * 4);
    ms[4] = run(r, "matmul_tiled", 2, gmm, lt, (cl_mem[]){ ma, mb, mc }, 3, (int[]){ (int)mn }, 1, 0, mc, out, mn * mn * 4);
    for (size_t row = 0; row < mn; row += 37) /* spot-check rows of the naive result */
        for (size_t col = 0; col < mn; col++) {
            float s = 0;
            for (size_t k = 0; k < mn; k++)
                s += in_a[row * mn + k] * in_b[k * mn + col];
            if (fabsf(s - mref[row * mn + col]) > 1e-3f * (1 + fabsf(s)))
                ms[3] = -1;
        }
    if (!close_enough(out, mref, mn * mn, 1e-4f))
        ms[4] = -1;
    free(mref);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);

    size_t wg = 256, groups = n / wg;
    cl_mem partial = make(r, groups * 4, NULL);
    ms[5] = run(r, "reduce", 1, &g1, &wg, (cl_mem[]){ a, partial }, 2, NULL, 0, wg * 4, partial, out, groups * 4);
    for (size_t gi = 0; gi < groups; gi += 97) {
        double s = 0;
        for (size_t i = 0; i < wg; i++)
            s += in_a[gi * wg + i];
        if (fabs(s - out[gi]) > 1e-3 * (1 + fabs(s)))
            ms[5] = -1;
    }
    clReleaseMemObject(partial);

    size_t gt[2] = { tiles_w, tiles_h };
    ms[6] = run(r, "fill_tiles", 2, gt, lt, (cl_mem[]){ a, b, c }, 3, (int[]){ (int)tiles_w }, 1, 0, c, out,
                tiles_w * tiles_h * 4);
    for (size_t row = 0; row < tiles_h; row += 13)
        for (size_t col = 0; col < tiles_w; col++) {
            size_t tr = row / 16 * 16, tc = col / 16 * 16, y = row % 16, x = col % 16;
            float expect = in_a[(tr + x) * tiles_w + tc + y] * in_b[row * tiles_w + col];
            if (out[row * tiles_w + col] != expect)
                ms[6] = -1;
        }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    free(out);
    free(ref);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        scale = (size_t)atoi(argv[1]);
    if (argc > 2)
        reps = atoi(argv[2]);
    if (scale < 1)
        scale = 1;
    n_stream = (size_t)(1 << 22) * scale;
    mat_n = 256 * (scale > 4 ? 4 : scale);
    mandel_w = 1024;
    mandel_h = 512 * scale;
    tiles_w = 1024;
    tiles_h = (n_stream / tiles_w) / 16 * 16;
    in_a = malloc(n_stream * 4);
    in_b = malloc(n_stream * 4);
    srand(1);
    for (size_t i = 0; i < n_stream; i++) {
        in_a[i] = (float)rand() / RAND_MAX - 0.5f;
        in_b[i] = (float)rand() / RAND_MAX - 0.5f;
    }

    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    clGetPlatformIDs(MAX_PLATFORMS, platforms, &np);
    char names[MAX_PLATFORMS][64];
    double ms[MAX_PLATFORMS][NUM_BENCH];
    int mosaic = -1, count = 0;
    for (cl_uint p = 0; p < np && p < MAX_PLATFORMS; p++) {
        device_run r;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 1, &r.dev, NULL) != CL_SUCCESS)
            continue;
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof names[count], names[count], NULL);
        if (strstr(names[count], "Mosaic"))
            mosaic = count;
        cl_uint units = 0;
        clGetDeviceInfo(r.dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
        fprintf(stderr, "%s: %u compute units\n", names[count], units);
        r.ctx = clCreateContext(NULL, 1, &r.dev, NULL, NULL, NULL);
        r.q = clCreateCommandQueueWithProperties(r.ctx, r.dev, NULL, NULL);
        cl_int err;
        r.prog = clCreateProgramWithSource(r.ctx, 1, &source, NULL, &err);
        double t0 = now();
        err = clBuildProgram(r.prog, 1, &r.dev, "-cl-std=CL1.2", NULL, NULL);
        fprintf(stderr, "%s: build %.0f ms\n", names[count], (now() - t0) * 1e3);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "%s: build failed (%d)\n", names[count], err);
            continue;
        }
        bench_device(&r, ms[count]);
        clReleaseProgram(r.prog);
        clReleaseCommandQueue(r.q);
        clReleaseContext(r.ctx);
        count++;
    }
    printf("%-14s", "kernel (ms)");
    for (int p = 0; p < count; p++)
        printf(" %14.14s", names[p]);
    if (mosaic >= 0)
        for (int p = 0; p < count; p++)
            if (p != mosaic)
                printf(" %10s", "ratio");
    printf("\n");
    for (int b = 0; b < NUM_BENCH; b++) {
        printf("%-14s", bench_names[b]);
        for (int p = 0; p < count; p++) {
            if (ms[p][b] < 0)
                printf(" %14s", "FAILED");
            else
                printf(" %14.2f", ms[p][b]);
        }
        if (mosaic >= 0)
            for (int p = 0; p < count; p++)
                if (p != mosaic) {
                    if (ms[p][b] > 0 && ms[mosaic][b] > 0)
                        printf(" %10.2f", ms[p][b] / ms[mosaic][b]);
                    else
                        printf(" %10s", "-");
                }
        printf("\n");
    }
    if (mosaic >= 0)
        printf("ratio = other platform's time / Mosaic's time (above 1: Mosaic is faster)\n");
    return 0;
}
