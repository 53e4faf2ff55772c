// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
// CHECK: {{^.*}}diag-not-constant.c:[[@LINE+1]]:11: error: 'argc' is a parameter of main(), known only when the program runs: a value a stencil uses must be a constant (a literal, a macro, or a variable initialised with one){{$}}
  int n = argc;
  PSStencilRun(PSStencilMap(k, d, a, b, s), n);
  return 0;
}
