// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
// CHECK: {{^.*}}diag-bitwise.c:[[@LINE+1]]:26: error: bitwise, shift and comma operators are not supported in kernels{{$}}
  PSGridEmit(b, (float)((x & 1) + y));
}
#include "Inputs/main2d.h"
