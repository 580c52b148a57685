/*
 * Shared by the API files: the platform, the ICD dispatch table, device
 * helpers.  (The shape of every entry point is api/entry.h.)
 *
 * Exports: libmosaic.so exports exactly the cl* entry points.  The build
 * compiles every source with CL_API_ENTRY defined as default visibility, so
 * each function declared in CL/cl*.h is exported when it is defined, with no
 * annotation in the source; everything else keeps the hidden default.  The
 * version script src/api/exports.map limits the export list to cl*, and
 * -Bsymbolic binds the library's own references (the dispatch table, internal
 * calls) to its own functions, never to a libOpenCL.so loaded beside it.
 * MOSAIC_API is there for a function outside CL/cl*.h that must be exported.
 */
#ifndef MOSAIC_API_H
#define MOSAIC_API_H

#include "core/objects.h"

#define MOSAIC_API __attribute__((visibility("default")))

/* The one platform (api/platform.c). */
cl_platform_id mosaic_platform(void);

/* The ICD dispatch table (api/icd.c): every object the API creates passes it
 * to mosaic_object_init.  Loaders of OpenCL 3.1 read one entry past the end
 * of the 3.0 table that the system's header declares. */
typedef struct mosaic_dispatch_table {
    cl_icd_dispatch core;
    cl_int(CL_API_CALL *clGetKernelSuggestedLocalWorkSize)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                                                           const size_t *, size_t *);
} mosaic_dispatch_table;
extern const mosaic_dispatch_table mosaic_dispatch_31;
#define mosaic_dispatch (mosaic_dispatch_31.core)

/* The devices of `platform` matching `type` (clGetDeviceIDs semantics:
 * CL_INVALID_DEVICE_TYPE, CL_DEVICE_NOT_FOUND; no argument checks). */
cl_int mosaic_match_devices(cl_platform_id platform, cl_device_type type,
                            cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices);

/* Whether `device` supports images (CL_DEVICE_IMAGE_SUPPORT). */
bool mosaic_device_image_support(cl_device_id device);

/* Whether `device` supports pipes (CL_DEVICE_PIPE_SUPPORT): it lists the
 * __opencl_c_pipes feature and a packet size limit. */
bool mosaic_device_pipe_support(cl_device_id device);

/* Whether `device` lists extension `name` in CL_DEVICE_EXTENSIONS. */
bool mosaic_device_has_extension(cl_device_id device, const char *name);

/* CL_DEVICE_*_MEM_CAPABILITIES_INTEL of cl_intel_unified_shared_memory
 * (api/usm.c): what `device` can do with USM allocations of that kind. */
cl_bitfield mosaic_usm_capabilities(cl_device_id device, cl_device_info param);

/* Parses a space-separated extension list into cl_name_version entries
 * (versions from a table of known extensions).  Returns how many names the
 * list has; fills at most `max` entries of `out` (which may be NULL). */
size_t mosaic_extensions_with_version(const char *extensions, cl_name_version *out, size_t max);

#endif
