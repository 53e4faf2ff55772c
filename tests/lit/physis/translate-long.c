// RUN: %stencilc check %s --print-ir | FileCheck %s
// PSGrid*Long grids are 64-bit integer grids (`grid long`); a long local is a 64-bit int.
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DLong a, PSGrid2DLong b) {
  long s = PSGridGet(a, x - 1, y) + 3000000000L * PSGridGet(a, x, y);
  PSGridEmit(b, s % 4294967311L);
}
int main(int argc, char **argv) {
// CHECK: grid long a[N, N]
// CHECK: grid long b[N, N]
// CHECK: let local0 int (s) = (a[-1,+0] + (3000000000 * a[+0,+0]))
// CHECK-NEXT: b = (local0 % 4294967311)
  PSGrid2DLong a = PSGrid2DLongNew(N, N), b = PSGrid2DLongNew(N, N);
  PSDomain2D d = PSDomain2DNew(1, N, 0, N);
  PSStencilRun(PSStencilMap(k, d, a, b), 3);
  long m;
// CHECK: reduce m = max(b[+0,+0])
  PSReduce(&m, PS_MAX, b);
  return 0;
}
