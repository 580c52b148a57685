/* What other API files ask of programs (api/program.c). */
#ifndef MOSAIC_API_PROGRAM_H
#define MOSAIC_API_PROGRAM_H

#include "core/objects.h"

bool mosaic_program_is_executable(cl_program program);

/* True when the program was built for OpenCL C 2.0 or later without
 * -cl-uniform-work-group-size: launches may then have a trailing partial
 * work-group in each dimension. */
bool mosaic_program_allows_non_uniform(cl_program program);

#endif
