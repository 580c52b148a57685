/* What other API files may ask of a context (api/context.c). */
#ifndef MOSAIC_API_CONTEXT_H
#define MOSAIC_API_CONTEXT_H

#include "core/objects.h"

/* Whether `device` is one of the context's devices (false for a bad handle). */
bool mosaic_context_has_device(cl_context context, cl_device_id device);

/* (mosaic_context_notify, which devices call too, is core's: core/engine.h.) */

#endif
