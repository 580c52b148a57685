/*
 * libFuzzer harness: clCreateImage's parameters.  From the input: the
 * flags, the format (channel order and type), the descriptor (type, sizes,
 * pitches, levels, samples, and the buffer of a 1D buffer image or 2D image
 * from a buffer: the harness's, or NULL) and whether host memory comes with
 * it.  Sizes are small numbers or the edge values the checks must catch (0,
 * one past the device's limits, SIZE_MAX); host memory is the harness's own
 * 1 MiB, given only for images that fit in it (reading past an application's
 * allocation is the application's bug, not one to find here).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"

/* a dimension: mostly small, sometimes an edge value.  Past the largest
 * limit (the CPU's 16384 for 2D images), never at it: an image at the
 * limits is a legal allocation of gigabytes, which the fuzzer's own memory
 * limit would report. */
static size_t dimension(uint8_t b)
{
    switch (b >> 5) {
    case 0: return 0;
    case 1: return 16385 + (b & 31);
    case 2: return SIZE_MAX - (b & 31);
    default: return b & 63;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_env *env = fuzz_env_get();
    static cl_mem buffer;
    static unsigned char host[1 << 20];
    cl_int err;
    if (!buffer)
        buffer = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 1 << 16, NULL, &err);
    uint8_t b[16];
    fuzz_take(&data, &size, b, sizeof b);
    cl_mem_flags flags = 0;
    fuzz_take(&data, &size, &flags, 2); /* the low bits: where every flag is */
    cl_image_format format = {CL_R + (b[0] % 0x20), CL_SNORM_INT8 + (b[1] % 0x20)};
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_BUFFER + (b[2] % 8);
    desc.image_width = dimension(b[3]);
    desc.image_height = dimension(b[4]);
    desc.image_depth = dimension(b[5]);
    desc.image_array_size = dimension(b[6]);
    desc.image_row_pitch = b[7] & 1 ? dimension(b[8]) * 16 : 0;
    desc.image_slice_pitch = b[7] & 2 ? dimension(b[9]) * 256 : 0;
    desc.num_mip_levels = b[10] & 4 ? b[10] >> 4 : 0;
    desc.num_samples = b[10] & 8 ? b[11] & 3 : 0;
    desc.buffer = b[12] & 1 ? buffer : NULL;
    /* host memory only where the whole image (16 bytes a pixel at most) fits */
    size_t w = desc.image_width, h = desc.image_height ? desc.image_height : 1,
           d = desc.image_depth ? desc.image_depth : 1, a = desc.image_array_size ? desc.image_array_size : 1;
    int small = w <= 64 && h <= 64 && d <= 64 && a <= 64 && desc.image_row_pitch <= 64 * 16 &&
                desc.image_slice_pitch <= 64 * 256 && (desc.image_row_pitch ? desc.image_row_pitch : w * 16) * h *
                d * a <= sizeof host && (desc.image_slice_pitch ? desc.image_slice_pitch : 0) * d * a <= sizeof host;
    void *host_ptr = b[13] & 1 && small ? host : NULL;
    cl_mem image = clCreateImage(env->context, flags, &format, &desc, host_ptr, &err);
    if ((image != NULL) != (err == CL_SUCCESS))
        abort();
    if (image) {
        size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
        unsigned char pixel[16];
        clEnqueueReadImage(env->queue, image, CL_TRUE, origin, region, 0, 0, pixel, 0, NULL, NULL);
        clReleaseMemObject(image);
    }
    return 0;
}
