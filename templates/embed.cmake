# Embeds data files (templates, machine profiles) into one C++ source as raw string literals,
# so stencilc needs no data files at run time.
# Usage: cmake -DOUT=file.cpp -DDIR=dir -DPATTERN=*.mustache -DFUNC=embedded_templates -P embed.cmake
if(NOT PATTERN)
  set(PATTERN "*.mustache")
endif()
if(NOT FUNC)
  set(FUNC embedded_templates)
endif()
file(GLOB_RECURSE files RELATIVE "${DIR}" "${DIR}/${PATTERN}")
list(SORT files)
set(body "")
foreach(f ${files})
  file(READ "${DIR}/${f}" text)
  string(APPEND body "    {\"${f}\", R\"STNTPL(${text})STNTPL\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from ${DIR} by templates/embed.cmake. Do not edit.
#include <map>
#include <string>

namespace stc {
const std::map<std::string, std::string> &${FUNC}() {
  static const std::map<std::string, std::string> t = {
${body}  };
  return t;
}
} // namespace stc
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
