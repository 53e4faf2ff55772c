// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
// CHECK: {{^.*}}diag-long-grid.c:[[@LINE+1]]:20: error: 64-bit integer grids (PSGrid2DLong) are not supported yet{{$}}
  PSGrid2DLong l = PSGrid2DLongNew(N, N);
  PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
  return 0;
}
