// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Functions a kernel calls are inlined; one that calls itself cannot be.
#include "physis/physis.h"
#define N 8
float twice(float v, int n) {
// CHECK: {{^.*}}diag-recursion.c:[[@LINE+1]]:25: error: 'twice' calls itself (recursion): kernels and the functions they call cannot recurse{{$}}
  return n > 0 ? 2.0f * twice(v, n - 1) : v;
}
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
  PSGridEmit(b, twice(s * PSGridGet(a, x, y), 2));
}
#include "Inputs/main2d.h"
