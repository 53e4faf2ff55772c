// RUN: %stencilc import %s | FileCheck %s
// RUN: %stencilc import %s -o %t.stn && %stencilc check %t.stn
// `stencilc import` writes the translated program as .stn: C's locals as lets, if/else as ?:,
// literals with their C type, host values as params; names that are .stn keywords (a host
// variable `swap`, a local `run`) get a trailing underscore. The text is checked to mean
// the same program before it is written.
#include "physis/physis.h"
#define N 16

void diffuse(const int x, const int y, PSGrid2DFloat in, PSGrid2DFloat out, float swap) {
  float m = PSGridGet(in, x, y);
  float run = x == 0 ? m : PSGridGet(in, x - 1, y);
  PSGridEmit(out, m + swap * (run - m) - -0.5f * (PSGridGet(in, x, y + 1) - m) / N);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  PSDomain2D inner = PSDomain2DNew(1, N - 1, 1, N - 1);
  float swap = 0.25f / N;
  PSStencilRun(PSStencilMap(diffuse, d, a, b, swap), PSStencilMap(diffuse, inner, b, a, swap), 7);
  float most;
  PSReduce(&most, PS_MAX, a);
  PSFinalize();
  return 0;
}
// CHECK:      {{^}}// Imported from import.c by `stencilc import`.{{$}}
// CHECK-NEXT: {{^}}// Renamed (keywords of .stn): run -> run_c, swap -> swap_c.{{$}}
// CHECK-NEXT: {{^}}stencil import;{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}param int N = 16;{{$}}
// CHECK-NEXT: {{^}}param float swap_c = float(0.25) / float(N);{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}grid float a[N, N];{{$}}
// CHECK-NEXT: {{^}}grid float b[N, N];{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}kernel diffuse(x, y) {{{$}}
// CHECK-NEXT: {{^}}  let m = a[x, y];{{$}}
// CHECK-NEXT: {{^}}  let run_c = x == 0 ? m : a[x - 1, y];{{$}}
// CHECK-NEXT: {{^}}  b[x, y] = m + swap_c * (run_c - m) - -float(0.5) * (a[x, y + 1] - m) / float(N);{{$}}
// CHECK-NEXT: {{^}}}{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}kernel diffuse_2(x, y) on [1:N - 1, 1:N - 1] {{{$}}
// CHECK:      {{^}}reduce most(x, y) = max(a[x, y]);{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}run 7 { diffuse; diffuse_2; most; }{{$}}
