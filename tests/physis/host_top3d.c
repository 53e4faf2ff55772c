/* A whole Physis program reading planes at absolute indices given by values of main: the
 * kernel's scalar parameter `top`, bound to nz - 1 where the map is made, selects the top plane
 * of the state and the plane below it of the coefficient (PSGridGet(u, x, y, top),
 * PSGridGet(k, x, y, top - 1)); the sizes are variables of main, so the indices follow them.
 * The largest value reduced, a column printed bit for bit. On MPI ranks z stays whole (read at absolute
 * indices). */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

void relax(const int x, const int y, const int z, PSGrid3DDouble u, PSGrid3DDouble v,
           PSGrid3DDouble k, int top) {
  double c = PSGridGet(u, x, y, z);
  double lap = PSGridGet(u, x - 1, y, z) + PSGridGet(u, x + 1, y, z) + PSGridGet(u, x, y - 1, z) +
               PSGridGet(u, x, y + 1, z) - 4.0 * c;
  PSGridEmit(v, c + 0.2 * PSGridGet(k, x, y, top - 1) * lap + 0.01 * PSGridGet(u, x, y, top));
}

int main(int argc, char **argv) {
  int nx = 10, ny = 9, nz = 7;
  PSInit(&argc, &argv, 3, nx, ny, nz);
  PSGrid3DDouble u = PSGrid3DDoubleNew(nx, ny, nz), v = PSGrid3DDoubleNew(nx, ny, nz);
  PSGrid3DDouble k = PSGrid3DDoubleNew(nx, ny, nz);
  PSDomain3D inner = PSDomain3DNew(1, nx - 1, 1, ny - 1, 0, nz);
  double *h = (double *)malloc(sizeof(double) * nx * ny * nz);
  for (int i = 0; i < nx * ny * nz; ++i)
    h[i] = 0.1 + 0.01 * (i % 13);
  PSGridCopyin(k, h);
  for (int i = 0; i < nx * ny * nz; ++i)
    h[i] = (double)((i * 7) % 5);
  PSGridCopyin(u, h);
  PSGridCopyin(v, h);
  PSStencilRun(PSStencilMap(relax, inner, u, v, k, nz - 1),
               PSStencilMap(relax, inner, v, u, k, nz - 1), 5);
  double highest;
  PSReduce(&highest, PS_MAX, u);
  PSGridCopyout(u, h);
  printf("max %a\n", highest);
  for (int z = 0; z < nz; ++z)
    printf("%s%a", z ? " " : "", h[nx / 2 + nx * (ny / 2 + ny * z)]);
  printf("\n");
  free(h);
  PSFinalize();
  return 0;
}
