/* What other API files ask of programs (api/program.c). */
#ifndef MOSAIC_API_PROGRAM_H
#define MOSAIC_API_PROGRAM_H

#include "core/objects.h"

/* The program's build for `device` (one of its devices, or a sub-device
 * of one), or NULL. */
mosaic_program_build *mosaic_program_build_for(cl_program program, cl_device_id device);

/* The executable of the program's first build that has one, or NULL: what
 * the kernels' names and arguments are read from. */
const mosaic_executable *mosaic_program_any_executable(cl_program program);

/* True when the program was built for OpenCL C 2.0 or later without
 * -cl-uniform-work-group-size: launches may then have a trailing partial
 * work-group in each dimension. */
bool mosaic_program_allows_non_uniform(cl_program program);

#endif
