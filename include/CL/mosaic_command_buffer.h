/*
 * cl_khr_command_buffer 0.9.8 and cl_khr_command_buffer_mutable_dispatch
 * 0.9.5, as the OpenCL 3.1 headers define them, for a build against older
 * headers (Debian 12's CL/cl_ext.h of 2023 has versions 0.9.4 and 0.9.1:
 * no `properties` argument in the clCommand*KHR functions, another layout of
 * cl_mutable_dispatch_config_khr, CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
 * 1 instead of 0).  The one place where Mosaic, its tests and its
 * benchmarks get what the old header lacks or has otherwise; with newer
 * headers (CL_ENABLE_BETA_EXTENSIONS) it only adds the function-pointer
 * types.
 *
 * Where the old header defines a name with another meaning (the config
 * struct and the function types), the new one is defined under a Mosaic
 * name and the spec's name made to mean it with a macro, so that code
 * reads as the specification writes it.
 */
#ifndef MOSAIC_CL_COMMAND_BUFFER_H
#define MOSAIC_CL_COMMAND_BUFFER_H

#include <CL/cl.h>
#include <CL/cl_ext.h>

#ifndef CL_KHR_COMMAND_BUFFER_EXTENSION_VERSION
#define CL_KHR_COMMAND_BUFFER_EXTENSION_VERSION CL_MAKE_VERSION(0, 9, 8)
#endif
#ifndef CL_KHR_COMMAND_BUFFER_MUTABLE_DISPATCH_EXTENSION_VERSION
#define CL_KHR_COMMAND_BUFFER_MUTABLE_DISPATCH_EXTENSION_VERSION CL_MAKE_VERSION(0, 9, 5)
#endif

#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_STATE_FINALIZED_KHR /* (2 was PENDING in 0.9.4) */
#define CL_COMMAND_BUFFER_STATE_FINALIZED_KHR 2
#endif
#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
#ifndef CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR
#define CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR 0x12A2
#endif
#ifndef CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR
#define CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B7
#define CL_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B8
#define CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR (1 << 0)
typedef cl_bitfield cl_mutable_dispatch_asserts_khr;
#endif

#ifdef CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR /* the 2023 header: 0.9.1 of mutable dispatch */
typedef cl_properties cl_command_properties_khr;
typedef cl_uint cl_command_buffer_update_type_khr;
#undef CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
#define CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR 0
#define cl_mutable_dispatch_config_khr mosaic_cl_mutable_dispatch_config_khr
typedef struct mosaic_cl_mutable_dispatch_config_khr {
    cl_mutable_command_khr command;
    cl_uint num_args;
    cl_uint num_svm_args;
    cl_uint num_exec_infos;
    cl_uint work_dim;
    const cl_mutable_dispatch_arg_khr *arg_list;
    const cl_mutable_dispatch_arg_khr *arg_svm_list;
    const cl_mutable_dispatch_exec_info_khr *exec_info_list;
    const size_t *global_work_offset;
    const size_t *global_work_size;
    const size_t *local_work_size;
} mosaic_cl_mutable_dispatch_config_khr;
#endif

/* The entry points' types (clGetExtensionFunctionAddressForPlatform gives
 * the functions). */
#define MOSAIC_CB_FN(name) mosaic_##name##_fn
typedef cl_command_buffer_khr(CL_API_CALL *MOSAIC_CB_FN(clCreateCommandBufferKHR))(
    cl_uint num_queues, const cl_command_queue *queues, const cl_command_buffer_properties_khr *properties,
    cl_int *errcode_ret);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clFinalizeCommandBufferKHR))(cl_command_buffer_khr command_buffer);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clRetainCommandBufferKHR))(cl_command_buffer_khr command_buffer);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clReleaseCommandBufferKHR))(cl_command_buffer_khr command_buffer);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clEnqueueCommandBufferKHR))(
    cl_uint num_queues, cl_command_queue *queues, cl_command_buffer_khr command_buffer,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandBarrierWithWaitListKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandCopyBufferKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_buffer, cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandCopyBufferRectKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_buffer, cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandCopyBufferToImageKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_buffer, cl_mem dst_image, size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandCopyImageKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_image, cl_mem dst_image, const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandCopyImageToBufferKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem src_image, cl_mem dst_buffer, const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandFillBufferKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset, size_t size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandFillImageKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_mem image, const void *fill_color, const size_t *origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandNDRangeKernelKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandSVMMemcpyKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    void *dst_ptr, const void *src_ptr, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clCommandSVMMemFillKHR))(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, const cl_command_properties_khr *properties,
    void *svm_ptr, const void *pattern, size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clGetCommandBufferInfoKHR))(
    cl_command_buffer_khr command_buffer, cl_command_buffer_info_khr param_name, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clUpdateMutableCommandsKHR))(
    cl_command_buffer_khr command_buffer, cl_uint num_configs, const cl_command_buffer_update_type_khr *config_types,
    const void **configs);
typedef cl_int(CL_API_CALL *MOSAIC_CB_FN(clGetMutableCommandInfoKHR))(
    cl_mutable_command_khr command, cl_mutable_command_info_khr param_name, size_t param_value_size, void *param_value,
    size_t *param_value_size_ret);

#endif
