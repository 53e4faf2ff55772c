# cmake --install: the stencilc executable, the runtime libraries and headers, and the CMake
# package that lets an application generate and link stencils at build time:
#
#   <prefix>/bin/stencilc
#   <prefix>/lib/libstencilc_rt_core.a, libstencilc_rt_cpu.a, libstencilc_rt_gpucpu.a,
#                  libstencilc_rt_mpi.a (what `stencilc build --target mpi-openmp` links; not in
#                  the CMake package yet)
#   <prefix>/include/stencilc/*.h, include/stencilc/cpu/*.h, include/stencilc/gpu/*.h,
#                  include/stencilc/mpi/*.h
#   <prefix>/lib/cmake/stencilc/   stencilcConfig.cmake, stencilcConfigVersion.cmake,
#                                  stencilcTargets*.cmake (stencilc::stencilc, stencilc::runtime,
#                                  stencilc::runtime_core, stencilc::runtime_cpu,
#                                  stencilc::runtime_gpucpu),
#                                  stencilc_add_stencil.cmake, stencilc_check_outputs.cmake
#
# The installed stencilc finds the runtime of its own prefix (compiler/target/runtime_paths.h),
# and everything in the package is relative to the prefix, so the prefix can be moved.
include(CMakePackageConfigHelpers)

# stencilc::runtime is what the openmp target's code links (the core and the CPU engine);
# stencilc::runtime_core and stencilc::runtime_cpu are the libraries themselves.
set_target_properties(stencilc_rt PROPERTIES EXPORT_NAME runtime)
set_target_properties(stencilc_rt_core PROPERTIES EXPORT_NAME runtime_core)
set_target_properties(stencilc_rt_cpu PROPERTIES EXPORT_NAME runtime_cpu)
# The CPU execution layer of the cuda and hip targets (stencilc build --cpu-layer, verify).
set_target_properties(stencilc_rt_gpucpu PROPERTIES EXPORT_NAME runtime_gpucpu)
# Shared libraries stencilc links from outside the system's search path stay found (libFormat and
# LLVM are linked statically: compiler/CMakeLists.txt).
set_target_properties(stencilc PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)

install(TARGETS stencilc stencilc_rt stencilc_rt_core stencilc_rt_cpu stencilc_rt_gpucpu
        EXPORT stencilcTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS stencilc_rt_mpi ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
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
