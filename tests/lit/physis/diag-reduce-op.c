// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// An operator that is none of Physis's four is refused, located.
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
  PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
  float p;
// CHECK: {{^.*}}diag-reduce-op.c:[[@LINE+1]]:16: error: PSReduce's operator must be PS_MAX, PS_MIN, PS_SUM or PS_PROD{{$}}
  PSReduce(&p, (PSReduceOp)7, b);
  return 0;
}
