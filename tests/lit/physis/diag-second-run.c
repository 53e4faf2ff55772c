// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A second PSStencilRun may repeat the first one's stencils (the same PSStencil variables, in
// the same order) with its own count; other stencils, another order or a map written in the
// call are refused, located: stencilc compiles one run block per program.
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  PSStencil s1 = PSStencilMap(k, d, a, b, 1.0f);
  PSStencil s2 = PSStencilMap(k, d, b, a, 1.0f);
  PSStencilRun(s1, s2, 1);
  PSStencilRun(s1, s2, 10);
// CHECK: {{^.*}}diag-second-run.c:[[@LINE+1]]:3: error: a second PSStencilRun with other stencils: stencilc compiles one run per program; another PSStencilRun may repeat the first one's stencils (the same PSStencil variables, in the same order) with its own count{{$}}
  PSStencilRun(s2, s1, 10);
// CHECK: {{^.*}}diag-second-run.c:[[@LINE+1]]:3: error: a second PSStencilRun with other stencils: {{.*}}{{$}}
  PSStencilRun(s1, 3);
  return 0;
}
