/* A whole Physis program, host code included (see host_heat3d.c): red-black Gauss-Seidel for
 * -laplace(u) = f on a square, f copied in from a host array, the residual's largest value and
 * u's sum reduced, u copied out and printed in hexadecimal at a few points, and the host code
 * around the stencil (a loop that fills f, a helper that prints) kept as written. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define N 24

void relax(const int x, const int y, PSGrid2DDouble u, PSGrid2DDouble f, double h2) {
  double s = PSGridGet(u, x - 1, y) + PSGridGet(u, x + 1, y) + PSGridGet(u, x, y - 1) +
             PSGridGet(u, x, y + 1);
  PSGridEmit(u, 0.25 * (s + h2 * PSGridGet(f, x, y)));
}

static void show(const char *what, const double *u, int x, int y) {
  printf("%s[%d,%d] = %a\n", what, x, y, u[x + N * y]);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DDouble u = PSGrid2DDoubleNew(N, N);
  PSGrid2DDouble f = PSGrid2DDoubleNew(N, N);
  PSDomain2D all = PSDomain2DNew(0, N, 0, N);
  double *host = (double *)calloc(N * N, sizeof(double));
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      host[x + N * y] = (x > N / 4 && x < 3 * N / 4 && y > N / 4 && y < 3 * N / 4) ? 1.0 : 0.0;
  PSGridCopyin(f, host);
  const double h = 1.0 / (N + 1);
  double h2 = h * h;
  PSStencil s = PSStencilMapRedBlack(relax, all, u, f, h2);
  PSStencilRun(s, 30);
  double top;
  PSReduce(&top, PS_MAX, u);
  PSGridCopyout(u, host);
  printf("max %a\n", top);
  show("u", host, 0, 0);
  show("u", host, N / 2, N / 2);
  show("u", host, 3, 17);
  PSGridFree(u);
  PSGridFree(f);
  PSFinalize();
  free(host);
  return 0;
}
