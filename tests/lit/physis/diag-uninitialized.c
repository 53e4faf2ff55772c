// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
  float t;
  if (x > 0)
    t = 1.0f;
// CHECK: {{^.*}}diag-uninitialized.c:[[@LINE+1]]:17: error: local 't' may be used before it is assigned{{$}}
  PSGridEmit(b, t);
}
#include "Inputs/main2d.h"
