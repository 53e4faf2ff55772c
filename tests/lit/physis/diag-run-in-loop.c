// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
  for (int i = 0; i < 2; ++i)
// CHECK: {{^.*}}diag-run-in-loop.c:[[@LINE+1]]:5: error: PSStencilRun is only supported as a statement of main() itself, not inside a loop, a condition or another expression (for now){{$}}
    PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
  return 0;
}
