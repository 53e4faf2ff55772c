// RUN: not %stencilc build %s -o %t 2>&1 | FileCheck %s
// RUN: %stencilc check %s
// The host code is rewritten as written: a PSStencilRun produced by a macro cannot be, so
// build and emit refuse it, located (check, which only needs the stencils, accepts it).
#include "physis/physis.h"
#define N 8
#define RUN_ALL(m, n) PSStencilRun(m, n)

void copy(const int x, PSGrid1DFloat a, PSGrid1DFloat b) { PSGridEmit(b, PSGridGet(a, x)); }

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DFloat a = PSGrid1DFloatNew(N), b = PSGrid1DFloatNew(N);
  PSDomain1D d = PSDomain1DNew(0, N);
  // CHECK: diag-host-macro.c:[[@LINE+1]]:3: error: PSStencilRun written through a macro: stencilc rewrites the host code's calls as written, so write this call out
  RUN_ALL(PSStencilMap(copy, d, a, b), 3);
  PSFinalize();
  return 0;
}
