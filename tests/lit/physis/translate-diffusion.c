// RUN: %stencilc check %s --print-ir | FileCheck %s
// A Physis kernel with its faces handled by if/else becomes a stencilc kernel whose locals are
// lets and whose if/else assignments are ?: selections; each map is one kernel, its grid
// parameters bound to the map's grids; host variables and macros are params whose defaults
// are their C initializers, with C's types (float literals, int to float conversions).
#include "physis/physis.h"
#define N 16
#define REAL float

void diffuse(const int x, const int y, PSGrid2DFloat in, PSGrid2DFloat out, REAL c) {
  REAL m = PSGridGet(in, x, y);
  REAL w;
  if (x == 0)
    w = m;
  else
    w = PSGridGet(in, x - 1, y);
  PSGridEmit(out, m + c * (w - m) + 0.5f * (PSGridGet(in, x, y + 1) - m) / N);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  REAL h = 1.0f / N;
  REAL c = 0.25f * h;
  PSStencilRun(PSStencilMap(diffuse, d, a, b, c), PSStencilMap(diffuse, d, b, a, c), 7);
  PSFinalize();
  return 0;
}
// CHECK:      {{^}}stencil translate_diffusion{{$}}
// CHECK-NEXT: {{^}}param int N = 16{{$}}
// CHECK-NEXT: {{^}}param float h = (1.0:float / float(N)){{$}}
// CHECK-NEXT: {{^}}param float c = (0.25:float * h){{$}}
// CHECK-NEXT: {{^}}grid float a[N, N] halo [1,1]
// CHECK-NEXT: {{^}}grid float b[N, N] halo [1,1]
// CHECK-NEXT: {{^}}kernel diffuse(x, y){{$}}
// CHECK-NEXT: {{^}}  let local0 float (m) = a[+0,+0]{{$}}
// CHECK-NEXT: {{^}}  let local1 float (w) = ((i0 == 0) ? local0 : a[-1,+0]){{$}}
// CHECK-NEXT: {{^}}  b = ((local0 + (c * (local1 - local0))) + ((0.5:float * (a[+0,+1] - local0)) / float(N))){{$}}
// CHECK-NEXT: {{^}}kernel diffuse_2(x, y){{$}}
// CHECK-NEXT: {{^}}  let local0 float (m) = b[+0,+0]{{$}}
// CHECK-NEXT: {{^}}  let local1 float (w) = ((i0 == 0) ? local0 : b[-1,+0]){{$}}
// CHECK-NEXT: {{^}}  a = ((local0 + (c * (local1 - local0))) + ((0.5:float * (b[+0,+1] - local0)) / float(N))){{$}}
// CHECK-NEXT: {{^}}run 7{{$}}
// CHECK-NEXT: {{^}}  diffuse{{$}}
// CHECK-NEXT: {{^}}  diffuse_2{{$}}
