// RUN: %stencilc check %s --print-ir | FileCheck %s
// PSGridGetPeriodic beside PSGridGet at an offset: periodic per read. The periodic reads read
// a copy with periodic faces (a_periodic), refreshed by a copy kernel before each call of the
// kernel; the plain read keeps a's own (default, zero) ghost cells.
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
  PSGridEmit(b, PSGridGetPeriodic(a, x + 1, y) + PSGridGet(a, x - 1, y));
}
#include "Inputs/main2d.h"
// CHECK: grid float a[N, N] halo [1,0] x-:dirichlet(0.0:float) x+:dirichlet(0.0:float)
// CHECK: grid float a_periodic[N, N] halo [1,0] x-:periodic x+:periodic y-:periodic y+:periodic
// CHECK: kernel k(x, y)
// CHECK-NEXT: b = (a_periodic[+1,+0] + a[-1,+0])
// CHECK-NEXT: kernel copy_a_periodic(i0, i1)
// CHECK-NEXT: a_periodic = a[+0,+0]
// CHECK: run 3
// CHECK-NEXT: copy_a_periodic
// CHECK-NEXT: k
