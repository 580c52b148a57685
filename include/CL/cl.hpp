/*
 * Compatibility header for programs written against the old C++ bindings
 * (CL/cl.hpp, OpenCL 1.x), which Debian no longer ships.  It maps the old
 * configuration macros onto the current Khronos bindings, CL/opencl.hpp
 * (package opencl-clhpp-headers), which keep the same classes:
 *   __CL_ENABLE_EXCEPTIONS -> CL_HPP_ENABLE_EXCEPTIONS
 *   cl::Program::Sources as a vector of (pointer, length) pairs
 *   __NO_STD_VECTOR: the old bindings' own cl::vector; here cl::vector is
 *   std::vector, which offers everything the old class did.
 */
#ifndef MOSAIC_COMPAT_CL_HPP
#define MOSAIC_COMPAT_CL_HPP

#if defined(__CL_ENABLE_EXCEPTIONS) && !defined(CL_HPP_ENABLE_EXCEPTIONS)
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#ifndef CL_HPP_ENABLE_PROGRAM_CONSTRUCTION_FROM_ARRAY_COMPATIBILITY
#define CL_HPP_ENABLE_PROGRAM_CONSTRUCTION_FROM_ARRAY_COMPATIBILITY
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#endif
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif

/* The old bindings' own vector class is gone: let cl::vector be std::vector. */
#ifdef __NO_STD_VECTOR
#undef __NO_STD_VECTOR
#endif

#include <CL/opencl.hpp>

#endif
