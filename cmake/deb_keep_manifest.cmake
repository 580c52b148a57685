# Run by cpack twice (install.cmake): first before its own install into its
# staging folder (CPACK_INSTALL_SCRIPTS), which rewrites the build folder's
# install_manifest.txt, then after the package is made
# (CPACK_POST_BUILD_SCRIPTS).  It keeps the manifest of the last
# `make install`, which `make uninstall` reads: saved the first time, put
# back the second (or removed, if there was none).
set(manifest "${CPACK_MOSAIC_BUILD_DIR}/install_manifest.txt")
set(saved "${CPACK_MOSAIC_BUILD_DIR}/deb/install_manifest.saved")
set(none "${CPACK_MOSAIC_BUILD_DIR}/deb/install_manifest.none")
if(NOT CPACK_PACKAGE_FILES) # before the install
  file(REMOVE "${saved}" "${none}")
  if(EXISTS "${manifest}")
    file(RENAME "${manifest}" "${saved}")
  else()
    file(WRITE "${none}" "")
  endif()
elseif(EXISTS "${saved}")
  file(RENAME "${saved}" "${manifest}")
elseif(EXISTS "${none}")
  file(REMOVE "${manifest}" "${none}")
endif()
