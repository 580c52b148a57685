# Installation (docs/install.md): `make install [PREFIX=...] [DESTDIR=...]`
# (cmake --install), `make uninstall`, `make deb` (CPack).  Under the prefix,
# with GNUInstallDirs' folders (LIBDIR is lib/<multiarch> for the prefix /usr
# on Debian, lib otherwise):
#
#   LIBDIR/libmosaic.so.1, libmosaic.so      the platform (libmosaic.so: for -lmosaic)
#   LIBDIR/libmosaic-fork-server.so          beside it, where libmosaic looks for it
#   LIBDIR/libmosaic-remote.so, LIBDIR/mosaic-server
#                                            remote devices' MPI transport and server, beside
#                                            libmosaic.so, where it looks for them (where
#                                            CMake found MPI: docs/remote.md)
#   BINDIR/mosaic                            the command (src/tools)
#   LIBEXECDIR/mosaic/bench_runner           what `mosaic bench` runs
#   LIBEXECDIR/mosaic/examples/              the example programs
#   DATAROOTDIR/doc/mosaic/                  README.md and docs/
#
# and the ICD file, where the loader reads it (install_icd.cmake): its one
# line is the installed library's absolute path.

set(MOSAIC_DOC_DIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/mosaic)
set(MOSAIC_ICD_DIR "" CACHE PATH "Folder of the installed mosaic.icd (empty: /etc/OpenCL/vendors for \
the prefixes /usr and /usr/local, PREFIX/etc/OpenCL/vendors for others)")

install(TARGETS mosaic mosaic_fork_server LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS mosaic_command RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET mosaic_server)
  install(TARGETS mosaic_remote LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(TARGETS mosaic_server RUNTIME DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${MOSAIC_DOC_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${MOSAIC_DOC_DIR}/docs)
# Written at install time: the prefix may be given then (cmake --install --prefix).
install(CODE "set(MOSAIC_ICD_DIR \"${MOSAIC_ICD_DIR}\")
set(MOSAIC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
set(MOSAIC_LIBRARY \"$<TARGET_FILE_NAME:mosaic>\")
set(MOSAIC_ICD_STAGING \"${CMAKE_BINARY_DIR}/install-icd\")
include(\"${CMAKE_CURRENT_LIST_DIR}/install_icd.cmake\")")

# make uninstall: removes what the last install wrote (install_manifest.txt).
# The folders Mosaic alone owns, removed once empty ("|" between them: a ";"
# would split the argument).
set(MOSAIC_OWNED_DIRS "${MOSAIC_DOC_DIR}|${CMAKE_INSTALL_LIBEXECDIR}/mosaic")
add_custom_target(uninstall
  COMMAND ${CMAKE_COMMAND} -DMANIFEST=${CMAKE_BINARY_DIR}/install_manifest.txt "-DOWNED=${MOSAIC_OWNED_DIRS}"
          -P ${CMAKE_CURRENT_LIST_DIR}/uninstall.cmake
  COMMENT "Removing the files of the last install" VERBATIM)

# ---- the Debian package (make deb: cpack -G DEB in the build folder) ----
# Its prefix is /usr (make deb configures the build so, for GNUInstallDirs'
# multiarch LIBDIR), so the ICD file is /etc/OpenCL/vendors/mosaic.icd, a
# conffile (kept by `apt-get remove`, removed by --purge).
#
# Depends, besides what dpkg-shlibdeps finds the binaries linked with
# (libllvm16, libc6, libgomp1 for the runner, ocl-icd-libopencl1 for the
# examples and the runner):
#  - clang-16: every OpenCL C build runs it (MOSAIC_CLANG_PATH), and its
#    dependency libclang-common-16-dev holds OpenCL's headers;
#  - llvm-16: opt-16 checks the bitcode of every program binary in a child
#    process; without it each clCreateProgramWithBinary of a bitcode binary
#    fails with CL_INVALID_BINARY;
#  - llvm-spirv-15 and spirv-tools: the device reports cl_khr_il_program and
#    SPIR-V 1.0-1.3 (CL_DEVICE_IL_VERSION), and without the translator or the
#    validator every clCreateProgramWithIL fails (CL_INVALID_VALUE), so they
#    are what that reported feature needs, not extras;
#  - ocl-icd-libopencl1: the loader through which programs reach Mosaic.
# Provides opencl-icd, the virtual package of OpenCL platforms.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mosaic)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Mosaic developers <dev@mosaic.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL 3.0 platform for CPUs")
set(CPACK_PACKAGE_DESCRIPTION "Mosaic is an OpenCL 3.0 platform: an ICD that the system's OpenCL loader \
lists beside the others, with a CPU device that runs kernels on every core. It builds OpenCL C with \
clang-16 and SPIR-V through llvm-spirv-15, and JIT-compiles with LLVM 16. The mosaic command reports \
the platform, the kernel cache and the settings in force, and runs the benchmarks.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_SET_DESTDIR ON) # the install's prefix is /usr itself: the ICD file names the library there
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # mosaic_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON) # and, for a library in /usr/lib, ldconfig after install and removal
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-16, llvm-16, llvm-spirv-15, spirv-tools, ocl-icd-libopencl1")
set(CPACK_DEBIAN_PACKAGE_PROVIDES opencl-icd)
# openmpi-bin: mpirun, which remote devices run under (libmosaic-remote.so
# and mosaic-server link libopenmpi3, which shlibdeps adds to Depends)
if(TARGET mosaic_server)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clinfo, openmpi-bin")
else()
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS clinfo)
endif()
if(MOSAIC_ICD_DIR)
  set(deb_icd_dir ${MOSAIC_ICD_DIR})
else()
  set(deb_icd_dir /etc/OpenCL/vendors)
endif()
file(WRITE ${CMAKE_BINARY_DIR}/deb/conffiles "${deb_icd_dir}/mosaic.icd\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/deb/conffiles)
# cpack's install rewrites install_manifest.txt: the last `make install`'s is kept
set(CPACK_MOSAIC_BUILD_DIR ${CMAKE_BINARY_DIR})
set(CPACK_INSTALL_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/deb_keep_manifest.cmake)
set(CPACK_POST_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/deb_keep_manifest.cmake)
include(CPack)
