// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A read with the wrong number of indices is Clang's error: the header's _Generic picks the
// accessor of the grid's own rank and type. Its note points into the header.
#include "physis/physis.h"
#define N 8
void k(const int x, PSGrid1DInt a, PSGrid1DFloat b) {
// CHECK: {{^.*}}diag-grid-type.c:[[@LINE+3]]:33: error: too many arguments to function call, expected 2, have 3{{$}}
// CHECK: {{^.*}}physis.h:{{[0-9]+}}:{{[0-9]+}}: note: '__PSGridGet1DFloat' declared here{{$}}
// CHECK-NEXT: {{^}}STENCILC_PS_ACCESS_ALL(1D, PSIndex i){{$}}
  PSGridEmit(a, PSGridGet(b, x, 1) > 0 ? 1 : 0);
}
int main(void) {
  PSGrid1DInt a = PSGrid1DIntNew(N);
  PSGrid1DFloat b = PSGrid1DFloatNew(N);
  PSDomain1D d = PSDomain1DNew(0, N);
  PSStencilRun(PSStencilMap(k, d, a, b), 3);
  return 0;
}
