/* A Physis program that calls PSStencilRun twice with the same stencils, as benchmarks do (one
 * warm-up iteration, then the timed run): both calls run the one run block, each with its own
 * count; the grid is copied out and reduced between them. */
#include <stdio.h>

#include "physis/physis.h"

#define NX 24
#define NY 18

void relax(const int x, const int y, PSGrid2DDouble a, PSGrid2DDouble b, double w) {
  double c = PSGridGet(a, x, y);
  PSGridEmit(b, c + w * (PSGridGet(a, x - 1, y) + PSGridGet(a, x + 1, y) +
                         PSGridGet(a, x, y - 1) + PSGridGet(a, x, y + 1) - 4.0 * c));
}

static void show(const char *what, const double *h) {
  double s = 0;
  for (int i = 0; i < NX * NY; ++i)
    s += h[i] * (double)(1 + i % 7);
  printf("%s %a %a %a\n", what, s, h[NX + 1], h[NX * (NY / 2) + NX / 2]);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DDouble a = PSGrid2DDoubleNew(NX, NY), b = PSGrid2DDoubleNew(NX, NY);
  PSDomain2D d = PSDomain2DNew(0, NX, 0, NY);
  static double h[NX * NY];
  for (int i = 0; i < NX * NY; ++i)
    h[i] = (double)((i * 37) % 19) / 19.0;
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  PSStencil s1 = PSStencilMap(relax, d, a, b, 0.2);
  PSStencil s2 = PSStencilMap(relax, d, b, a, 0.2);
  PSStencilRun(s1, s2, 1);
  PSGridCopyout(a, h);
  show("warm-up", h);
  double top;
  PSReduce(&top, PS_MAX, a);
  printf("max %a\n", top);
  PSStencilRun(s1, s2, 6);
  PSGridCopyout(a, h);
  show("run", h);
  PSReduce(&top, PS_MAX, a);
  printf("max %a\n", top);
  PSFinalize();
  return 0;
}
