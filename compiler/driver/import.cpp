#include "driver/import.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "frontend/parse.h"
#include "frontend/physis.h"
#include "frontend/stn_print.h"
#include "sema/check.h"
#include "sema/instantiate.h"
#include "sema/structs.h"
#include "stencilc/error.h"
#include "target/target.h"

namespace stc {

int import_program(const Compiled &c, const std::string &path, const std::string &out) {
  if (!is_physis_path(path))
    throw stencilc::Error("import reads a Physis program (.c); '" + path +
                          "' is a .stn program already");
  std::map<std::string, std::string> renamed;
  const std::string text =
      print_stn(c.ast, std::filesystem::path(path).filename().string(), &renamed);
  // The text must mean what the C program does: it parses, checks, and gives the same IR.
  SourceFile written(out.empty() ? "<import>" : out, text);
  DiagEngine diags(&written);
  auto reparsed = parse(written, diags);
  std::optional<ir::Program> again;
  if (reparsed)
    if (auto bound = split_structs(instantiate(*reparsed, diags), diags))
      again = check(*bound, diags, reserved_by_targets());
  // (Compared with the renamed names put back: each new name is unique in the program.)
  std::string printed = again ? ir::print(*again) : "";
  for (const auto &[from, to] : renamed)
    printed = std::regex_replace(printed, std::regex("\\b" + to + "\\b"), from);
  if (!again || printed != ir::print(c.program))
    internal_error("stencilc import wrote a .stn program that does not mean what " + path +
                   " does:\n" + diags.render() + text);
  if (out.empty()) {
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  // Written beside the target and renamed, so a failure never leaves half a file.
  const std::string tmp = out + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    f.close();
    if (!f)
      throw stencilc::Error("cannot write '" + tmp + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, out, ec);
  if (ec)
    throw stencilc::Error("cannot write '" + out + "': " + ec.message());
  std::printf("wrote %s\n", out.c_str());
  return 0;
}

} // namespace stc
