#include "target/ptxas_usage.h"

#include <regex>
#include <sstream>

namespace stencilc::target {

namespace {

long firstNumberBefore(const std::string &line, const std::string &unit) {
  const std::regex re("([0-9]+) " + unit);
  std::smatch m;
  return std::regex_search(line, m, re) ? std::stol(m[1]) : 0;
}

} // namespace

std::vector<KernelUsage> parsePtxasUsage(std::string_view text) {
  // ptxas prints, per entry:  "ptxas info    : Compiling entry function '_Z..' for 'sm_80'"
  // then "Function properties for _Z..", "N bytes stack frame, N bytes spill stores, N bytes
  // spill loads" and "ptxas info    : Used N registers, ..., N bytes smem, ...".
  static const std::regex entry(R"(Compiling entry function '([^']+)' for '([^']+)')");
  std::vector<KernelUsage> out;
  std::istringstream in{std::string(text)};
  std::string line;
  KernelUsage *current = nullptr;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      out.push_back(KernelUsage{m[1], m[2]});
      current = &out.back();
      continue;
    }
    if (!current)
      continue;
    if (line.find("bytes spill stores") != std::string::npos) {
      current->stackFrameBytes = firstNumberBefore(line, "bytes stack frame");
      current->spillStoreBytes = firstNumberBefore(line, "bytes spill stores");
      current->spillLoadBytes = firstNumberBefore(line, "bytes spill loads");
    } else if (line.find("Used ") != std::string::npos &&
               line.find(" registers") != std::string::npos) {
      current->registers = static_cast<int>(firstNumberBefore(line, "registers"));
      current->sharedBytes = firstNumberBefore(line, "bytes smem");
    }
  }
  return out;
}

std::vector<std::string> spillReport(const std::vector<KernelUsage> &usage) {
  std::vector<std::string> lines;
  for (const KernelUsage &k : usage)
    if (k.spills())
      lines.push_back(k.kernel + " (" + k.arch + "): " + std::to_string(k.spillStoreBytes) +
                      " bytes spill stores, " + std::to_string(k.spillLoadBytes) +
                      " bytes spill loads");
  return lines;
}

} // namespace stencilc::target
