# Embeds the template files into one C++ source as raw string literals, so stencilc needs no
# data files at run time. Usage: cmake -DOUT=file.cpp -DDIR=templates -P embed.cmake
file(GLOB_RECURSE files RELATIVE "${DIR}" "${DIR}/*.mustache")
list(SORT files)
set(body "")
foreach(f ${files})
  file(READ "${DIR}/${f}" text)
  string(APPEND body "    {\"${f}\", R\"STNTPL(${text})STNTPL\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from templates/ by templates/embed.cmake. Do not edit.
#include <map>
#include <string>

namespace stc {
const std::map<std::string, std::string> &embedded_templates() {
  static const std::map<std::string, std::string> t = {
${body}  };
  return t;
}
} // namespace stc
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
