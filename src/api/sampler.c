/*
 * Samplers: clCreateSampler, clCreateSamplerWithProperties,
 * clRetainSampler, clReleaseSampler, clGetSamplerInfo.
 *
 * Samplers exist for images; a context none of whose devices supports
 * images cannot create one (CL_INVALID_OPERATION).  A sampler is passed to
 * a kernel as its bits (sampler->bits, the CLK_* encoding of OpenCL C that
 * compiler.h names MOSAIC_SAMPLER_*), taken when the kernel is enqueued, so
 * a kernel argument holds no reference on it (docs/images.md).
 */
#include "api/api.h"
#include "api/entry.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static void sampler_destroy(void *self)
{
    cl_sampler sampler = self;
    mosaic_release_internal(sampler->context);
    free(sampler->properties);
    free(sampler);
}

static bool valid_addressing(cl_addressing_mode mode)
{
    switch (mode) {
    case CL_ADDRESS_NONE:
    case CL_ADDRESS_CLAMP_TO_EDGE:
    case CL_ADDRESS_CLAMP:
    case CL_ADDRESS_REPEAT:
    case CL_ADDRESS_MIRRORED_REPEAT:
        return true;
    default:
        return false;
    }
}

static bool valid_filter(cl_filter_mode mode)
{
    return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR;
}

/* The sampler_t value a kernel receives for these settings. */
static uint32_t sampler_bits(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter)
{
    uint32_t bits = normalized ? MOSAIC_SAMPLER_NORMALIZED_COORDS : 0;
    switch (addressing) { /* CLK_ADDRESS_*: none 0, clamp to edge 2, clamp 4, repeat 6, mirrored repeat 8 */
    case CL_ADDRESS_CLAMP_TO_EDGE: bits |= 2; break;
    case CL_ADDRESS_CLAMP: bits |= 4; break;
    case CL_ADDRESS_REPEAT: bits |= 6; break;
    case CL_ADDRESS_MIRRORED_REPEAT: bits |= 8; break;
    default: break; /* CL_ADDRESS_NONE */
    }
    return bits | (filter == CL_FILTER_LINEAR ? MOSAIC_SAMPLER_FILTER_LINEAR : MOSAIC_SAMPLER_FILTER_NEAREST);
}

static cl_sampler sampler_create(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                                 cl_filter_mode filter_mode, const cl_sampler_properties *properties,
                                 size_t num_properties, cl_int *errcode_ret)
{
    if (normalized_coords != CL_TRUE && normalized_coords != CL_FALSE) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "normalized_coords %u is not a cl_bool",
                                                   (unsigned)normalized_coords));
        return NULL;
    }
    if (!valid_addressing(addressing_mode)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "addressing_mode 0x%x is not valid",
                                                   (unsigned)addressing_mode));
        return NULL;
    }
    if (!valid_filter(filter_mode)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "filter_mode 0x%x is not valid",
                                                   (unsigned)filter_mode));
        return NULL;
    }
    bool images = false;
    for (cl_uint i = 0; i < context->num_devices; i++)
        images |= mosaic_device_image_support(context->devices[i]);
    if (!images) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_OPERATION, "no device of the context supports images"));
        return NULL;
    }

    cl_sampler sampler = mosaic_calloc(1, sizeof *sampler);
    cl_sampler_properties *props = num_properties ? mosaic_calloc(num_properties, sizeof *props) : NULL;
    if (!sampler || (num_properties && !props)) {
        free(sampler);
        free(props);
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_OUT_OF_HOST_MEMORY, "no memory for a sampler"));
        return NULL;
    }
    mosaic_object_init(sampler, MOSAIC_SAMPLER, &mosaic_dispatch, sampler_destroy);
    sampler->context = context;
    mosaic_retain_internal(context);
    sampler->normalized_coords = normalized_coords;
    sampler->addressing_mode = addressing_mode;
    sampler->filter_mode = filter_mode;
    sampler->bits = sampler_bits(normalized_coords, addressing_mode, filter_mode);
    if (num_properties)
        memcpy(props, properties, num_properties * sizeof *props);
    sampler->properties = props;
    sampler->num_properties = num_properties;
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return sampler;
}

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                cl_filter_mode filter_mode, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    return sampler_create(context, normalized_coords, addressing_mode, filter_mode, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties *sampler_properties,
                              cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    bool seen_normalized = false, seen_addressing = false, seen_filter = false;
    size_t count = 0;
    if (sampler_properties) {
        size_t i = 0;
        for (; sampler_properties[i] != 0; i += 2) {
            cl_sampler_properties name = sampler_properties[i], value = sampler_properties[i + 1];
            bool *seen;
            switch (name) {
            case CL_SAMPLER_NORMALIZED_COORDS:
                seen = &seen_normalized;
                normalized = (cl_bool)value;
                if (value != CL_TRUE && value != CL_FALSE)
                    normalized = 2; /* rejected below */
                break;
            case CL_SAMPLER_ADDRESSING_MODE:
                seen = &seen_addressing;
                addressing = (cl_addressing_mode)value;
                break;
            case CL_SAMPLER_FILTER_MODE:
                seen = &seen_filter;
                filter = (cl_filter_mode)value;
                break;
            default:
                mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "unsupported sampler property 0x%llx",
                                                           (unsigned long long)name));
                return NULL;
            }
            if (*seen) {
                mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "sampler property 0x%llx given twice",
                                                           (unsigned long long)name));
                return NULL;
            }
            *seen = true;
        }
        count = i + 1;
    }
    return sampler_create(context, normalized, addressing, filter, sampler_properties, count, errcode_ret);
}

MOSAIC_RETAIN_RELEASE(Sampler, cl_sampler, SAMPLER)

CL_API_ENTRY cl_int CL_API_CALL
clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size, void *param_value,
                 size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(sampler, SAMPLER);
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT:
        MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(sampler));
    case CL_SAMPLER_CONTEXT:
        MOSAIC_INFO_SCALAR(cl_context, sampler->context);
    case CL_SAMPLER_NORMALIZED_COORDS:
        MOSAIC_INFO_SCALAR(cl_bool, sampler->normalized_coords);
    case CL_SAMPLER_ADDRESSING_MODE:
        MOSAIC_INFO_SCALAR(cl_addressing_mode, sampler->addressing_mode);
    case CL_SAMPLER_FILTER_MODE:
        MOSAIC_INFO_SCALAR(cl_filter_mode, sampler->filter_mode);
    case CL_SAMPLER_PROPERTIES:
        MOSAIC_INFO_ARRAY(sampler->properties, sampler->num_properties);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}
