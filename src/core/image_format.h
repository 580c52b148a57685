/*
 * Image formats: which (channel order, channel data type) pairs OpenCL
 * defines, which of them Mosaic's devices support, and the size of a pixel
 * (core/image_format.c holds the one table; docs/images.md lists it).  Used
 * by image creation and clGetSupportedImageFormats (api/image.c), the
 * kernel argument code (the mosaic_image_desc of compiler.h) and the
 * devices.
 *
 * Also the fill colour of clEnqueueFillImage turned into one pixel's bytes
 * (mosaic_image_pack_color): a pure function of the format and the colour,
 * with OpenCL C's conversion rules for writes (round to nearest even,
 * saturation, sRGB encoding, half).
 */
#ifndef MOSAIC_IMAGE_FORMAT_H
#define MOSAIC_IMAGE_FORMAT_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether OpenCL defines the pair (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR when
 * not): known order and type, packed types only with CL_RGB/CL_RGBx,
 * CL_INTENSITY/CL_LUMINANCE only with normalized and float types, ... */
bool mosaic_image_format_valid(const cl_image_format *format);

/* Whether the device supports the format for an image of `type` (any
 * CL_MEM_OBJECT_IMAGE*), whatever the access. */
bool mosaic_image_format_supported(const cl_image_format *format, cl_mem_object_type type);

/* clGetSupportedImageFormats for one device: the supported formats of
 * `type` that kernels may access as `flags` says (CL_MEM_READ_ONLY,
 * CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE; no
 * access bit means CL_MEM_READ_WRITE).  Writes at most `max` into `out`
 * (may be NULL) and returns how many there are. */
cl_uint mosaic_image_formats(cl_mem_object_type type, cl_mem_flags flags, cl_image_format *out, cl_uint max);

/* Bytes per pixel of a valid format (0 for an invalid one), and the
 * channels a pixel stores (CL_RGB with 565: 3; CL_INTENSITY: 1). */
size_t mosaic_image_pixel_size(const cl_image_format *format);
unsigned mosaic_image_num_channels(cl_channel_order order);

/* True for the integer channel types whose colours are int4 (signed) or
 * uint4 (unsigned) instead of float4. */
bool mosaic_image_type_is_signed_int(cl_channel_type type);
bool mosaic_image_type_is_unsigned_int(cl_channel_type type);

/* clEnqueueFillImage's colour converted to one pixel of `format` (a
 * supported one), written to pixel[0 .. pixel size).  `color` is what the
 * application passed: a float for CL_DEPTH, else four floats, ints or
 * unsigned ints (by the channel type) in R, G, B, A order. */
void mosaic_image_pack_color(const cl_image_format *format, const void *color, unsigned char *pixel);

#endif
