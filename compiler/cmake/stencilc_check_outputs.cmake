# Run by the build step of stencilc_add_stencil() after `stencilc emit`, as
#   cmake -DSTN=<file.stn> -DFILES=<files> -P stencilc_check_outputs.cmake
# The files are named after the stencil in the .stn, as it was when CMake configured the
# build: if stencilc did not write one, the stencil has been renamed since.
foreach(file IN LISTS FILES)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "stencilc did not write ${file}: the name after `stencil` in ${STN} "
                        "changed since CMake configured this build; re-run CMake (and include "
                        "the header of the new name)")
  endif()
endforeach()
