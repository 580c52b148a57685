/* What other API files may ask of a context (api/context.c). */
#ifndef MOSAIC_API_CONTEXT_H
#define MOSAIC_API_CONTEXT_H

#include "core/objects.h"

/* Whether `device` is one of the context's devices (false for a bad handle). */
bool mosaic_context_has_device(cl_context context, cl_device_id device);

/* Reports an error that happened in the context: calls the pfn_notify given
 * to clCreateContext on the callback thread (mosaic_defer), with a copy of
 * `errinfo` and no private info.  With MOSAIC_DEBUG set, also prints it on
 * stderr.  Safe from any thread. */
void mosaic_context_notify(cl_context context, const char *errinfo);

#endif
