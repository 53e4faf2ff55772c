// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// The members of a grid's element type must be int, long, float or double or arrays of them:
// a short would be kept in 32 bits, a nested struct or a pointer has no grid.
#include "physis/physis.h"
#define N 8
struct Inner { float u; };
struct Bad {
  float ok;
// CHECK: {{^.*}}diag-struct-member.c:[[@LINE+1]]:9: error: member 's' of the element type struct Bad has type short: the members of a grid's element type must be int, long, float or double, or arrays of them{{$}}
  short s;
// CHECK: {{^.*}}diag-struct-member.c:[[@LINE+1]]:16: error: member 'in' of the element type struct Bad has type struct Inner: the members of a grid's element type must be int, long, float or double, or arrays of them{{$}}
  struct Inner in;
// CHECK: {{^.*}}diag-struct-member.c:[[@LINE+1]]:10: error: member 'p' of the element type struct Bad has type float *: the members of a grid's element type must be int, long, float or double, or arrays of them{{$}}
  float *p;
// CHECK: {{^.*}}diag-struct-member.c:[[@LINE+1]]:9: error: member 'z' of the element type struct Bad is an array of no elements{{$}}
  float z[0];
};
DeclareGrid2D(Bad, struct Bad);
void k(const int x, const int y, PSGrid2DBad g, PSGrid2DFloat f) {
  PSGridEmit(f, PSGridGet(g, x, y).ok);
}
int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DBad g = PSGrid2DBadNew(N, N);
  PSGrid2DFloat f = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  PSStencilRun(PSStencilMap(k, d, g, f), 1);
  return 0;
}
