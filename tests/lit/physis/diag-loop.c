// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
  float t = 0.0f;
// CHECK: {{^.*}}diag-loop.c:[[@LINE+2]]:3: error: loops in kernels are not supported yet{{$}}
// CHECK-NEXT: {{^}}  for (int i = 0; i < 3; ++i){{$}}
  for (int i = 0; i < 3; ++i)
    t += PSGridGet(a, x, y);
  PSGridEmit(b, t);
}
#include "Inputs/main2d.h"
