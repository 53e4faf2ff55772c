// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// Grids of a user-defined type are read and written per member: a whole element is only
// copied to another grid, PSGridEmit writes numbers, an array member's index is a constant
// (or a loop's variable), members exist, and PSReduce reduces grids of numbers.
#include "physis/physis.h"
#define N 8
struct P { float a; double r[2]; };
DeclareGrid2D(P, struct P);
void k(const int x, const int y, PSGrid2DP g, PSGrid2DP h, PSGrid2DFloat f) {
  int j = x % 2;
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:35: error: the index of an array member must be a constant (or computed from the variables of loops with constant bounds){{$}}
  double v = PSGridGet(g, x, y).r[j];
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: PSGridEmit of a grid of a user-defined type: write a member, PSGridEmitUtype(g.member, v){{$}}
  PSGridEmit(h, v);
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: index 'j' of PSGridEmitUtype's target 'h.r[j]' must be computed from decimal constants and the variables of loops with constant bounds (+ - * / %){{$}}
  PSGridEmitUtype(h.r[j], v);
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: PSGridEmitUtype's target 'h.r[1] + 1' is not a grid parameter or one's member with constant indices (g.member, g.m[1][2]){{$}}
  PSGridEmitUtype(h.r[1] + 1, v);
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: index 'k' of PSGridEmitUtype's target 'h.r[k]' must be computed from decimal constants and the variables of loops with constant bounds (+ - * / %){{$}}
  PSGridEmitUtype(h.r[k], v);
  int unset;
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: index '1 - unset' of PSGridEmitUtype's target 'h.r[1 - unset]' must be computed from decimal constants and the variables of loops with constant bounds (+ - * / %){{$}}
  PSGridEmitUtype(h.r[1 - unset], v);
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: PSGridEmitUtype(h, v) writes a whole element: v must be one read whole, PSGridGet(h, ...); or write a member, PSGridEmitUtype(h.member, v){{$}}
  PSGridEmitUtype(h, v);
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: PSGridEmitUtype to grid 'f' of numbers: write PSGridEmit(f, v){{$}}
  PSGridEmitUtype(f, v);
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: PSGridEmitUtype's target 'q' must be one of the kernel's grid parameters{{$}}
  PSGridEmitUtype(q.a, v);
  PSGridEmitUtype(h.a, PSGridGet(g, x, y).a + 1.0f);
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: PSGridEmitUtype's target 'h.b': struct P has no member 'b'{{$}}
  PSGridEmitUtype(h.b, 1.0f);
}
int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DP g = PSGrid2DPNew(N, N), h = PSGrid2DPNew(N, N);
  PSGrid2DFloat f = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  PSStencilRun(PSStencilMap(k, d, g, h, f), 1);
  double s;
// CHECK: {{^.*}}diag-struct-use.c:[[@LINE+1]]:3: error: PSReduce of grid 'g', whose elements are struct P: stencilc reduces grids of numbers (reduce a member in a grid of its own){{$}}
  PSReduce(&s, PS_SUM, g);
  return 0;
}
