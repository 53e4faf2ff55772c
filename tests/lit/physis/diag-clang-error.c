// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Clang's own errors come through stencilc's diagnostics, located in the C file.
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
// CHECK: {{^.*}}diag-clang-error.c:[[@LINE+3]]:17: error: use of undeclared identifier 'undeclared'{{$}}
// CHECK-NEXT: {{^}}  PSGridEmit(b, undeclared + 1.0f);{{$}}
// CHECK-NEXT: {{^}}                ^{{$}}
  PSGridEmit(b, undeclared + 1.0f);
}
#include "Inputs/main2d.h"
