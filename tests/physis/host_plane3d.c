/* A whole Physis program reading fixed planes at absolute indices: the conductivity of the
 * bottom plane z = 0 everywhere above it, and the inflow column x = 0 of the state, on the
 * interior sub-domain (the faces keep their values); the largest value reduced, a row printed
 * bit for bit. On MPI ranks only y is split (x and z are read at absolute indices). */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define NX 12
#define NY 10
#define NZ 8
#define AT(x, y, z) ((x) + NX * ((y) + NY * (z)))

void conduct(const int x, const int y, const int z, PSGrid3DDouble u, PSGrid3DDouble v,
             PSGrid3DDouble k, double dt) {
  double c = PSGridGet(u, x, y, z);
  double lap = PSGridGet(u, x - 1, y, z) + PSGridGet(u, x + 1, y, z) + PSGridGet(u, x, y - 1, z) +
               PSGridGet(u, x, y + 1, z) + PSGridGet(u, x, y, z - 1) + PSGridGet(u, x, y, z + 1) -
               6.0 * c;
  PSGridEmit(v, c + dt * PSGridGet(k, x, y, 0) * lap + 0.001 * PSGridGet(u, 0, y, z));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DDouble u = PSGrid3DDoubleNew(NX, NY, NZ), v = PSGrid3DDoubleNew(NX, NY, NZ);
  PSGrid3DDouble k = PSGrid3DDoubleNew(NX, NY, NZ);
  PSDomain3D inner = PSDomain3DNew(1, NX - 1, 1, NY - 1, 1, NZ - 1);
  double *h = (double *)malloc(sizeof(double) * NX * NY * NZ);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x)
        h[AT(x, y, z)] = z == 0 ? 0.05 + 0.01 * ((x + 3 * y) % 7) : -1.0;
  PSGridCopyin(k, h);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x)
        h[AT(x, y, z)] = x == 0 ? 5.0 + y : (double)((x * y + z) % 4);
  PSGridCopyin(u, h);
  PSGridCopyin(v, h);
  PSStencilRun(PSStencilMap(conduct, inner, u, v, k, 0.5), PSStencilMap(conduct, inner, v, u, k, 0.5),
               6);
  double highest;
  PSReduce(&highest, PS_MAX, u);
  PSGridCopyout(u, h);
  printf("max %a\n", highest);
  for (int x = 0; x < NX; ++x)
    printf("%s%a", x ? " " : "", h[AT(x, NY / 2, NZ / 2)]);
  printf("\n");
  free(h);
  PSFinalize();
  return 0;
}
