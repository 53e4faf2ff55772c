// The runtime core without the CPU engine: linked against stencilc_rt_core alone (no
// stencilc_rt_cpu, no OpenMP), a Program runs through execute() and writes its grid as a .npy
// series and an HDF5 file, as a GPU or MPI build would use the core.
//   runtime_core_alone DIR    (DIR exists; exit 0 if all went as expected)
#include <cstdint>
#include <cstdio>
#include <string>

#include "stencilc/error.h"
#include "stencilc/execute.h"
#include "stencilc/grid.h"
#include "stencilc/npy.h"

namespace {

// One 4x3 float grid; a step adds 1 to every cell.
class Counter final : public stencilc::Program {
public:
  std::string name() const override { return "counter"; }
  std::string target() const override { return "none"; }
  std::string plan() const override { return "none"; }
  std::vector<std::string> grid_names() const override { return {"u"}; }
  void load(const std::string &, const std::string &path) override {
    stencilc::load_grid(u_, path);
  }
  void save(const std::string &, const std::string &path) const override {
    stencilc::save_grid(u_, path);
  }
  double checksum(const std::string &) const override { return stencilc::checksum(u_); }
  stencilc::GridRef grid(const std::string &) const override { return &u_; }
  void init_random(std::uint64_t) override {}
  std::int64_t default_steps() const override { return 3; }
  double cell_updates_per_step() const override { return 12; }
  std::int64_t run(std::int64_t steps) override {
    for (std::int64_t s = 0; s < steps; ++s)
      for (std::int64_t y = 0; y < 3; ++y)
        for (std::int64_t x = 0; x < 4; ++x)
          u_.at(x, y) += 1;
    return steps;
  }
  int threads() const override { return 1; }

private:
  stencilc::Grid<float> u_{"u", 2, {4, 3, 1, 1}, {1, 1, 0, 0}};
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const std::string dir = argv[1];
  try {
    Counter program;
    stencilc::RunOptions opts;
    opts.saves = {{"u", dir + "/u.npy"}, {"u", dir + "/u.h5"}};
    opts.save_every = 1;
    stencilc::execute(program, opts);
    stencilc::Grid<float> back("u", 2, {4, 3, 1, 1}, {0, 0, 0, 0});
    stencilc::load_grid(back, dir + "/u_000003.npy");
    if (back.at(3, 2) != 3.0f) {
      std::fprintf(stderr, "u[3, 2] after 3 steps is %g, not 3\n", back.at(3, 2));
      return 1;
    }
  } catch (const stencilc::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  std::printf("the runtime core ran a program alone\n");
  return 0;
}
