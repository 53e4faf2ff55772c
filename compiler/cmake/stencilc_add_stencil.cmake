# stencilc_add_stencil(<name> SOURCE <file.stn> [TARGET openmp] [PLAN <plan>] [MACHINE <m>])
#
# Defines a static library <name> with the code `stencilc emit` generates for <file.stn>:
# generated at build time, again whenever the .stn or the stencilc executable (or a MACHINE
# file) changes. The library carries what its users need: the generated header's directory as
# a PUBLIC include directory, and stencilc::runtime (its headers, OpenMP, ...) as a PUBLIC
# link. Link it and `#include "<stencil>.h"`, where <stencil> is the name after `stencil` in
# the .stn (the generated files are named after it, not after <name>).
#
#   SOURCE   the .stn program (relative to the current source directory)
#   TARGET   the code generator's target; openmp, the default, is the one implemented
#   PLAN     the plan compiled in (`stencilc emit --plan`), e.g. scheme=naive
#   MACHINE  the machine profile the model chooses the plan for (`stencilc emit --machine`):
#            a built-in name such as generic-cpu, or a JSON file (relative to the current
#            source directory). Without PLAN or MACHINE the plan depends on the calibrated
#            profile of whoever builds (~/.config/stencilc/machine.json), if there is one.
#
# The file names are asked of stencilc when CMake configures (`stencilc emit --list-outputs`),
# so the .stn must compile then; the build step checks that stencilc still writes those names
# and asks to re-run CMake if the stencil was renamed since.

function(stencilc_add_stencil)
  set(usage "stencilc_add_stencil(<name> SOURCE <file.stn> [TARGET openmp] [PLAN <p>] [MACHINE <m>])")
  if(ARGC EQUAL 0 OR ARGV0 MATCHES "^(SOURCE|TARGET|PLAN|MACHINE)$")
    message(FATAL_ERROR "stencilc_add_stencil: the first argument is the library's name: "
                        "${usage}")
  endif()
  set(name ${ARGV0})
  set(fn "stencilc_add_stencil(${name})")
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SOURCE;TARGET;PLAN;MACHINE" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unexpected arguments '${arg_UNPARSED_ARGUMENTS}': ${usage}")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${fn}: ${arg_KEYWORDS_MISSING_VALUES} needs a value: ${usage}")
  endif()
  if(NOT DEFINED arg_SOURCE)
    message(FATAL_ERROR "${fn}: no SOURCE; give the .stn program: ${usage}")
  endif()
  if(NOT DEFINED arg_TARGET)
    set(arg_TARGET openmp)
  endif()
  if(NOT arg_TARGET STREQUAL "openmp")
    message(FATAL_ERROR "${fn}: TARGET ${arg_TARGET}: stencilc generates code for openmp only "
                        "(cuda, hip and the mpi-* targets are planned)")
  endif()
  if(TARGET ${name})
    message(FATAL_ERROR "${fn}: a target named ${name} already exists")
  endif()
  if(NOT TARGET stencilc::stencilc)
    message(FATAL_ERROR "${fn}: stencilc::stencilc is not defined in this directory; call "
                        "find_package(stencilc CONFIG REQUIRED) first")
  endif()
  get_filename_component(source "${arg_SOURCE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${source}" OR IS_DIRECTORY "${source}")
    message(FATAL_ERROR "${fn}: SOURCE ${arg_SOURCE}: no such file (${source})")
  endif()

  set(options --target ${arg_TARGET})
  if(DEFINED arg_PLAN)
    list(APPEND options --plan ${arg_PLAN})
  endif()
  set(depends "${source}" "$<TARGET_FILE:stencilc::stencilc>")
  if(DEFINED arg_MACHINE)
    # A file if there is one of that name, else a built-in profile (stencilc checks it).
    get_filename_component(machine "${arg_MACHINE}" ABSOLUTE BASE_DIR
                           "${CMAKE_CURRENT_SOURCE_DIR}")
    if(EXISTS "${machine}" AND NOT IS_DIRECTORY "${machine}")
      list(APPEND depends "${machine}")
    elseif(arg_MACHINE MATCHES "/|\\.json$")
      message(FATAL_ERROR "${fn}: MACHINE ${arg_MACHINE}: no such file (${machine})")
    else()
      set(machine ${arg_MACHINE})
    endif()
    list(APPEND options --machine ${machine})
  endif()

  # Per target, so that two libraries of one .stn (other plans) do not share files.
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/stencilc/${name}")
  get_target_property(stencilc stencilc::stencilc LOCATION)
  execute_process(COMMAND "${stencilc}" emit "${source}" ${options} -o "${dir}" --list-outputs
                  RESULT_VARIABLE rc OUTPUT_VARIABLE outputs ERROR_VARIABLE errors)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${fn}: stencilc cannot generate code for ${arg_SOURCE}:\n${errors}")
  endif()
  string(STRIP "${outputs}" outputs)
  string(REPLACE "\n" ";" outputs "${outputs}")

  # NAME.h and NAME.cpp form the library; NAME_main.cpp is the `main` of `stencilc build`.
  set(sources "")
  foreach(file IN LISTS outputs)
    if(file MATCHES "\\.(h|cpp)$" AND NOT file MATCHES "_main\\.cpp$")
      list(APPEND sources "${file}")
    endif()
  endforeach()
  # Stale files from before would hide a renamed stencil: remove them, emit, check.
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${outputs}
    COMMAND stencilc::stencilc emit "${source}" ${options} -o "${dir}"
    COMMAND ${CMAKE_COMMAND} "-DSTN=${source}" "-DFILES=${outputs}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/stencilc_check_outputs.cmake"
    DEPENDS ${depends}
    COMMENT "stencilc: generating ${name} from ${arg_SOURCE}"
    VERBATIM)

  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC "${dir}")
  # The openmp target's runtime: the CPU engine and the core.
  target_link_libraries(${name} PUBLIC stencilc::runtime)
  # As `stencilc build` compiles it: no fused multiply-adds, so the results round as the
  # reference interpreter's (and every plan's) do.
  target_compile_options(${name} PRIVATE -ffp-contract=off)
endfunction()
