// RUN: %stencilc check %s --print-ir | FileCheck %s
// A user-defined element type: one grid per scalar of the struct, in the order of its members;
// members read at offsets, periodically, with array indices that are constants, macros or
// computed from unrolled loops' variables; emit targets with such indices; a whole element
// copied from a periodic read (each member read so: only periodic reads, so periodic faces).
#include "physis/physis.h"
#define N 8
#define TWO 2
struct Cell { double u; int n[2]; };
DeclareGrid2D(Cell, struct Cell);
// CHECK: grid double g_u[N, N]
// CHECK: grid int g_n_0[N, N]
// CHECK: grid int g_n_1[N, N]
// CHECK: grid double h_u[N, N] halo [1,1] x-:periodic
// CHECK: kernel flip(x, y)
void flip(const int x, const int y, PSGrid2DCell g, PSGrid2DCell h) {
  int i;
// CHECK-NEXT: h_n_1 = g_n_0[+0,+0]
// CHECK-NEXT: h_n_0 = g_n_1[+0,+0]
  for (i = 0; i < 2; ++i)
    PSGridEmitUtype(h.n[1 - i], PSGridGet(g, x, y).n[i]);
// CHECK-NEXT: h_u = (g_u[+1,+0] + double(g_n_1[-1,+0]))
  PSGridEmitUtype(h.u, PSGridGet(g, x + 1, y).u + PSGridGet(g, x - 1, y).n[TWO - 1]);
}
// CHECK: kernel keep(x, y)
// CHECK-NEXT: g_u = h_u[+1,-1]
// CHECK-NEXT: g_n_0 = h_n_0[+1,-1]
// CHECK-NEXT: g_n_1 = h_n_1[+1,-1]
void keep(const int x, const int y, PSGrid2DCell g, PSGrid2DCell h) {
  PSGridEmitUtype(g, PSGridGetPeriodic(h, x + 1, y - 1));
}
int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DCell g = PSGrid2DCellNew(N, N), h = PSGrid2DCellNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  PSStencilRun(PSStencilMap(flip, d, g, h), PSStencilMap(keep, d, g, h), 2);
  PSFinalize();
  return 0;
}
