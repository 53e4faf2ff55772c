// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Kernel loops are unrolled, so their bounds must be constants; while loops are refused.
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
  float t = 0.0f;
// CHECK: {{^.*}}diag-loop.c:[[@LINE+2]]:3: error: this loop cannot be unrolled: its condition must compare the variable with a constant (i < N) (kernels take for loops whose variable starts, ends and steps by constants and that the body does not change){{$}}
// CHECK-NEXT: {{^}}  for (int i = 0; i < x; ++i){{$}}
  for (int i = 0; i < x; ++i)
    t += PSGridGet(a, x, y);
// CHECK: {{^.*}}diag-loop.c:[[@LINE+1]]:3: error: this loop cannot be unrolled: its body changes the loop variable
  for (int i = 0; i < 4; ++i)
    i += 1;
// CHECK: {{^.*}}diag-loop.c:[[@LINE+1]]:3: error: this loop cannot be unrolled: it runs more than 1024 times
  for (int i = 0; i < 5000; ++i)
    t += 1.0f;
// CHECK: {{^.*}}diag-loop.c:[[@LINE+1]]:3: error: while and do loops in kernels are not supported: a for loop with constant bounds is (it is unrolled){{$}}
  while (t > 1.0f)
    t = t * 0.5f;
  PSGridEmit(b, t);
}
#include "Inputs/main2d.h"
