// Runs Clang on a Physis C program (syntax and semantic checks only, no code generation) and
// hands the AST to the translator. Clang's errors and warnings go through stencilc's DiagEngine,
// so they print like every other diagnostic.
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>

#include <filesystem>

#include "frontend/physis.h"
#include "frontend/physis_host.h"
#include "frontend/physis_locations.h"
#include "frontend/physis_translate.h"

namespace stc {

bool is_physis_path(const std::string &path) {
  return path.size() > 2 && path.compare(path.size() - 2, 2, ".c") == 0;
}

SourceLoc ClangLocations::operator()(clang::SourceLocation loc) const {
  if (loc.isInvalid())
    return {};
  const clang::SourceLocation at = sm_.getFileLoc(loc);
  const clang::FileID fid = sm_.getFileID(at);
  SourceLoc out;
  out.line = static_cast<int>(sm_.getSpellingLineNumber(at));
  out.col = static_cast<int>(sm_.getSpellingColumnNumber(at));
  if (fid == sm_.getMainFileID())
    return out;
  const clang::FileEntry *fe = sm_.getFileEntryForID(fid);
  const std::string path = fe ? fe->getName().str() : "<built-in>";
  // A header already known (to this or another ClangLocations of the same engine) keeps its id.
  for (FileId id = 1; diags_.file(id); ++id)
    if (diags_.file(id)->path() == path) {
      out.file = id;
      return out;
    }
  headers_.push_back(std::make_unique<SourceFile>(path, sm_.getBufferData(fid).str()));
  out.file = diags_.add_file(headers_.back().get());
  return out;
}

namespace {

class Forward : public clang::DiagnosticConsumer {
public:
  Forward(DiagEngine &diags, std::vector<std::unique_ptr<SourceFile>> &headers)
      : diags_(diags), headers_(headers) {}
  void BeginSourceFile(const clang::LangOptions &, const clang::Preprocessor *pp) override {
    if (pp)
      sm_ = &pp->getSourceManager();
  }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    SourceLoc loc;
    if (info.hasSourceManager() && info.getLocation().isValid())
      loc = ClangLocations(info.getSourceManager(), diags_, headers_)(info.getLocation());
    // (physis.h's PSGridGet spells the call of a grid of numbers once per number type, for
    // user-defined types, and Clang checks each: DiagEngine keeps one of repeated messages.)
    switch (level) {
    case clang::DiagnosticsEngine::Error:
    case clang::DiagnosticsEngine::Fatal: diags_.error(loc, text.str().str()); break;
    case clang::DiagnosticsEngine::Warning: diags_.warning(loc, text.str().str()); break;
    case clang::DiagnosticsEngine::Note: diags_.note(loc, text.str().str()); break;
    default: break;
    }
  }

private:
  DiagEngine &diags_;
  std::vector<std::unique_ptr<SourceFile>> &headers_;
  const clang::SourceManager *sm_ = nullptr;
};

} // namespace

std::optional<ast::Program> parse_physis(const SourceFile &file, DiagEngine &diags,
                                         const std::vector<std::string> &include_dirs,
                                         std::vector<std::unique_ptr<SourceFile>> &headers,
                                         std::string *host_text) {
  // C11 (for _Generic in the Physis header); no warnings beyond Clang's defaults: the user's C
  // compiler has its own opinion of the host code.
  std::vector<std::string> args = {"-xc", "-std=gnu11", "-fsyntax-only", "-Wno-unused-value"};
  for (const auto &d : include_dirs)
    args.push_back("-I" + d);
  Forward forward(diags, headers);
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      file.text(), args, file.path(), "stencilc", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(),
      &forward);
  if (!unit || diags.has_errors())
    return std::nullopt;
  ClangLocations locs(unit->getSourceManager(), diags, headers);
  PhysisHostCalls calls;
  std::optional<ast::Program> prog =
      translate_physis(unit->getASTContext(), file, diags, locs, calls);
  if (prog && host_text) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(file.path(), ec);
    auto text = rewrite_physis_host(unit->getASTContext(), calls, ec ? file.path() : abs.string(),
                                    diags, locs);
    if (!text)
      return std::nullopt;
    *host_text = std::move(*text);
  }
  return prog;
}

} // namespace stc
