/* A Jacobi sweep over the inner points of a 3D grid only (a domain smaller than the grid: the
 * faces keep their values), with a variable coefficient grid that no map writes, in double. */
#include <math.h>

#include "physis/physis.h"

#define N 18

void smooth(const int i, const int j, const int k, PSGrid3DDouble in, PSGrid3DDouble out,
            PSGrid3DDouble coef) {
  double s = PSGridGet(in, i - 1, j, k) + PSGridGet(in, i + 1, j, k) + PSGridGet(in, i, j - 1, k) +
             PSGridGet(in, i, j + 1, k) + PSGridGet(in, i, j, k - 1) + PSGridGet(in, i, j, k + 1);
  double a = fabs(PSGridGet(coef, i, j, k));
  PSGridEmit(out, (1.0 - a) * PSGridGet(in, i, j, k) + a * s / 6.0);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 3, N, N, N);
  PSGrid3DDouble u = PSGrid3DDoubleNew(N, N, N), v = PSGrid3DDoubleNew(N, N, N);
  PSGrid3DDouble c = PSGrid3DDoubleNew(N, N, N);
  PSDomain3D inner = PSDomain3DNew(1, N - 1, 1, N - 1, 1, N - 1);
  PSStencilRun(PSStencilMap(smooth, inner, u, v, c), PSStencilMap(smooth, inner, v, u, c), 6);
  double lo;
  PSReduce(&lo, PS_MIN, u);
  PSFinalize();
  return 0;
}
