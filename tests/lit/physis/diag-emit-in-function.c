// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Only the kernel itself writes: a function it calls returns a value instead.
#include "physis/physis.h"
#define N 8
float put(PSGrid2DFloat g, float v) {
// CHECK: {{^.*}}diag-emit-in-function.c:[[@LINE+1]]:3: error: PSGridEmit in 'put', a function a kernel calls: only the kernel itself may emit (return the value instead){{$}}
  PSGridEmit(g, v);
  return v;
}
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
  PSGridEmit(b, put(b, s * PSGridGet(a, x, y)));
}
#include "Inputs/main2d.h"
