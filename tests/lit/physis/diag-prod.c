// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
  PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
  float p;
// CHECK: {{^.*}}diag-prod.c:[[@LINE+1]]:16: error: PS_PROD (a product reduction) is not supported yet{{$}}
  PSReduce(&p, PS_PROD, b);
  return 0;
}
