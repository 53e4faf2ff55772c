// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A scalar passed to a map is a param whose value is the variable's initializer: a variable
// the host changes later is refused rather than read at the wrong moment.
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
  s = 2.0f;
// CHECK: {{^.*}}diag-modified.c:[[@LINE+1]]:41: error: 's' changes after its declaration (an assignment, ++ or its address taken): a value a stencil uses must be fixed by its initializer (for now){{$}}
  PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
  return 0;
}
