// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// PSStencilRun and PSReduce may be inside host loops and conditions (host_loop2d.c); what makes
// grids, domains and maps may not, and a stencil call inside another expression is refused.
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
  for (int i = 0; i < 2; ++i) {
// CHECK: {{^.*}}diag-new-in-loop.c:[[@LINE+1]]:23: error: PSGrid2DFloatNew inside a loop or a condition: stencilc makes the program's grids, domains and maps once, so make it before (PSStencilRun and PSReduce may be inside){{$}}
    PSGrid2DFloat t = PSGrid2DFloatNew(N, N);
    PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
  }
  if (argc > 1)
// CHECK: {{^.*}}diag-new-in-loop.c:[[@LINE+1]]:11: error: PSStencilRun is only supported as a statement of main() (or of a loop or condition in it), not inside another expression{{$}}
    (void)PSStencilRun(PSStencilMap(k, PSDomain2DNew(0, N, 0, N), a, b, s), 3);
  return 0;
}
