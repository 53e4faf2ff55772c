// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "Inputs/kernel2d.h"
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
// CHECK: {{^.*}}diag-map-arity.c:[[@LINE+1]]:16: error: kernel 'k' takes 2 index parameters for a 2-dimensional domain and 3 more, but the map passes 2 arguments after the domain{{$}}
  PSStencilRun(PSStencilMap(k, d, a, b), 3);
  return 0;
}
