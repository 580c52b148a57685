/*
 * Image kernels on every platform the ICD loader finds with an image-capable
 * device (Mosaic and PoCL side by side in one run): an image copy
 * (read_imagef -> write_imagef), a separable Gaussian blur (two passes, a
 * clamp-to-edge sampler, an RGBA float image between them) and a bilinear
 * resize to 3/4 (normalized coordinates, linear filter), on an RGBA
 * UNORM_INT8 image and an RGBA FLOAT image of size x size pixels.
 *
 *   OCL_ICD_VENDORS=$PWD/build/bench/vendors build/bench/images [size] [repetitions]
 *
 * The platforms run in turns (one repetition of every kernel on each, then
 * the next repetition), so a change in the machine's load touches them all
 * alike; the median of the repetitions is printed, and each platform's time
 * relative to Mosaic's (above 1.00 = Mosaic is faster).  Every platform's
 * output is checked against the host (rows spread over the image) after a
 * warm-up run: a fast wrong answer is printed as WRONG, not as a time.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RADIUS 4 /* 9 taps */
#define SIGMA 1.5

static const char *source =
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "kernel void copy(read_only image2d_t in, write_only image2d_t out)\n"
    "{ int2 p = (int2)(get_global_id(0), get_global_id(1)); write_imagef(out, p, read_imagef(in, p)); }\n"
    "kernel void blur(read_only image2d_t in, write_only image2d_t out, constant float *w, int dx, int dy)\n"
    "{ int2 p = (int2)(get_global_id(0), get_global_id(1)), d = (int2)(dx, dy);\n"
    "  float4 s = w[0] * read_imagef(in, edge, p);\n"
    "  for (int i = 1; i <= RADIUS; i++)\n"
    "    s += w[i] * (read_imagef(in, edge, p + i * d) + read_imagef(in, edge, p - i * d));\n"
    "  write_imagef(out, p, s); }\n"
    "kernel void resize(read_only image2d_t in, write_only image2d_t out)\n"
    "{ int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float2 s = (convert_float2(p) + 0.5f) / convert_float2(get_image_dim(out));\n"
    "  write_imagef(out, p, read_imagef(in, bilinear, s)); }\n";

enum { MAX_PLATFORMS = 8, NFMT = 2, NOPS = 3, NBENCH = NFMT * NOPS, MAX_REPS = 101 };
static const char *op_names[NOPS] = {"copy", "blur", "resize"};
static const char *fmt_names[NFMT] = {"RGBA8", "RGBAf"};
static const cl_channel_type fmt_types[NFMT] = {CL_UNORM_INT8, CL_FLOAT};

static size_t W, H, RW, RH; /* the image, the resized one */
static int reps = 7;
static unsigned char *in8;  /* RGBA UNORM_INT8 */
static float *inf;          /* RGBA FLOAT */
static float weights[RADIUS + 1];

typedef struct platform_run {
    char name[64];
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel copy, blur, resize;
    cl_mem in[NFMT], mid[NFMT], out[NFMT], rout[NFMT], w;
    double t[NBENCH][MAX_REPS];
    bool wrong[NBENCH];
    double err[NBENCH];
} platform_run;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, cl_int err)
{
    fprintf(stderr, "%s failed: %d\n", what, err);
    exit(1);
}

static cl_mem image(platform_run *p, cl_channel_type type, size_t w, size_t h, void *host)
{
    cl_image_format f = {CL_RGBA, type};
    cl_image_desc d = {0};
    d.image_type = CL_MEM_OBJECT_IMAGE2D, d.image_width = w, d.image_height = h;
    cl_int err;
    cl_mem m = clCreateImage(p->ctx, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), &f, &d, host, &err);
    if (err != CL_SUCCESS)
        die("clCreateImage", err);
    return m;
}

static void set(cl_kernel k, cl_uint i, size_t size, const void *v)
{
    cl_int err = clSetKernelArg(k, i, size, v);
    if (err != CL_SUCCESS)
        die("clSetKernelArg", err);
}

/* One run of benchmark b (format b / NOPS, operation b % NOPS); its wall time in seconds. */
static double run(platform_run *p, int b)
{
    int f = b / NOPS, op = b % NOPS;
    size_t g[2] = {W, H}, rg[2] = {RW, RH};
    double t0 = now();
    cl_int err = CL_SUCCESS;
    if (op == 0) {
        set(p->copy, 0, sizeof(cl_mem), &p->in[f]);
        set(p->copy, 1, sizeof(cl_mem), &p->out[f]);
        err = clEnqueueNDRangeKernel(p->q, p->copy, 2, NULL, g, NULL, 0, NULL, NULL);
    } else if (op == 1) {
        for (int pass = 0; pass < 2 && err == CL_SUCCESS; pass++) {
            int dx = !pass, dy = pass;
            set(p->blur, 0, sizeof(cl_mem), pass ? &p->mid[f] : &p->in[f]);
            set(p->blur, 1, sizeof(cl_mem), pass ? &p->out[f] : &p->mid[f]);
            set(p->blur, 2, sizeof(cl_mem), &p->w);
            set(p->blur, 3, sizeof(int), &dx);
            set(p->blur, 4, sizeof(int), &dy);
            err = clEnqueueNDRangeKernel(p->q, p->blur, 2, NULL, g, NULL, 0, NULL, NULL);
        }
    } else {
        set(p->resize, 0, sizeof(cl_mem), &p->in[f]);
        set(p->resize, 1, sizeof(cl_mem), &p->rout[f]);
        err = clEnqueueNDRangeKernel(p->q, p->resize, 2, NULL, rg, NULL, 0, NULL, NULL);
    }
    if (err != CL_SUCCESS)
        die("clEnqueueNDRangeKernel", err);
    clFinish(p->q);
    return now() - t0;
}

/* ---- the host's answers, on rows spread over the image ---------------------------- */
static double in_value(int f, size_t x, size_t y, int c)
{
    size_t i = 4 * (y * W + x) + (size_t)c;
    return f == 0 ? in8[i] / 255.0 : inf[i];
}

static size_t clampz(long v, size_t n) { return v < 0 ? 0 : (size_t)v >= n ? n - 1 : (size_t)v; }

/* The largest difference between a row of the device's output and the host's
 * value of each pixel (in 1/255 steps for RGBA8). */
static double check(int b, const void *out, size_t ow, size_t y)
{
    int f = b / NOPS, op = b % NOPS;
    double worst = 0;
    for (size_t x = 0; x < ow; x++)
        for (int c = 0; c < 4; c++) {
            double want;
            if (op == 0) {
                want = in_value(f, x, y, c);
            } else if (op == 1) {
                want = 0;
                for (int j = -RADIUS; j <= RADIUS; j++) {
                    double h = 0;
                    size_t yy = clampz((long)y + j, H);
                    for (int i = -RADIUS; i <= RADIUS; i++)
                        h += weights[abs(i)] * in_value(f, clampz((long)x + i, W), yy, c);
                    want += weights[abs(j)] * h;
                }
            } else {
                double u = (x + 0.5) / RW * W - 0.5, v = (y + 0.5) / RH * H - 0.5;
                long i0 = (long)floor(u), j0 = (long)floor(v);
                double a = u - i0, bb = v - j0;
                want = (1 - a) * (1 - bb) * in_value(f, clampz(i0, W), clampz(j0, H), c) +
                       a * (1 - bb) * in_value(f, clampz(i0 + 1, W), clampz(j0, H), c) +
                       (1 - a) * bb * in_value(f, clampz(i0, W), clampz(j0 + 1, H), c) +
                       a * bb * in_value(f, clampz(i0 + 1, W), clampz(j0 + 1, H), c);
            }
            double got, d;
            if (f == 0) {
                double q = want * 255;
                q = q < 0 ? 0 : q > 255 ? 255 : q;
                got = ((const unsigned char *)out)[4 * x + (size_t)c];
                d = fabs(got - rint(q));
            } else {
                got = ((const float *)out)[4 * x + (size_t)c];
                d = fabs(got - want);
            }
            worst = d > worst ? d : worst;
        }
    return worst;
}

static void verify(platform_run *p, int b)
{
    int f = b / NOPS, op = b % NOPS;
    size_t ow = op == 2 ? RW : W, oh = op == 2 ? RH : H, px = f == 0 ? 4 : 16;
    cl_mem m = op == 2 ? p->rout[f] : p->out[f];
    void *row = malloc(ow * px);
    double worst = 0;
    for (size_t y = 0;; y = y + 97 < oh ? y + 97 : oh - 1) { /* every 97th row and the last */
        size_t origin[3] = {0, y, 0}, region[3] = {ow, 1, 1};
        cl_int err = clEnqueueReadImage(p->q, m, CL_TRUE, origin, region, 0, 0, row, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            die("clEnqueueReadImage", err);
        double e = check(b, row, ow, y);
        worst = e > worst ? e : worst;
        if (y == oh - 1)
            break;
    }
    free(row);
    /* copy exact; blur and resize within one step of 8 bits or the float rounding of filtering */
    double tol = op == 0 ? 0 : f == 0 ? 1 : op == 1 ? 1e-4 : 2e-3;
    p->err[b] = worst;
    p->wrong[b] = worst > tol;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    W = H = argc > 1 ? (size_t)atol(argv[1]) : 4096;
    if (argc > 2)
        reps = atoi(argv[2]);
    if (W < 16)
        W = H = 16;
    if (reps < 1)
        reps = 1;
    if (reps > MAX_REPS)
        reps = MAX_REPS;
    RW = W * 3 / 4, RH = H * 3 / 4;
    double sum = 0;
    for (int i = 0; i <= RADIUS; i++)
        sum += (i ? 2 : 1) * exp(-i * i / (2 * SIGMA * SIGMA));
    for (int i = 0; i <= RADIUS; i++)
        weights[i] = (float)(exp(-i * i / (2 * SIGMA * SIGMA)) / sum);
    /* a smooth picture with noise: edges for the blur, detail for the resize */
    in8 = malloc(W * H * 4);
    inf = malloc(W * H * 16);
    srand(1);
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++)
            for (int c = 0; c < 4; c++) {
                double v = 0.5 + 0.4 * sin(x * 0.013 * (c + 1)) * cos(y * 0.007 * (c + 2)) + (rand() % 32) / 400.0;
                if (((x / 64) ^ (y / 64)) & 1)
                    v = 1 - v;
                in8[4 * (y * W + x) + c] = (unsigned char)lrint(v * 255);
                inf[4 * (y * W + x) + c] = (float)v;
            }

    cl_platform_id ids[MAX_PLATFORMS];
    cl_uint np = 0;
    clGetPlatformIDs(MAX_PLATFORMS, ids, &np);
    static platform_run runs[MAX_PLATFORMS];
    int count = 0, mosaic = -1;
    for (cl_uint i = 0; i < np && i < MAX_PLATFORMS; i++) {
        platform_run *p = &runs[count];
        cl_bool images = CL_FALSE;
        if (clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_CPU, 1, &p->dev, NULL) != CL_SUCCESS)
            continue;
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof p->name, p->name, NULL);
        clGetDeviceInfo(p->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
        if (!images) {
            fprintf(stderr, "%s: no image support, skipped\n", p->name);
            continue;
        }
        cl_uint units = 0;
        clGetDeviceInfo(p->dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
        cl_int err;
        p->ctx = clCreateContext(NULL, 1, &p->dev, NULL, NULL, &err);
        if (err != CL_SUCCESS)
            die("clCreateContext", err);
        p->q = clCreateCommandQueueWithProperties(p->ctx, p->dev, NULL, &err);
        p->prog = clCreateProgramWithSource(p->ctx, 1, &source, NULL, &err);
        double t0 = now();
        char options[32];
        snprintf(options, sizeof options, "-DRADIUS=%d", RADIUS);
        err = clBuildProgram(p->prog, 1, &p->dev, options, NULL, NULL);
        fprintf(stderr, "%s: %u compute units, build %.0f ms\n", p->name, units, (now() - t0) * 1e3);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "%s: build failed (%d), skipped\n", p->name, err);
            continue;
        }
        p->copy = clCreateKernel(p->prog, "copy", &err);
        p->blur = clCreateKernel(p->prog, "blur", &err);
        p->resize = clCreateKernel(p->prog, "resize", &err);
        if (err != CL_SUCCESS)
            die("clCreateKernel", err);
        for (int f = 0; f < NFMT; f++) {
            p->in[f] = image(p, fmt_types[f], W, H, f == 0 ? (void *)in8 : (void *)inf);
            p->mid[f] = image(p, CL_FLOAT, W, H, NULL);
            p->out[f] = image(p, fmt_types[f], W, H, NULL);
            p->rout[f] = image(p, fmt_types[f], RW, RH, NULL);
        }
        p->w = clCreateBuffer(p->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof weights, weights, &err);
        if (err != CL_SUCCESS)
            die("clCreateBuffer", err);
        /* a warm-up run of each (kernels compiled on first use, pages touched), then its check */
        for (int b = 0; b < NBENCH; b++) {
            run(p, b);
            verify(p, b);
        }
        if (strstr(p->name, "Mosaic"))
            mosaic = count;
        count++;
    }
    if (!count) {
        fprintf(stderr, "no platform with an image-capable CPU device\n");
        return 1;
    }
    /* the repetitions, the platforms in turns */
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < count; i++)
            for (int b = 0; b < NBENCH; b++)
                runs[i].t[b][r] = run(&runs[i], b);

    printf("%zux%zu images (resize to %zux%zu), median of %d runs, ms\n", W, H, RW, RH, reps);
    printf("%-14s", "kernel");
    for (int i = 0; i < count; i++)
        printf(" %14.14s", runs[i].name);
    for (int i = 0; i < count; i++)
        if (i != mosaic && mosaic >= 0)
            printf(" %8s", "ratio");
    printf("\n");
    for (int b = 0; b < NBENCH; b++) {
        char label[32];
        snprintf(label, sizeof label, "%s %s", op_names[b % NOPS], fmt_names[b / NOPS]);
        printf("%-14s", label);
        double med[MAX_PLATFORMS];
        for (int i = 0; i < count; i++) {
            qsort(runs[i].t[b], (size_t)reps, sizeof(double), cmp);
            med[i] = runs[i].t[b][reps / 2] * 1e3;
            if (runs[i].wrong[b])
                printf(" %14s", "WRONG");
            else
                printf(" %14.2f", med[i]);
        }
        for (int i = 0; i < count; i++)
            if (i != mosaic && mosaic >= 0) {
                if (runs[i].wrong[b] || runs[mosaic].wrong[b])
                    printf(" %8s", "-");
                else
                    printf(" %8.2f", med[i] / med[mosaic]);
            }
        printf("\n");
    }
    printf("max error against the host (RGBA8: 1/255 steps; float: absolute):\n");
    for (int i = 0; i < count; i++) {
        printf("  %-14.14s", runs[i].name);
        for (int b = 0; b < NBENCH; b++)
            printf(" %s %s %.3g%s;", op_names[b % NOPS], fmt_names[b / NOPS], runs[i].err[b],
                   runs[i].wrong[b] ? " (WRONG)" : "");
        printf("\n");
    }
    if (mosaic >= 0 && count > 1)
        printf("ratio = other platform's time / Mosaic's time (above 1: Mosaic is faster)\n");
    for (int i = 0; i < count; i++) {
        platform_run *p = &runs[i];
        for (int f = 0; f < NFMT; f++)
            clReleaseMemObject(p->in[f]), clReleaseMemObject(p->mid[f]), clReleaseMemObject(p->out[f]),
                clReleaseMemObject(p->rout[f]);
        clReleaseMemObject(p->w);
        clReleaseKernel(p->copy), clReleaseKernel(p->blur), clReleaseKernel(p->resize);
        clReleaseProgram(p->prog);
        clReleaseCommandQueue(p->q);
        clReleaseContext(p->ctx);
    }
    free(in8), free(inf);
    return 0;
}
