// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "physis/physis.h"
#define N 8
void k(const int x, PSGrid1DFloat a, PSGrid1DFloat b) { PSGridEmit(b, PSGridGet(a, x)); }
// CHECK: {{^.*}}diag-no-run.c:[[@LINE+1]]:5: error: main() never calls PSStencilRun: there is no stencil to compile{{$}}
int main(void) {
  PSGrid1DFloat a = PSGrid1DFloatNew(N), b = PSGrid1DFloatNew(N);
  PSDomain1D d = PSDomain1DNew(0, N);
  return 0;
}
