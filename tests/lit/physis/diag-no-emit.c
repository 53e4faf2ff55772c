// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "physis/physis.h"
#define N 8
// CHECK: {{^.*}}diag-no-emit.c:[[@LINE+1]]:6: error: kernel 'k' never calls PSGridEmit: it computes nothing{{$}}
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
  float t = PSGridGet(a, x, y);
}
#include "Inputs/main2d.h"
