/*
 * Images and samplers on a picture: a separable Gaussian blur (two kernels,
 * a sampler with CLK_ADDRESS_CLAMP_TO_EDGE, an RGBA float image between the
 * passes) and a bilinear resize (normalized coordinates, CLK_FILTER_LINEAR),
 * written as PPM files; each result is checked against the same computation
 * on the host, and the largest difference is printed in 1/255 steps.
 *
 *   usage: image_blur_resize [picture.ppm|- [output folder]]
 *
 * Without a picture (or with -) it draws a test pattern (gradients, a colour wheel,
 * sharp stripes and a checkerboard) and writes it as pattern.ppm beside
 * blur.ppm and resize.ppm, so the three can be compared side by side.  The
 * output folder defaults to the current one.
 *
 * Prints "image_blur_resize: OK (...)" and exits 0, or exits 1.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIGMA 2.5f
#define RADIUS 8       /* taps on each side: about 3 sigma */
#define SCALE_NUM 5    /* the resize: 5/3 of the size */
#define SCALE_DEN 3

static const char source[] =
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    /* one pass of the blur along (dx, dy); w[0..radius] are the weights of the taps */
    "kernel void blur(read_only image2d_t in, write_only image2d_t out, constant float *w, int radius,"
    "                 int dx, int dy) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    float4 sum = w[0] * read_imagef(in, edge, p);\n"
    "    for (int i = 1; i <= radius; i++)\n"
    "        sum += w[i] * (read_imagef(in, edge, p + (int2)(i * dx, i * dy)) +\n"
    "                       read_imagef(in, edge, p - (int2)(i * dx, i * dy)));\n"
    "    write_imagef(out, p, sum);\n"
    "}\n"
    /* the centre of each output pixel in normalized coordinates of the input */
    "kernel void resize(read_only image2d_t in, write_only image2d_t out) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    float2 s = (convert_float2(p) + 0.5f) / convert_float2(get_image_dim(out));\n"
    "    write_imagef(out, p, read_imagef(in, bilinear, s));\n"
    "}\n";

/* ---- PPM files (P6, 8 bits) and the test pattern ---------------------------------- */
static unsigned char *read_ppm(const char *path, int *w, int *h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char magic[3] = "";
    int maxval = 0;
    unsigned char *rgb = NULL;
    /* the header: P6, then width, height, maxval, with # comments between */
    if (fscanf(f, "%2s", magic) == 1 && !strcmp(magic, "P6")) {
        int v[3] = {0, 0, 0}, n = 0;
        while (n < 3) {
            int c = fgetc(f);
            if (c == '#') {
                while (c != '\n' && c != EOF)
                    c = fgetc(f);
            } else if (c >= '0' && c <= '9') {
                ungetc(c, f);
                if (fscanf(f, "%d", &v[n++]) != 1)
                    break;
            } else if (c == EOF) {
                break;
            }
        }
        fgetc(f); /* the one whitespace after maxval */
        *w = v[0], *h = v[1], maxval = v[2];
        if (n == 3 && maxval == 255 && *w > 0 && *h > 0 && *w <= 16384 && *h <= 16384) {
            rgb = malloc((size_t)*w * *h * 3);
            if (fread(rgb, 3, (size_t)*w * *h, f) != (size_t)*w * *h) {
                free(rgb);
                rgb = NULL;
            }
        }
    }
    fclose(f);
    if (!rgb)
        fprintf(stderr, "%s: not a P6 PPM file with maxval 255\n", path);
    return rgb;
}

/* Writes the RGB of an RGBA picture. */
static int write_ppm(const char *dir, const char *name, const unsigned char *rgba, int w, int h)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "P6\n%d %d\n255\n", w, h);
    for (size_t i = 0; i < (size_t)w * h; i++)
        fwrite(rgba + 4 * i, 1, 3, f);
    fclose(f);
    printf("wrote %s (%dx%d)\n", path, w, h);
    return 0;
}

static unsigned char to_byte(double v) { return (unsigned char)lrint(v < 0 ? 0 : v > 255 ? 255 : v); }

/* A picture a person can judge: smooth gradients (top), a colour wheel and
 * rings (middle), stripes one, two and four pixels wide and a checkerboard
 * (bottom); blurring shows on the edges, resizing on the stripes. */
static unsigned char *test_pattern(int w, int h)
{
    unsigned char *rgb = malloc((size_t)w * h * 3);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double r, g, b, fx = (double)x / (w - 1), fy = (double)y / (h - 1);
            if (fy < 0.25) { /* a hue ramp above a grey ramp */
                double hue = fx * 6, t = hue - floor(hue), k = fy < 0.125 ? 1 : 0;
                int sector = (int)hue % 6;
                double c[6][3] = {{1, t, 0}, {1 - t, 1, 0}, {0, 1, t}, {0, 1 - t, 1}, {t, 0, 1}, {1, 0, 1 - t}};
                r = k ? c[sector][0] : fx, g = k ? c[sector][1] : fx, b = k ? c[sector][2] : fx;
            } else if (fy < 0.7) { /* a colour wheel with rings, on a diagonal gradient */
                double cx = x - w * 0.5, cy = y - h * 0.475, d = sqrt(cx * cx + cy * cy), R = h * 0.2;
                if (d < R) {
                    double a = atan2(cy, cx);
                    r = 0.5 + 0.5 * cos(a), g = 0.5 + 0.5 * cos(a - 2.094), b = 0.5 + 0.5 * cos(a + 2.094);
                    if ((int)(d / (R / 6)) % 2)
                        r *= d / R, g *= d / R, b *= d / R;
                } else {
                    r = 0.2 + 0.6 * fx, g = 0.3, b = 0.2 + 0.6 * (1 - fy);
                }
            } else { /* stripes of widths 1, 2, 4 and a checkerboard of 8 */
                int band = x * 4 / w, on;
                if (band < 3)
                    on = (x >> band) & 1;
                else
                    on = ((x >> 3) ^ (y >> 3)) & 1;
                r = g = b = on ? 0.95 : 0.05;
                if (band == 1)
                    g = 0.05 + 0.9 * on * fy; /* a tint to see the channels stay apart */
            }
            unsigned char *p = rgb + 3 * ((size_t)y * w + x);
            p[0] = to_byte(r * 255), p[1] = to_byte(g * 255), p[2] = to_byte(b * 255);
        }
    return rgb;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CHECK_CL(call)                                                                                     \
    do {                                                                                                   \
        cl_int e_ = (call);                                                                                \
        if (e_ != CL_SUCCESS) {                                                                            \
            fprintf(stderr, "%s:%d: %s: error %d\n", __FILE__, __LINE__, #call, e_);                      \
            exit(EXIT_FAILURE);                                                                            \
        }                                                                                                  \
    } while (0)

static cl_mem image2d(cl_context ctx, cl_mem_flags flags, cl_channel_type type, int w, int h, void *host)
{
    cl_image_format f = {CL_RGBA, type};
    cl_image_desc d = {0};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = (size_t)w, d.image_height = (size_t)h;
    cl_int err;
    cl_mem m = clCreateImage(ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), &f, &d, host, &err);
    CHECK_CL(err);
    return m;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 2 ? argv[2] : ".";
    int w = 640, h = 480;
    bool pattern = argc <= 1 || !strcmp(argv[1], "-");
    unsigned char *rgb = pattern ? test_pattern(w, h) : read_ppm(argv[1], &w, &h);
    if (!rgb)
        return EXIT_FAILURE;
    size_t n = (size_t)w * h;
    unsigned char *rgba = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        memcpy(rgba + 4 * i, rgb + 3 * i, 3), rgba[4 * i + 3] = 255;
    if (pattern && write_ppm(dir, "pattern.ppm", rgba, w, h))
        return EXIT_FAILURE;

    /* the platform's first device that supports images */
    cl_platform_id platforms[16];
    cl_uint np = 0;
    CHECK_CL(clGetPlatformIDs(16, platforms, &np));
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; i++) {
        cl_device_id d;
        cl_bool images = CL_FALSE;
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL) == CL_SUCCESS && images)
            dev = d;
    }
    if (!dev) {
        fprintf(stderr, "no OpenCL device with image support\n");
        return EXIT_FAILURE;
    }
    char name[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("device: %s; picture %dx%d\n", name, w, h);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK_CL(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    CHECK_CL(err);
    const char *src = source;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_CL(err);
    if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return EXIT_FAILURE;
    }
    cl_kernel kblur = clCreateKernel(prog, "blur", &err);
    CHECK_CL(err);
    cl_kernel kresize = clCreateKernel(prog, "resize", &err);
    CHECK_CL(err);

    /* the Gaussian's taps, normalized to sum 1 */
    float wt[RADIUS + 1];
    double sum = 0;
    for (int i = 0; i <= RADIUS; i++)
        sum += (i ? 2 : 1) * exp(-(double)i * i / (2.0 * SIGMA * SIGMA));
    for (int i = 0; i <= RADIUS; i++)
        wt[i] = (float)(exp(-(double)i * i / (2.0 * SIGMA * SIGMA)) / sum);

    cl_mem in = image2d(ctx, CL_MEM_READ_ONLY, CL_UNORM_INT8, w, h, rgba);
    cl_mem mid = image2d(ctx, CL_MEM_READ_WRITE, CL_FLOAT, w, h, NULL);
    cl_mem blurred = image2d(ctx, CL_MEM_WRITE_ONLY, CL_UNORM_INT8, w, h, NULL);
    int rw = w * SCALE_NUM / SCALE_DEN, rh = h * SCALE_NUM / SCALE_DEN;
    cl_mem resized = image2d(ctx, CL_MEM_WRITE_ONLY, CL_UNORM_INT8, rw, rh, NULL);
    cl_mem weights = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof wt, wt, &err);
    CHECK_CL(err);

    double t0 = seconds();
    size_t global[2] = {(size_t)w, (size_t)h}, rglobal[2] = {(size_t)rw, (size_t)rh};
    int radius = RADIUS;
    for (int pass = 0; pass < 2; pass++) {
        cl_mem src_img = pass ? mid : in, dst_img = pass ? blurred : mid;
        int dx = !pass, dy = pass;
        CHECK_CL(clSetKernelArg(kblur, 0, sizeof(cl_mem), &src_img));
        CHECK_CL(clSetKernelArg(kblur, 1, sizeof(cl_mem), &dst_img));
        CHECK_CL(clSetKernelArg(kblur, 2, sizeof(cl_mem), &weights));
        CHECK_CL(clSetKernelArg(kblur, 3, sizeof(int), &radius));
        CHECK_CL(clSetKernelArg(kblur, 4, sizeof(int), &dx));
        CHECK_CL(clSetKernelArg(kblur, 5, sizeof(int), &dy));
        CHECK_CL(clEnqueueNDRangeKernel(q, kblur, 2, NULL, global, NULL, 0, NULL, NULL));
    }
    CHECK_CL(clSetKernelArg(kresize, 0, sizeof(cl_mem), &in));
    CHECK_CL(clSetKernelArg(kresize, 1, sizeof(cl_mem), &resized));
    CHECK_CL(clEnqueueNDRangeKernel(q, kresize, 2, NULL, rglobal, NULL, 0, NULL, NULL));
    unsigned char *out_blur = malloc(n * 4), *out_resize = malloc((size_t)rw * rh * 4);
    size_t origin[3] = {0, 0, 0}, region[3] = {(size_t)w, (size_t)h, 1}, rregion[3] = {(size_t)rw, (size_t)rh, 1};
    CHECK_CL(clEnqueueReadImage(q, blurred, CL_TRUE, origin, region, 0, 0, out_blur, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadImage(q, resized, CL_TRUE, origin, rregion, 0, 0, out_resize, 0, NULL, NULL));
    printf("blur (two passes) and resize on the device: %.1f ms\n",
           (seconds() - t0) * 1e3);

    /* the host's blur: the same two passes in double, clamped to the edge */
    double *tmp = malloc(n * 4 * sizeof(double));
    int err_blur = 0, err_resize = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 4; c++) {
                double s = 0;
                for (int i = -RADIUS; i <= RADIUS; i++) {
                    int xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
                    s += wt[abs(i)] * (rgba[4 * ((size_t)y * w + xx) + c] / 255.0);
                }
                tmp[4 * ((size_t)y * w + x) + c] = s;
            }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 4; c++) {
                double s = 0;
                for (int i = -RADIUS; i <= RADIUS; i++) {
                    int yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
                    s += wt[abs(i)] * tmp[4 * ((size_t)yy * w + x) + c];
                }
                int d = abs(out_blur[4 * ((size_t)y * w + x) + c] - to_byte(s * 255));
                err_blur = d > err_blur ? d : err_blur;
            }
    /* the host's resize: the specification's bilinear filter at each output pixel's centre */
    for (int y = 0; y < rh; y++)
        for (int x = 0; x < rw; x++) {
            double u = (x + 0.5) / rw * w - 0.5, v = (y + 0.5) / rh * h - 0.5;
            int i0 = (int)floor(u), j0 = (int)floor(v);
            double a = u - i0, b = v - j0;
            for (int c = 0; c < 4; c++) {
                double t[2][2];
                for (int dj = 0; dj < 2; dj++)
                    for (int di = 0; di < 2; di++) {
                        int i = i0 + di < 0 ? 0 : i0 + di >= w ? w - 1 : i0 + di;
                        int j = j0 + dj < 0 ? 0 : j0 + dj >= h ? h - 1 : j0 + dj;
                        t[dj][di] = rgba[4 * ((size_t)j * w + i) + c];
                    }
                double s = (1 - a) * (1 - b) * t[0][0] + a * (1 - b) * t[0][1] + (1 - a) * b * t[1][0] + a * b * t[1][1];
                int d = abs(out_resize[4 * ((size_t)y * rw + x) + c] - to_byte(s));
                err_resize = d > err_resize ? d : err_resize;
            }
        }
    printf("max error against the host: blur %d/255, resize %d/255\n", err_blur, err_resize);
    int ok = err_blur <= 1 && err_resize <= 1;
    if (write_ppm(dir, "blur.ppm", out_blur, w, h) || write_ppm(dir, "resize.ppm", out_resize, rw, rh))
        ok = 0;
    if (ok)
        printf("image_blur_resize: OK (blur and resize within 1/255 of the host's, %dx%d and %dx%d)\n", w, h, rw, rh);
    else
        printf("image_blur_resize: FAILED (the images differ from the host's by more than 1/255, or a file "
               "could not be written)\n");

    free(tmp), free(out_blur), free(out_resize), free(rgba), free(rgb);
    clReleaseMemObject(in), clReleaseMemObject(mid), clReleaseMemObject(blurred), clReleaseMemObject(resized);
    clReleaseMemObject(weights);
    clReleaseKernel(kblur), clReleaseKernel(kresize);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
