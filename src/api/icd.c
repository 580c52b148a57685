/*
 * cl_khr_icd: the dispatch table every Mosaic handle points to, the ICD entry
 * point clIcdGetPlatformIDsKHR, and extension function lookup.
 *
 * The system loader (ocl-icd) finds clIcdGetPlatformIDsKHR with dlsym, gets
 * our platform, and from then on calls through handle->dispatch.  Programs
 * linked directly against libmosaic.so call the same cl* functions by name.
 *
 * Sharing with OpenGL, EGL and Direct3D is not supported (no cl_khr_gl_sharing,
 * cl_khr_egl_image, ... in the extension lists).  The GL and EGL entries still
 * point at small functions that return the error the specification gives for
 * objects that were not created from GL/EGL, so a program that calls them
 * through the loader gets an error instead of a crash; the Direct3D entries
 * (Windows only) stay NULL.
 */
#include "api/api.h"
#include "api/entry.h"
#include "core/util.h"
#include "api/command_buffer.h"

#include <CL/cl_egl.h>
#include <CL/cl_gl.h>
#include <string.h>

/* ---- cl_khr_icd ------------------------------------------------------------ */

CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
    /* Same contract as clGetPlatformIDs; Mosaic always has its platform, so
     * CL_PLATFORM_NOT_FOUND_KHR never happens. */
    return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* ---- GL sharing (cl_khr_gl_sharing, cl_khr_gl_event): not supported ---------- */

static cl_mem gl_no_context(cl_context context, cl_int *errcode_ret)
{
    /* "context is not a valid context or was not created from a GL context" */
    mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_CONTEXT, "context %p has no GL sharing", (void *)context));
    return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint bufobj, cl_int *errcode_ret)
{
    return gl_no_context(context, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                      cl_GLuint texture, cl_int *errcode_ret)
{
    return gl_no_context(context, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                        cl_GLuint texture, cl_int *errcode_ret)
{
    return gl_no_context(context, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                        cl_GLuint texture, cl_int *errcode_ret)
{
    return gl_no_context(context, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint renderbuffer, cl_int *errcode_ret)
{
    return gl_no_context(context, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type, cl_GLuint *gl_object_name)
{
    MOSAIC_CHECK_HANDLE(memobj, MEM);
    return MOSAIC_ERROR(CL_INVALID_GL_OBJECT, "memory object %p was not created from a GL object", (void *)memobj);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t param_value_size, void *param_value,
                   size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(memobj, MEM);
    return MOSAIC_ERROR(CL_INVALID_GL_OBJECT, "memory object %p was not created from a GL texture", (void *)memobj);
}

static cl_int gl_acquire_release(cl_command_queue queue)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    return MOSAIC_ERROR(CL_INVALID_CONTEXT, "the queue's context was not created from a GL context");
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
                          cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return gl_acquire_release(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
                          cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return gl_acquire_release(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetGLContextInfoKHR(const cl_context_properties *properties, cl_gl_context_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    return MOSAIC_ERROR(CL_INVALID_OPERATION, "GL sharing (cl_khr_gl_sharing) is not supported");
}

CL_API_ENTRY cl_event CL_API_CALL
clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int *errcode_ret)
{
    mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_CONTEXT, "context %p has no GL sharing", (void *)context));
    return NULL;
}

/* ---- EGL (cl_khr_egl_image, cl_khr_egl_event): not supported ------------------ */

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR egldisplay, CLeglImageKHR eglimage, cl_mem_flags flags,
                        const cl_egl_image_properties_khr *properties, cl_int *errcode_ret)
{
    if (!MOSAIC_IS(context, CONTEXT))
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_CONTEXT, "%p is not a context", (void *)context));
    else
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_EGL_OBJECT_KHR, "EGL images are not supported"));
    return NULL;
}

static cl_int egl_acquire_release(cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects)
{
    MOSAIC_CHECK_HANDLE(queue, QUEUE);
    if ((num_objects == 0) != (mem_objects == NULL))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_objects and mem_objects disagree");
    for (cl_uint i = 0; i < num_objects; i++)
        if (!MOSAIC_IS(mem_objects[i], MEM))
            return MOSAIC_ERROR(CL_INVALID_MEM_OBJECT, "mem_objects[%u] is not a memory object", i);
    return MOSAIC_ERROR(CL_INVALID_EGL_OBJECT_KHR, "no memory object was created from an EGL object");
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return egl_acquire_release(command_queue, num_objects, mem_objects);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return egl_acquire_release(command_queue, num_objects, mem_objects);
}

CL_API_ENTRY cl_event CL_API_CALL
clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync, CLeglDisplayKHR display, cl_int *errcode_ret)
{
    if (!MOSAIC_IS(context, CONTEXT))
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_CONTEXT, "%p is not a context", (void *)context));
    else
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_EGL_OBJECT_KHR, "EGL sync objects are not supported"));
    return NULL;
}

/* ---- cl_ext_device_fission: not supported ----------------------------------- */

static cl_int CL_API_CALL
create_sub_devices_ext(cl_device_id in_device, const cl_device_partition_property_ext *properties,
                       cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices)
{
    MOSAIC_CHECK_HANDLE(in_device, DEVICE);
    return MOSAIC_ERROR(CL_INVALID_OPERATION, "cl_ext_device_fission is not supported");
}

/* ---- extension functions by name ------------------------------------------------ */

static const struct { const char *name; void *address; } extension_functions[] = {
    { "clIcdGetPlatformIDsKHR", (void *)clIcdGetPlatformIDsKHR },
    /* cl_khr_subgroups: the same function as the OpenCL 2.1 core one */
    { "clGetKernelSubGroupInfoKHR", (void *)clGetKernelSubGroupInfo },
    /* cl_khr_il_program: the OpenCL 2.1 core function */
    { "clCreateProgramWithILKHR", (void *)clCreateProgramWithIL },
    /* cl_khr_create_command_queue (api/queue.c) */
    { "clCreateCommandQueueWithPropertiesKHR", (void *)clCreateCommandQueueWithPropertiesKHR },
    /* cl_khr_suggested_local_work_size (api/enqueue_kernel.c) */
    { "clGetKernelSuggestedLocalWorkSizeKHR", (void *)clGetKernelSuggestedLocalWorkSizeKHR },
    /* cl_intel_unified_shared_memory (api/usm.c) */
    { "clHostMemAllocINTEL", (void *)clHostMemAllocINTEL },
    { "clDeviceMemAllocINTEL", (void *)clDeviceMemAllocINTEL },
    { "clSharedMemAllocINTEL", (void *)clSharedMemAllocINTEL },
    { "clMemFreeINTEL", (void *)clMemFreeINTEL },
    { "clMemBlockingFreeINTEL", (void *)clMemBlockingFreeINTEL },
    { "clGetMemAllocInfoINTEL", (void *)clGetMemAllocInfoINTEL },
    { "clSetKernelArgMemPointerINTEL", (void *)clSetKernelArgMemPointerINTEL },
    { "clEnqueueMemFillINTEL", (void *)clEnqueueMemFillINTEL },
    { "clEnqueueMemsetINTEL", (void *)clEnqueueMemsetINTEL },
    { "clEnqueueMemcpyINTEL", (void *)clEnqueueMemcpyINTEL },
    { "clEnqueueMigrateMemINTEL", (void *)clEnqueueMigrateMemINTEL },
    { "clEnqueueMemAdviseINTEL", (void *)clEnqueueMemAdviseINTEL },
    /* cl_khr_semaphore (api/semaphore.c) */
    { "clCreateSemaphoreWithPropertiesKHR", (void *)clCreateSemaphoreWithPropertiesKHR },
    { "clEnqueueWaitSemaphoresKHR", (void *)clEnqueueWaitSemaphoresKHR },
    { "clEnqueueSignalSemaphoresKHR", (void *)clEnqueueSignalSemaphoresKHR },
    { "clGetSemaphoreInfoKHR", (void *)clGetSemaphoreInfoKHR },
    { "clRetainSemaphoreKHR", (void *)clRetainSemaphoreKHR },
    { "clReleaseSemaphoreKHR", (void *)clReleaseSemaphoreKHR },
    /* cl_khr_external_semaphore is not reported; its export answers that no
     * semaphore is exportable (the CTS of cl_khr_semaphore looks it up) */
    { "clGetSemaphoreHandleForTypeKHR", (void *)clGetSemaphoreHandleForTypeKHR },
};

static void *find_extension_function(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof extension_functions / sizeof extension_functions[0]; i++)
        if (strcmp(extension_functions[i].name, name) == 0)
            return extension_functions[i].address;
    return mosaic_command_buffer_function(name); /* cl_khr_command_buffer (api/command_buffer.c) */
}

CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name)
{
    return find_extension_function(func_name);
}

CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name)
{
    if (!MOSAIC_IS(platform, PLATFORM))
        return NULL;
    return find_extension_function(func_name);
}

/* ---- the dispatch table ---------------------------------------------------------- */

/* The table of OpenCL 3.1's loaders: the 3.0 one (the system's cl_icd.h),
 * then 3.1's one entry, which Debian's header does not have yet. */
const mosaic_dispatch_table mosaic_dispatch_31 = {
    .core = {
    /* OpenCL 1.0 */
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = clGetPlatformInfo,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clSetCommandQueueProperty = clSetCommandQueueProperty,
    .clCreateBuffer = clCreateBuffer,
    .clCreateImage2D = clCreateImage2D,
    .clCreateImage3D = clCreateImage3D,
    .clRetainMemObject = clRetainMemObject,
    .clReleaseMemObject = clReleaseMemObject,
    .clGetSupportedImageFormats = clGetSupportedImageFormats,
    .clGetMemObjectInfo = clGetMemObjectInfo,
    .clGetImageInfo = clGetImageInfo,
    .clCreateSampler = clCreateSampler,
    .clRetainSampler = clRetainSampler,
    .clReleaseSampler = clReleaseSampler,
    .clGetSamplerInfo = clGetSamplerInfo,
    .clCreateProgramWithSource = clCreateProgramWithSource,
    .clCreateProgramWithBinary = clCreateProgramWithBinary,
    .clRetainProgram = clRetainProgram,
    .clReleaseProgram = clReleaseProgram,
    .clBuildProgram = clBuildProgram,
    .clUnloadCompiler = clUnloadCompiler,
    .clGetProgramInfo = clGetProgramInfo,
    .clGetProgramBuildInfo = clGetProgramBuildInfo,
    .clCreateKernel = clCreateKernel,
    .clCreateKernelsInProgram = clCreateKernelsInProgram,
    .clRetainKernel = clRetainKernel,
    .clReleaseKernel = clReleaseKernel,
    .clSetKernelArg = clSetKernelArg,
    .clGetKernelInfo = clGetKernelInfo,
    .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
    .clWaitForEvents = clWaitForEvents,
    .clGetEventInfo = clGetEventInfo,
    .clRetainEvent = clRetainEvent,
    .clReleaseEvent = clReleaseEvent,
    .clGetEventProfilingInfo = clGetEventProfilingInfo,
    .clFlush = clFlush,
    .clFinish = clFinish,
    .clEnqueueReadBuffer = clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
    .clEnqueueReadImage = clEnqueueReadImage,
    .clEnqueueWriteImage = clEnqueueWriteImage,
    .clEnqueueCopyImage = clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = clEnqueueMapBuffer,
    .clEnqueueMapImage = clEnqueueMapImage,
    .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
    .clEnqueueTask = clEnqueueTask,
    .clEnqueueNativeKernel = clEnqueueNativeKernel,
    .clEnqueueMarker = clEnqueueMarker,
    .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
    .clEnqueueBarrier = clEnqueueBarrier,
    .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
    .clCreateFromGLBuffer = clCreateFromGLBuffer,
    .clCreateFromGLTexture2D = clCreateFromGLTexture2D,
    .clCreateFromGLTexture3D = clCreateFromGLTexture3D,
    .clCreateFromGLRenderbuffer = clCreateFromGLRenderbuffer,
    .clGetGLObjectInfo = clGetGLObjectInfo,
    .clGetGLTextureInfo = clGetGLTextureInfo,
    .clEnqueueAcquireGLObjects = clEnqueueAcquireGLObjects,
    .clEnqueueReleaseGLObjects = clEnqueueReleaseGLObjects,
    .clGetGLContextInfoKHR = clGetGLContextInfoKHR,

    /* cl_khr_d3d10_sharing: Windows only, left NULL */

    /* OpenCL 1.1 */
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,

    /* cl_ext_device_fission: root devices only */
    .clCreateSubDevicesEXT = create_sub_devices_ext,
    .clRetainDeviceEXT = clRetainDevice,
    .clReleaseDeviceEXT = clReleaseDevice,

    /* cl_khr_gl_event */
    .clCreateEventFromGLsyncKHR = clCreateEventFromGLsyncKHR,

    /* OpenCL 1.2 */
    .clCreateSubDevices = clCreateSubDevices,
    .clRetainDevice = clRetainDevice,
    .clReleaseDevice = clReleaseDevice,
    .clCreateImage = clCreateImage,
    .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
    .clCompileProgram = clCompileProgram,
    .clLinkProgram = clLinkProgram,
    .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
    .clGetKernelArgInfo = clGetKernelArgInfo,
    .clEnqueueFillBuffer = clEnqueueFillBuffer,
    .clEnqueueFillImage = clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
    .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
    .clCreateFromGLTexture = clCreateFromGLTexture,

    /* cl_khr_d3d11_sharing, cl_khr_dx9_media_sharing: Windows only, left NULL */

    /* cl_khr_egl_image, cl_khr_egl_event */
    .clCreateFromEGLImageKHR = clCreateFromEGLImageKHR,
    .clEnqueueAcquireEGLObjectsKHR = clEnqueueAcquireEGLObjectsKHR,
    .clEnqueueReleaseEGLObjectsKHR = clEnqueueReleaseEGLObjectsKHR,
    .clCreateEventFromEGLSyncKHR = clCreateEventFromEGLSyncKHR,

    /* OpenCL 2.0 */
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
    .clCreatePipe = clCreatePipe,
    .clGetPipeInfo = clGetPipeInfo,
    .clSVMAlloc = clSVMAlloc,
    .clSVMFree = clSVMFree,
    .clEnqueueSVMFree = clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = clEnqueueSVMMemFill,
    .clEnqueueSVMMap = clEnqueueSVMMap,
    .clEnqueueSVMUnmap = clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = clSetKernelExecInfo,

    /* cl_khr_sub_groups: same contract as the 2.1 core function */
    .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfo,

    /* OpenCL 2.1 */
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
    .clGetHostTimer = clGetHostTimer,
    .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,

    /* OpenCL 2.2 */
    .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,

    /* OpenCL 3.0 */
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
    },
    /* OpenCL 3.1 */
    .clGetKernelSuggestedLocalWorkSize = clGetKernelSuggestedLocalWorkSize,
};
