# make uninstall [DESTDIR=...]:
#   [DESTDIR=...] cmake -DMANIFEST=build/install_manifest.txt \
#                       -DOWNED="share/doc/mosaic|libexec/mosaic" -P uninstall.cmake
# Removes every file the last install wrote, then the folders Mosaic alone
# owns (OWNED, below the prefix) and the folders in them, once empty.
# Folders shared with other packages (lib, bin, /etc/OpenCL/vendors) stay.
# The manifest's paths are without DESTDIR: an install staged with DESTDIR
# is removed with the same DESTDIR.
if(NOT EXISTS "${MANIFEST}")
  message(FATAL_ERROR "No ${MANIFEST}: nothing was installed from this build folder")
endif()
file(STRINGS "${MANIFEST}" installed)
string(REPLACE "|" ";" OWNED "${OWNED}")
set(dirs "")
foreach(path IN LISTS installed)
  set(file "$ENV{DESTDIR}${path}")
  if(EXISTS "${file}" OR IS_SYMLINK "${file}")
    message(STATUS "Removing ${file}")
    file(REMOVE "${file}")
  endif()
  # the folders between the file and the owned folder it is in, if any
  foreach(owned IN LISTS OWNED)
    string(FIND "${file}" "/${owned}/" at REVERSE)
    if(at GREATER_EQUAL 0)
      string(LENGTH "/${owned}" length)
      math(EXPR end "${at} + ${length}")
      string(SUBSTRING "${file}" 0 ${end} top)
      get_filename_component(dir "${file}" DIRECTORY)
      while(NOT dir STREQUAL top)
        list(APPEND dirs "${dir}")
        get_filename_component(dir "${dir}" DIRECTORY)
      endwhile()
      list(APPEND dirs "${top}")
    endif()
  endforeach()
endforeach()
# deepest first, each only if empty
list(REMOVE_DUPLICATES dirs)
list(SORT dirs ORDER DESCENDING)
foreach(dir IN LISTS dirs)
  file(GLOB left "${dir}/*" "${dir}/.*")
  if(IS_DIRECTORY "${dir}" AND NOT left)
    message(STATUS "Removing ${dir}/")
    file(REMOVE_RECURSE "${dir}") # empty
  endif()
endforeach()
