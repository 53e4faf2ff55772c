// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
// CHECK: {{^.*}}diag-emit-in-if.c:[[@LINE+1]]:14: error: PSGridEmit inside if/else is not supported yet: compute the value with ?: (or a local assigned in both branches) and emit it once{{$}}
  if (x > 0) PSGridEmit(b, PSGridGet(a, x - 1, y));
}
#include "Inputs/main2d.h"
