// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
// CHECK: {{^.*}}diag-mixed-periodic.c:[[@LINE+1]]:17: error: grid 'a' is read with PSGridGetPeriodic here and with PSGridGet at an offset elsewhere: periodic access chosen per read is not supported yet{{$}}
  PSGridEmit(b, PSGridGetPeriodic(a, x + 1, y) + PSGridGet(a, x - 1, y));
}
#include "Inputs/main2d.h"
