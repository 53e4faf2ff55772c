/* Advection on a ring (1D, periodic reads), upwind with a fixed Courant number; the maximum is
 * reduced after the run. Integer arithmetic in the kernel picks the upwind side. */
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
  double courant = 0.4;
  int dir = 1;
  PSStencilRun(PSStencilMap(advect, d, a, b, courant, dir),
               PSStencilMap(advect, d, b, a, courant, dir), 16);
  double peak;
  PSReduce(&peak, PS_MAX, a);
  PSFinalize();
  return 0;
}
