/*
 * tiles_2d: a 2D NDRange cut into work-groups (tiles), and who wrote each cell.
 *
 * What it shows (OpenCL 3.0 API specification, "Execution Model"):
 *  - A 2D NDRange: clEnqueueNDRangeKernel with work_dim 2 runs one work-item per
 *    cell of a width x height grid; the local size (tile_w x tile_h) cuts the grid
 *    into work-groups.  A work-item knows its cell (get_global_id), its work-group
 *    (get_group_id) and its place in the group (get_local_id); for a grid made of
 *    whole tiles, global id = group id * local size + local id in each dimension.
 *  - __local memory sized at enqueue time: the kernel's `local uint *tile` argument
 *    gets its size from clSetKernelArg(kernel, 1, bytes, NULL), one tile per work-group.
 *  - A barrier: each work-item writes its own place in the tile, waits at the
 *    barrier, then reads the place of the work-item mirrored through the tile's
 *    centre, which another work-item wrote.
 *  - Choosing devices by type across every platform: clGetDeviceIDs with
 *    CL_DEVICE_TYPE_CPU, _GPU or _ALL on each platform clGetPlatformIDs lists.
 *
 * For each device it prints a small grid (12 x 8 in tiles of 4 x 4): each cell
 * shows its work-group as a letter and the work-item within it as a hex digit
 * (local id y * 4 + x); then it checks a 1024 x 768 grid in tiles of 16 x 16.
 *
 *   usage: tiles_2d [cpu|gpu|all]      (default: all)
 *
 * Exit status: 0 and "tiles_2d: OK (...)" when every grid on every device is
 * right; 1 when a cell differs (the first few are printed); 2 for a bad argument;
 * 77 when no platform has a device of the type asked for (say, `gpu` on a machine
 * whose only OpenCL device is a CPU): 77 is what test harnesses read as "skipped".
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_DEVICE 77

static const char source[] =
    "/* cell = work-group (bits 16-31), the work-item's local id (bits 8-15), the\n"
    "   local id read from the mirrored place of the tile (bits 0-7) */\n"
    "kernel void fill_tiles(global uint *cells, local uint *tile)\n"
    "{\n"
    "    uint lx = get_local_id(0), ly = get_local_id(1);\n"
    "    uint tw = get_local_size(0), th = get_local_size(1);\n"
    "    uint me = ly * tw + lx;                 /* local linear id */\n"
    "    tile[me] = me;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);           /* the whole tile is written */\n"
    "    uint mirrored = tile[(th - 1 - ly) * tw + (tw - 1 - lx)];\n"
    "    uint group = get_group_id(1) * get_num_groups(0) + get_group_id(0);\n"
    "    size_t x = get_global_id(0), y = get_global_id(1);\n"
    "    cells[y * get_global_size(0) + x] = group << 16 | me << 8 | mirrored;\n"
    "}\n";

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        cl_int err_ = (call);                                                                                \
        if (err_ != CL_SUCCESS) {                                                                            \
            fprintf(stderr, "tiles_2d: %s failed with error %d (line %d)\n", #call, err_, __LINE__);        \
            exit(EXIT_FAILURE);                                                                              \
        }                                                                                                    \
    } while (0)

/* The letter that stands for work-group `g` in the picture. */
static char group_letter(unsigned g)
{
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    return g < sizeof letters - 1 ? letters[g] : '?';
}

/* Runs fill_tiles over a width x height grid in tiles of tile_w x tile_h, checks
 * every cell, and prints the grid when `picture` is set.  Returns the number of
 * cells that differ from what the execution model says. */
static long run_grid(cl_context context, cl_command_queue queue, cl_kernel kernel, size_t width, size_t height,
                     size_t tile_w, size_t tile_h, int picture)
{
    cl_int err;
    size_t count = width * height;
    cl_mem cells_buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, count * sizeof(cl_uint), NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof cells_buf, &cells_buf));
    CHECK(clSetKernelArg(kernel, 1, tile_w * tile_h * sizeof(cl_uint), NULL)); /* __local: a size, no data */
    size_t global[2] = {width, height}, local[2] = {tile_w, tile_h};
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
    cl_uint *cells = malloc(count * sizeof *cells);
    if (!cells)
        exit(EXIT_FAILURE);
    CHECK(clEnqueueReadBuffer(queue, cells_buf, CL_TRUE, 0, count * sizeof *cells, cells, 0, NULL, NULL));

    long wrong = 0;
    size_t groups_x = width / tile_w, last = tile_w * tile_h - 1;
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++) {
            /* what the execution model says about the work-item of cell (x, y) */
            unsigned group = (unsigned)((y / tile_h) * groups_x + x / tile_w);
            unsigned me = (unsigned)((y % tile_h) * tile_w + x % tile_w);
            unsigned mirrored = (unsigned)(last - me);
            cl_uint want = group << 16 | me << 8 | mirrored, got = cells[y * width + x];
            if (got != want && wrong++ < 5)
                printf("  cell (%zu, %zu): work-group %u, work-item %u, mirrored %u; expected %u, %u, %u\n", x, y,
                       got >> 16, (got >> 8) & 0xff, got & 0xff, group, me, mirrored);
        }
    if (picture) {
        printf("  %zu x %zu cells in work-groups of %zu x %zu: letter = work-group, digit = work-item\n", width,
               height, tile_w, tile_h);
        for (size_t y = 0; y < height; y++) {
            printf("   ");
            for (size_t x = 0; x < width; x++) {
                cl_uint c = cells[y * width + x];
                printf(" %c%x", group_letter(c >> 16), (c >> 8) & 0xf);
                if (x % tile_w == tile_w - 1 && x + 1 < width)
                    printf(" |");
            }
            printf("\n");
            if (y % tile_h == tile_h - 1 && y + 1 < height) {
                printf("   ");
                for (size_t x = 0; x < width; x++)
                    printf("%s", x % tile_w == tile_w - 1 && x + 1 < width ? "----+" : "---");
                printf("\n");
            }
        }
    }
    free(cells);
    clReleaseMemObject(cells_buf);
    return wrong;
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "all";
    cl_device_type type;
    if (!strcmp(kind, "cpu"))
        type = CL_DEVICE_TYPE_CPU;
    else if (!strcmp(kind, "gpu"))
        type = CL_DEVICE_TYPE_GPU;
    else if (!strcmp(kind, "all"))
        type = CL_DEVICE_TYPE_ALL;
    else {
        fprintf(stderr, "usage: tiles_2d [cpu|gpu|all]\n");
        return 2;
    }

    /* No platform at all is the same answer as no device of that type. */
    cl_platform_id platforms[16];
    cl_uint n_platforms = 0;
    if (clGetPlatformIDs(16, platforms, &n_platforms) != CL_SUCCESS)
        n_platforms = 0;
    if (n_platforms > 16)
        n_platforms = 16;

    int devices_run = 0;
    long wrong = 0;
    for (cl_uint p = 0; p < n_platforms; p++) {
        cl_device_id devices[16];
        cl_uint n_devices = 0;
        /* CL_DEVICE_NOT_FOUND: this platform has none of that type; look at the next one */
        if (clGetDeviceIDs(platforms[p], type, 16, devices, &n_devices) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < n_devices && d < 16; d++) {
            cl_device_id device = devices[d];
            char platform_name[256] = "", device_name[256] = "";
            clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL);
            clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name, device_name, NULL);
            printf("%s / %s\n", platform_name, device_name);

            cl_int err;
            cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
            CHECK(err);
            cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
            CHECK(err);
            const char *text = source;
            cl_program program = clCreateProgramWithSource(context, 1, &text, NULL, &err);
            CHECK(err);
            if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
                char log[16384] = "";
                clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
                fprintf(stderr, "tiles_2d: the kernel did not build:\n%s\n", log);
                return EXIT_FAILURE;
            }
            cl_kernel kernel = clCreateKernel(program, "fill_tiles", &err);
            CHECK(err);
            /* The large grid's tiles are 16 x 16 = 256 work-items, or 8 x 8 where a
             * device takes fewer in one work-group. */
            size_t max_group = 0, big_tile = 16;
            CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_group, &max_group,
                                           NULL));
            while (big_tile * big_tile > max_group && big_tile > 4)
                big_tile /= 2;

            long small = run_grid(context, queue, kernel, 12, 8, 4, 4, 1);
            long large = run_grid(context, queue, kernel, 1024, 768, big_tile, big_tile, 0);
            printf("  %zu x %zu cells in work-groups of %zu x %zu: %s\n", (size_t)1024, (size_t)768, big_tile,
                   big_tile, large ? "cells differ" : "every cell as expected");
            wrong += small + large;
            devices_run++;

            clReleaseKernel(kernel);
            clReleaseProgram(program);
            clReleaseCommandQueue(queue);
            clReleaseContext(context);
        }
    }

    if (!devices_run) {
        printf("tiles_2d: no %s device on any of the %u OpenCL platform(s) found; nothing to run\n",
               type == CL_DEVICE_TYPE_CPU ? "CPU" : type == CL_DEVICE_TYPE_GPU ? "GPU" : "OpenCL", n_platforms);
        return NO_DEVICE;
    }
    if (wrong) {
        printf("tiles_2d: FAILED: %ld cell(s) differ from the execution model\n", wrong);
        return EXIT_FAILURE;
    }
    printf("tiles_2d: OK (2 grids on each of %d device(s) of type %s, every cell written by the work-item the "
           "execution model names)\n",
           devices_run, kind);
    return EXIT_SUCCESS;
}
