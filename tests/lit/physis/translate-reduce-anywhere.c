// RUN: %stencilc check %s --print-ir | FileCheck %s
// PSReduce may come before the run: the host code computes it where it is called
// (Stencil::compute_NAME()); one after the run is also computed by the run block, where verify
// compares it with the interpreter's.
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
  float early, late;
// CHECK: reduce early = sum(a[+0,+0])
  PSReduce(&early, PS_SUM, a);
  PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
// CHECK: reduce late = max(b[+0,+0])
  PSReduce(&late, PS_MAX, b);
// CHECK: run 3
// CHECK-NEXT: k
// CHECK-NEXT: late
// CHECK-NOT: early
  return 0;
}
