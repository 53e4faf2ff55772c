/* A whole Physis program (see host_heat3d.c): advection on a ring (1D, periodic reads), upwind
 * with a fixed Courant number; integer arithmetic in the kernel picks the upwind side (an int
 * scalar of the map). The host copies in a bump that crosses the end of the ring (so the
 * periodic reads carry it around); the maximum is reduced after the run and the grid printed in
 * hexadecimal. */
#include <stdio.h>

#include "physis/physis.h"

#define N 64

void advect(const int i, PSGrid1DDouble a, PSGrid1DDouble b, double courant, int dir) {
  double here = PSGridGetPeriodic(a, i);
  double left = PSGridGetPeriodic(a, i - 1), right = PSGridGetPeriodic(a, i + 1);
  double up = dir > 0 ? left : right;
  PSGridEmit(b, here - courant * (here - up));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DDouble a = PSGrid1DDoubleNew(N), b = PSGrid1DDoubleNew(N);
  PSDomain1D d = PSDomain1DNew(0, N);
  double h[N];
  for (int i = 0; i < N; ++i) {
    int k = (i + 6) % N;
    h[i] = k < 12 ? (double)(k * (12 - k)) / 36.0 : 0.01 * (double)(i % 5);
  }
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  double courant = 0.4;
  int dir = 1;
  PSStencilRun(PSStencilMap(advect, d, a, b, courant, dir),
               PSStencilMap(advect, d, b, a, courant, dir), 16);
  double peak;
  PSReduce(&peak, PS_MAX, a);
  PSGridCopyout(a, h);
  printf("peak %a\n", peak);
  for (int i = 0; i < N; i += 4)
    printf("a[%d..%d] %a %a %a %a\n", i, i + 3, h[i], h[i + 1], h[i + 2], h[i + 3]);
  PSFinalize();
  return 0;
}
