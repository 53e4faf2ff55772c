// RUN: %stencilc check %s --print-ir | FileCheck %s
// PS_PROD is a product reduction, like PS_SUM after the run.
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
  PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
  float p;
// CHECK: reduce p = prod(b[+0,+0])
  PSReduce(&p, PS_PROD, b);
  return 0;
}
