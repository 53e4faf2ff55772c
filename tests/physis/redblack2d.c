/* Red-black Gauss-Seidel on a 2D Poisson problem (double): PSStencilMapRedBlack updates the
 * grid in place, red points first, then black; PSReduce sums the result after the run. */
#include "physis/physis.h"

#define N 30

void relax(const int x, const int y, PSGrid2DDouble u, PSGrid2DDouble f, double h2) {
  double nb = PSGridGet(u, x - 1, y) + PSGridGet(u, x + 1, y) + PSGridGet(u, x, y - 1) +
              PSGridGet(u, x, y + 1);
  PSGridEmit(u, 0.25 * (nb - h2 * PSGridGet(f, x, y)));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DDouble u = PSGrid2DDoubleNew(N, N);
  PSGrid2DDouble f = PSGrid2DDoubleNew(N, N);
  PSDomain2D all = PSDomain2DNew(0, N, 0, N);
  const double h = 1.0 / (N + 1);
  double h2 = h * h;
  PSStencil s = PSStencilMapRedBlack(relax, all, u, f, h2);
  PSStencilRun(s, 20);
  double total;
  PSReduce(&total, PS_SUM, u);
  PSFinalize();
  return 0;
}
