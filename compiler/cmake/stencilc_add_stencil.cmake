# stencilc_add_stencil(<name> SOURCE <file.stn>
#                      [TARGET openmp|cuda|hip|mpi-openmp|mpi-cuda|mpi-hip] [PLAN <plan>]
#                      [MACHINE <m>])
#
# Defines a static library <name> with the code `stencilc emit` generates for <file.stn>:
# generated at build time, again whenever the .stn or the stencilc executable (or a MACHINE
# file) changes. The library carries what its users need: the generated header's directory as
# a PUBLIC include directory, and stencilc::runtime (its headers, OpenMP, ...) as a PUBLIC
# link. Link it and `#include "<stencil>.h"`, where <stencil> is the name after `stencil` in
# the .stn (the generated files are named after it, not after <name>).
#
#   SOURCE   the .stn program (relative to the current source directory)
#   TARGET   the code generator's target: openmp (the default), cuda, hip, or an MPI target:
#            mpi-openmp links stencilc::runtime_mpi_openmp (the distributed runtime, MPI, the
#            Open MPI flavour of libhdf5, the CPU engine); mpi-cuda and mpi-hip compile as cuda
#            and hip do and link stencilc::runtime_mpi (mpi-cuda: OpenMP too, the host code of
#            overlap=host; mpi-hip's runs that on one thread, as stencilc build's: Debian's
#            hipcc (clang 15) has no OpenMP runtime beside clang 14's). An application of an
#            MPI target runs under mpirun (docs/MPI.md).
#            cuda compiles the generated NAME.cpp with CMake's CUDA language: enable it first
#            (project(... LANGUAGES CXX CUDA); CMAKE_CUDA_ARCHITECTURES chooses the GPUs), and
#            the library links stencilc::runtime_core and the CUDA runtime.
#            hip compiles it with hipcc ($HIPCXX, else hipcc on the PATH) for the architectures
#            in STENCILC_HIP_ARCHITECTURES (default gfx90a) into an object of the library, which
#            links stencilc::runtime_core and libamdhip64: CMake 3.25's HIP language looks for
#            <ROCm root>/lib/cmake/hip-lang, which Debian's ROCm packages put elsewhere.
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
  set(usage "stencilc_add_stencil(<name> SOURCE <file.stn> [TARGET openmp|cuda|hip|mpi-openmp|mpi-cuda|mpi-hip] [PLAN <p>] [MACHINE <m>])")
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
  if(NOT arg_TARGET MATCHES "^(openmp|cuda|hip|mpi-openmp|mpi-cuda|mpi-hip)$")
    message(FATAL_ERROR "${fn}: TARGET ${arg_TARGET}: stencilc_add_stencil builds openmp, cuda, "
                        "hip, mpi-openmp, mpi-cuda and mpi-hip code")
  endif()
  # The device part: mpi-cuda compiles as cuda, mpi-hip as hip.
  string(REGEX REPLACE "^mpi-" "" device "${arg_TARGET}")
  if(device STREQUAL "cuda" AND NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "${fn}: TARGET ${arg_TARGET} needs CMake's CUDA language: "
                        "project(... LANGUAGES CXX CUDA) or enable_language(CUDA) first")
  endif()
  if(device STREQUAL "hip")
    if(DEFINED ENV{HIPCXX})
      set(hipcc "$ENV{HIPCXX}")
    else()
      find_program(STENCILC_HIPCC hipcc)
      set(hipcc "${STENCILC_HIPCC}")
    endif()
    find_library(STENCILC_AMDHIP64 amdhip64)
    if(NOT hipcc OR NOT STENCILC_AMDHIP64)
      message(FATAL_ERROR "${fn}: TARGET ${arg_TARGET} needs hipcc and libamdhip64 (Debian: "
                          "hipcc libamdhip64-dev; HIPCXX names another hipcc)")
    endif()
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

  # As `stencilc build` compiles it: no fused multiply-adds, so the results round as the
  # reference interpreter's (and every plan's) do.
  # The host runtime the device code runs beside: the core, or the distributed runtime.
  if(arg_TARGET MATCHES "^mpi-")
    set(host_runtime stencilc::runtime_mpi)
  else()
    set(host_runtime stencilc::runtime_core)
  endif()
  if(arg_TARGET MATCHES "openmp$")
    add_library(${name} STATIC ${sources})
    # The openmp target's runtime: the CPU engine and the core (mpi-openmp: and the
    # distributed runtime).
    if(arg_TARGET STREQUAL "mpi-openmp")
      target_link_libraries(${name} PUBLIC stencilc::runtime_mpi_openmp)
    else()
      target_link_libraries(${name} PUBLIC stencilc::runtime)
    endif()
    target_compile_options(${name} PRIVATE -ffp-contract=off)
  elseif(device STREQUAL "cuda")
    add_library(${name} STATIC ${sources})
    list(FILTER sources INCLUDE REGEX "\\.cpp$")
    set_source_files_properties(${sources} PROPERTIES LANGUAGE CUDA)
    set_target_properties(${name} PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
    target_compile_options(${name} PRIVATE
                           $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -fmad=false>)
    target_link_libraries(${name} PUBLIC ${host_runtime})
    if(arg_TARGET STREQUAL "mpi-cuda")
      # overlap=host: the boundary on the host's cores (OpenMP in the host code).
      target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
      target_link_libraries(${name} PUBLIC OpenMP::OpenMP_CXX)
    endif()
  else()
    # hipcc compiles NAME.cpp into an object of the library (see TARGET above).
    if(NOT DEFINED STENCILC_HIP_ARCHITECTURES)
      set(STENCILC_HIP_ARCHITECTURES gfx90a)
    endif()
    set(archs "")
    foreach(arch IN LISTS STENCILC_HIP_ARCHITECTURES)
      list(APPEND archs "--offload-arch=${arch}")
    endforeach()
    get_target_property(includes stencilc::runtime_core_base INTERFACE_INCLUDE_DIRECTORIES)
    if(arg_TARGET STREQUAL "mpi-hip")
      get_target_property(mpi_includes MPI::MPI_CXX INTERFACE_INCLUDE_DIRECTORIES)
      list(APPEND includes ${mpi_includes})
    endif()
    list(TRANSFORM includes PREPEND "-I")
    set(cpp ${sources})
    list(FILTER cpp INCLUDE REGEX "\\.cpp$")
    set(object "${dir}/${name}_hip.o")
    add_custom_command(
      OUTPUT "${object}"
      COMMAND "${hipcc}" -std=c++17 -O3 -x hip -ffp-contract=off -fPIC ${archs} ${includes}
              -c ${cpp} -o "${object}"
      DEPENDS ${sources}
      COMMENT "hipcc: compiling ${name} for ${STENCILC_HIP_ARCHITECTURES}"
      VERBATIM)
    set_source_files_properties("${object}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    list(FILTER sources INCLUDE REGEX "\\.h$")
    add_library(${name} STATIC ${sources} "${object}")
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
    target_link_libraries(${name} PUBLIC ${host_runtime} "${STENCILC_AMDHIP64}")
  endif()
  target_include_directories(${name} PUBLIC "${dir}")
endfunction()
