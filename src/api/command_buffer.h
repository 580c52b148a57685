/* cl_khr_command_buffer and cl_khr_command_buffer_mutable_dispatch
 * (api/command_buffer.c): what the rest of the API asks of them. */
#ifndef MOSAIC_API_COMMAND_BUFFER_H
#define MOSAIC_API_COMMAND_BUFFER_H

#include <CL/mosaic_command_buffer.h>

#include "core/objects.h"

/* What a device reports (CL_DEVICE_COMMAND_BUFFER_*_KHR,
 * CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR): the same for every device,
 * since replays go through the engine and the device's own commands (a
 * kernel that prints or enqueues kernels runs as it would from
 * clEnqueueNDRangeKernel; device-side enqueue is reported with the device
 * queues it needs).  A command buffer runs on a queue of any host
 * properties Mosaic has. */
#define MOSAIC_COMMAND_BUFFER_CAPABILITIES \
    (CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR | CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR)
#define MOSAIC_COMMAND_BUFFER_DEVICE_ENQUEUE CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR
#define MOSAIC_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES ((cl_command_queue_properties)0)
#define MOSAIC_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES \
    ((cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE))
#define MOSAIC_MUTABLE_DISPATCH_CAPABILITIES                                                            \
    ((cl_mutable_dispatch_fields_khr)(CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR | \
                                      CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |     \
                                      CL_MUTABLE_DISPATCH_EXEC_INFO_KHR))

/* The extensions' entry point called `name`, or NULL
 * (clGetExtensionFunctionAddressForPlatform). */
void *mosaic_command_buffer_function(const char *name);

#endif
