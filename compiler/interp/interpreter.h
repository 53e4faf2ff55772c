// The reference interpreter: executes the checked IR point by point, as literally as the
// language reference describes it. It is the oracle every backend is compared with, so it
// favours obviousness over speed.
#pragma once
#include <array>
#include <utility>
#include <variant>
#include <vector>

#include "ir/eval.h"
#include "ir/ir.h"
#include "stencilc/grid.h"
#include "stencilc/program.h"

namespace stc {

class Interpreter : public stencilc::Program {
public:
  /// `params` holds a value per param (see resolve_params). Throws stencilc::Error for sizes
  /// the program cannot run with (an extent below 1, a stencil wider than a grid, grids of
  /// different shapes in one kernel).
  Interpreter(const ir::Program &prog, std::vector<ir::Scalar> params);

  std::string name() const override { return prog_.name; }
  std::string target() const override { return "interp"; }
  std::string plan() const override { return "reference"; }
  std::vector<std::string> grid_names() const override;
  void load(const std::string &grid, const std::string &path) override;
  void save(const std::string &grid, const std::string &path) const override;
  double checksum(const std::string &grid) const override;
  stencilc::GridRef grid(const std::string &grid) const override;
  void init_random(std::uint64_t seed) override;
  std::int64_t default_steps() const override;
  double cell_updates_per_step() const override;
  std::int64_t run(std::int64_t steps) override;
  std::vector<std::string> blocks() const override;
  std::int64_t block_steps(const std::string &block) const override;
  void run_block(const std::string &block, std::int64_t steps) override;
  int threads() const override { return 1; }
  bool has_condition() const override { return prog_.until != nullptr; }
  bool converged() const override { return converged_; }
  std::vector<std::pair<std::string, double>> reductions() const override;
  std::vector<std::pair<std::string, std::int64_t>> integer_reductions() const override;
  std::string fingerprint() const override;
  std::vector<double> run_state() const override;
  void set_run_state(const std::vector<double> &state) override;
  void restore(const std::string &grid, const stencilc::GridRef &whole) override;

  /// Value of grid g at a point (in the grid's type), for tests.
  ir::Scalar at(int grid, const std::array<std::int64_t, 4> &point) const;

private:
  using AnyGrid = std::variant<stencilc::Grid<float>, stencilc::Grid<double>,
                               stencilc::Grid<std::int32_t>, stencilc::Grid<std::int64_t>>;
  int grid_index(const std::string &name) const;
  void fill_ghosts(int grid);
  void run_kernel(const ir::Kernel &k);
  void run_reduction(int id);
  void run_stmts(const std::vector<ir::RunStmt> &stmts);
  const ir::Program::Block &block(const std::string &name) const;
  /// The points of a domain over the interior of grid g, in x-fastest order.
  template <typename F> void for_each_point(const ir::Domain &d, int g, F &&f) const;
  std::int64_t domain_size(const ir::Domain &d, int g) const;
  void exec(const ir::Kernel &k, const std::vector<ir::Stmt> &body, ir::Env &env,
            std::vector<ir::Scalar> &locals, const std::array<std::int64_t, 4> &pt);

  const ir::Program &prog_;
  std::vector<ir::Scalar> params_;
  std::vector<AnyGrid> grids_;
  std::vector<double> reduction_, reduction_first_;
  std::vector<bool> reduced_;
  std::vector<std::int64_t> exact_; // integer reductions: the exact value (0 for the others)
  bool converged_ = false;
};

} // namespace stc
