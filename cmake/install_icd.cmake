# Installs mosaic.icd, at install time (cmake_install.cmake includes this
# file, so CMAKE_INSTALL_PREFIX is the prefix of this install and DESTDIR,
# if set, stages it).  Set by the caller (install.cmake): MOSAIC_ICD_DIR,
# MOSAIC_LIBDIR, MOSAIC_LIBRARY (libmosaic.so.1), MOSAIC_ICD_STAGING.
#
# The file's one line is the library's absolute path as installed (without
# DESTDIR: where it will be when the staged files are in place).  Where the
# file goes: MOSAIC_ICD_DIR if set; else /etc/OpenCL/vendors for the
# prefixes /usr and /usr/local, the folder Debian's ocl-icd (and the Khronos
# loader) read, so that a system-wide install is listed by every program;
# else PREFIX/etc/OpenCL/vendors (a private prefix, $HOME/.local say: point
# OCL_ICD_VENDORS at the file).
string(REGEX REPLACE "/+$" "" prefix "${CMAKE_INSTALL_PREFIX}")
if(IS_ABSOLUTE "${MOSAIC_LIBDIR}")
  set(libdir "${MOSAIC_LIBDIR}")
else()
  set(libdir "${prefix}/${MOSAIC_LIBDIR}")
endif()
if(MOSAIC_ICD_DIR)
  set(icd_dir "${MOSAIC_ICD_DIR}")
elseif(prefix STREQUAL "/usr" OR prefix STREQUAL "/usr/local")
  set(icd_dir /etc/OpenCL/vendors)
else()
  set(icd_dir "${prefix}/etc/OpenCL/vendors")
endif()
file(WRITE "${MOSAIC_ICD_STAGING}/mosaic.icd" "${libdir}/${MOSAIC_LIBRARY}\n")
# file(INSTALL) stages an absolute destination under DESTDIR itself, prints
# the line and records the file in install_manifest.txt
file(INSTALL DESTINATION "${icd_dir}" TYPE FILE PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
     FILES "${MOSAIC_ICD_STAGING}/mosaic.icd")
