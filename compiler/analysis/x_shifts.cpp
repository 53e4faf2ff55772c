// Which kernels' rows the xshift=reg row functions can compute (x_shifts.h).
#include "analysis/x_shifts.h"

#include <cstdlib>
#include <set>

#include <fmt/format.h>

namespace stc {
namespace {

// Whether a value is a vector (it reads a grid, or a local that does), given the vector locals.
bool is_vector(const ir::ExprPtr &e, const std::set<int> &vector_locals) {
  bool v = false;
  ir::walk(e, [&](const ir::Expr &x) {
    v |= x.op == ir::Op::GridRead || (x.op == ir::Op::Local && vector_locals.count(x.id));
  });
  return v;
}

} // namespace

ir::Type x_shift_type(const ir::Program &p, const ir::Kernel &k) {
  std::set<int> grids = ir::grids_read(k.body);
  for (int g : ir::grids_written(k.body))
    grids.insert(g);
  ir::Type t = ir::Type::Bool;
  for (int g : grids) {
    const ir::Type gt = p.grids[g].type;
    if ((gt != ir::Type::Float && gt != ir::Type::Double) || (t != ir::Type::Bool && gt != t))
      return ir::Type::Bool;
    t = gt;
  }
  return t;
}

std::string why_no_x_shifts(const ir::Program &p, const ir::Kernel &k) {
  if (k.rank < 2)
    return "a kernel of rank 1";
  if (ir::colour_of(k.domain) >= 0)
    return "its domain has colours (it steps over every other x)";
  const ir::Type t = x_shift_type(p, k);
  if (t == ir::Type::Bool)
    return "its grids are not all float or all double";
  const std::set<int> written = ir::grids_written(k.body);
  const int w = kXShiftVectorBytes / (t == ir::Type::Float ? 4 : 8);
  std::string why;
  bool shifted = false;
  std::set<int> vector_locals, stored;
  for (const auto &st : k.body) {
    if (st.kind == ir::Stmt::Kind::If)
      return "it has an if statement";
    if (st.kind == ir::Stmt::Kind::Assign && stored.count(st.grid))
      return fmt::format("it stores to grid '{}' twice", p.grids[st.grid].name);
    if (st.kind == ir::Stmt::Kind::Let && k.locals[st.local].type != t)
      return fmt::format("local '{}' is not of the grids' type", k.locals[st.local].name);
    ir::walk(st.value, [&](const ir::Expr &e) {
      if (!why.empty())
        return;
      switch (e.op) {
      case ir::Op::FloatConst:
      case ir::Op::Param:
      case ir::Op::Local:
      case ir::Op::Neg:
      case ir::Op::Add:
      case ir::Op::Sub:
      case ir::Op::Mul:
      case ir::Op::Div: break;
      case ir::Op::GridRead:
        if (written.count(e.id) && (!stored.count(e.id) || e.absolute || e.offset != ir::Offsets{}))
          why = fmt::format("it reads grid '{}', which it writes, other than at the cell it "
                            "stored before",
                            p.grids[e.id].name);
        else if (e.absolute || p.grids[e.id].rank != k.rank)
          why = fmt::format("it reads grid '{}' other than at offsets from the point",
                            p.grids[e.id].name);
        else if (std::abs(e.offset[0]) >= w)
          why = fmt::format("it reads grid '{}' {} cells away in x, a vector or more",
                            p.grids[e.id].name, std::abs(e.offset[0]));
        shifted |= e.offset[0] != 0;
        break;
      case ir::Op::Cast: why = "it converts a value to another type"; return;
      default: why = "it uses an operation other than + - * / on values"; return;
      }
      if (why.empty() && e.type != t)
        why = "it computes in a type other than its grids'";
    });
    if (!why.empty())
      return why;
    if (!is_vector(st.value, vector_locals))
      return "a value it assigns reads no grid";
    if (st.kind == ir::Stmt::Kind::Let)
      vector_locals.insert(st.local);
    else
      stored.insert(st.grid);
  }
  if (!shifted)
    return "it reads no row at an x offset";
  return "";
}

} // namespace stc
