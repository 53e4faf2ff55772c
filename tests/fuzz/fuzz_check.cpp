// libFuzzer target: what `stencilc check --stats --print-ir FILE` does, on arbitrary bytes.
// The same steps as compile() in compiler/driver/pipeline.cpp: read_source (the binary and
// UTF-8 vetting), parse, instantiate, split structs, check, analyze, with every diagnostic
// rendered, plus ir::print and report() on success. User errors (stencilc::Error) end the input the
// way main() does; anything else escaping (a crash, a sanitizer report, an internal_error abort,
// another exception, a leak, a timeout) is a bug for libFuzzer to report.
//
// Built with clang++-14 -fsanitize=fuzzer,address,undefined by tests/fuzz/project; run by the
// ctest test fuzz.check.60s (tests/fuzz/run.sh). By hand:
//   build/tests/fuzz/build/fuzz_check -dict=tests/fuzz/stn.dict CORPUS_DIR
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

#include "analysis/analyze.h"
#include "frontend/parse.h"
#include "frontend/source.h"
#include "ir/ir.h"
#include "sema/check.h"
#include "sema/instantiate.h"
#include "sema/structs.h"
#include "stencilc/error.h"

namespace {

// read_source() takes a path, so each input goes into one in-memory file (memfd), read back
// through /proc/self/fd/N: the real vetting code runs and nothing touches the disk. Without
// memfd, a temporary file under $TMPDIR (or /tmp) is used instead.
class InputFile {
public:
  InputFile() {
    fd_ = ::memfd_create("stn-fuzz-input", MFD_CLOEXEC);
    if (fd_ >= 0) {
      path_ = "/proc/self/fd/" + std::to_string(fd_);
      return;
    }
    const char *tmp = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/stn-fuzz-XXXXXX.stn";
    fd_ = ::mkstemps(tmpl.data(), 4);
    if (fd_ < 0) {
      std::perror("fuzz_check: cannot create the input file");
      std::abort();
    }
    path_ = tmpl;
    unlink_ = true;
  }
  ~InputFile() {
    if (unlink_)
      ::unlink(path_.c_str());
    ::close(fd_);
  }
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;

  const std::string &path() const { return path_; }

  void write(const std::uint8_t *data, std::size_t size) {
    if (::ftruncate(fd_, 0) != 0)
      fail("ftruncate");
    for (std::size_t done = 0; done < size;) {
      const ssize_t n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        fail("pwrite");
      done += static_cast<std::size_t>(n);
    }
  }

private:
  [[noreturn]] static void fail(const char *what) {
    std::perror(what);
    std::abort();
  }
  int fd_ = -1;
  std::string path_;
  bool unlink_ = false;
};

// Keeps the rendered text observably used without printing it.
volatile std::size_t g_sink;
void consume(const std::string &s) { g_sink = g_sink + s.size(); }

void check_one(const std::string &path) {
  std::string err;
  auto file = stc::read_source(path, err);
  if (!file) {
    consume(err);
    return;
  }
  auto src = std::make_unique<stc::SourceFile>(std::move(*file));
  stc::DiagEngine diags(src.get());
  auto ast = stc::parse(*src, diags);
  if (!ast) {
    consume(diags.render());
    return;
  }
  auto bound = stc::split_structs(stc::instantiate(*ast, diags), diags);
  if (!bound) {
    consume(diags.render());
    return;
  }
  auto prog = stc::check(*bound, diags);
  consume(diags.render());
  if (!prog)
    return;
  prog->source_path = path;
  consume(stc::ir::print(*prog)); // --print-ir
  stc::Analysis a = stc::analyze(*prog);
  consume(stc::report(*prog, a)); // --stats
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static InputFile input; // one file for the whole run
  input.write(data, size);
  try {
    check_one(input.path());
  } catch (const stencilc::Error &e) {
    // main() prints these as "error: ..." and exits 1: a user error, not a crash.
    consume(e.what());
  }
  return 0;
}
