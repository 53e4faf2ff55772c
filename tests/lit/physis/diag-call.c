// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <math.h>
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
// CHECK: {{^.*}}diag-call.c:[[@LINE+1]]:17: error: kernels can call PSGridGet, PSGridGetPeriodic and the math functions sqrt, exp, log, sin, cos, tan, floor, fabs, abs and pow (and their float forms); 'hypotf' is not one of them{{$}}
  PSGridEmit(b, hypotf(PSGridGet(a, x, y), s));
}
#include "Inputs/main2d.h"
