# cmake --install: the stencilc executable, the runtime libraries and headers, and the CMake
# package that lets an application generate and link stencils at build time:
#
#   <prefix>/bin/stencilc
#   <prefix>/lib/libstencilc_rt_core.a, libstencilc_rt_cpu.a, libstencilc_rt_gpucpu.a,
#                  libstencilc_rt_mpi.a
#   <prefix>/include/stencilc/*.h, include/stencilc/cpu/*.h, include/stencilc/gpu/*.h,
#                  include/stencilc/mpi/*.h
#   <prefix>/lib/cmake/stencilc/   stencilcConfig.cmake, stencilcConfigVersion.cmake,
#                                  stencilcTargets*.cmake (stencilc::stencilc, stencilc::runtime,
#                                  stencilc::runtime_core, stencilc::runtime_cpu,
#                                  stencilc::runtime_gpucpu, stencilc::runtime_mpi,
#                                  stencilc::runtime_mpi_openmp and the pieces they are made of),
#                                  stencilc_add_stencil.cmake, stencilc_check_outputs.cmake
#
# The installed stencilc finds the runtime of its own prefix (compiler/target/runtime_paths.h),
# and everything in the package is relative to the prefix, so the prefix can be moved.
include(CMakePackageConfigHelpers)

# stencilc::runtime is what the openmp target's code links (the core and the CPU engine);
# stencilc::runtime_core is the core with the serial libhdf5, stencilc::runtime_cpu the CPU
# engine. stencilc::runtime_mpi (the distributed runtime with the Open MPI libhdf5) is what
# the mpi-cuda and mpi-hip targets' code links, stencilc::runtime_mpi_openmp (with the CPU
# engine) mpi-openmp's. An executable links one libhdf5: the _base archives and the
# runtime_hdf5* interfaces are the pieces (runtime/CMakeLists.txt).
set_target_properties(stencilc_rt PROPERTIES EXPORT_NAME runtime)
set_target_properties(stencilc_rt_core PROPERTIES EXPORT_NAME runtime_core_base)
set_target_properties(stencilc_rt_core_serial PROPERTIES EXPORT_NAME runtime_core)
set_target_properties(stencilc_rt_hdf5 PROPERTIES EXPORT_NAME runtime_hdf5)
set_target_properties(stencilc_rt_hdf5_parallel PROPERTIES EXPORT_NAME runtime_hdf5_parallel)
set_target_properties(stencilc_rt_cpu PROPERTIES EXPORT_NAME runtime_cpu)
set_target_properties(stencilc_rt_mpi PROPERTIES EXPORT_NAME runtime_mpi_base)
set_target_properties(stencilc_rt_mpi_parallel PROPERTIES EXPORT_NAME runtime_mpi)
set_target_properties(stencilc_rt_mpi_openmp PROPERTIES EXPORT_NAME runtime_mpi_openmp)
# The CPU execution layer of the cuda and hip targets (stencilc build --cpu-layer, verify).
set_target_properties(stencilc_rt_gpucpu PROPERTIES EXPORT_NAME runtime_gpucpu)
# Shared libraries stencilc links from outside the system's search path stay found (libFormat and
# LLVM are linked statically: compiler/CMakeLists.txt).
set_target_properties(stencilc PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)

install(TARGETS stencilc stencilc_rt stencilc_rt_core stencilc_rt_core_serial stencilc_rt_hdf5
                stencilc_rt_hdf5_parallel stencilc_rt_cpu stencilc_rt_gpucpu stencilc_rt_mpi
                stencilc_rt_mpi_parallel stencilc_rt_mpi_openmp
        EXPORT stencilcTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/stencilc
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
# The Physis API header the front end parses Physis programs against (docs/PHYSIS.md).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/physis
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

set(STENCILC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/stencilc)
install(EXPORT stencilcTargets NAMESPACE stencilc:: DESTINATION ${STENCILC_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/stencilcConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/stencilcConfig.cmake
                              INSTALL_DESTINATION ${STENCILC_CMAKE_DIR})
# 0.x: a new minor version may change the generated API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/stencilcConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/stencilcConfig.cmake
              ${PROJECT_BINARY_DIR}/stencilcConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/stencilc_add_stencil.cmake
              ${CMAKE_CURRENT_LIST_DIR}/stencilc_check_outputs.cmake
        DESTINATION ${STENCILC_CMAKE_DIR})
