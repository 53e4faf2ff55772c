// Where `stencilc build` finds the runtime the generated code compiles against: the build tree
// for a stencilc run from its build tree, the installation prefix for an installed copy.
#pragma once
#include <string>

namespace stc {

/// The directory holding stencilc/program.h and the other runtime headers: the environment
/// variable STENCILC_RT_INCLUDE_DIR if set, else the build tree's runtime/include for the
/// stencilc in the build tree's bin directory, else the include directory of the prefix this
/// stencilc is installed in (found from /proc/self/exe, so the prefix can move). Throws
/// stencilc::Error, naming the path and the variable, if the headers are not there.
std::string runtime_include_dir();

/// The archive of one runtime library, `lib` naming it ("core", "cpu": libstencilc_rt_core.a,
/// libstencilc_rt_cpu.a, runtime/CMakeLists.txt), in the directory found like
/// runtime_include_dir(): STENCILC_RT_LIBRARY_DIR, else the build tree's, else the installation
/// prefix's. Throws stencilc::Error, naming the path and the variable, if it is not there, or if
/// the variable of the single library of old, STENCILC_RT_LIBRARY, is set.
std::string runtime_library(const std::string &lib);

} // namespace stc
