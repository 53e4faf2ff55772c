/* A whole Physis program reading grids of lower rank in a 3D kernel: a conductivity profile
 * along z (a 1D grid, read at z - 1, z and z + 1 inside the interior sub-domain) and a source
 * on the x-y surface (a 2D grid), both filled by the host; the sum of u reduced and a row of u
 * printed bit for bit. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define NX 12
#define NY 10
#define NZ 8
#define AT(x, y, z) ((x) + NX * ((y) + NY * (z)))

void conduct(const int x, const int y, const int z, PSGrid3DDouble u, PSGrid3DDouble v,
             PSGrid1DDouble kz, PSGrid2DDouble src) {
  double c = PSGridGet(u, x, y, z);
  double lap = PSGridGet(u, x - 1, y, z) + PSGridGet(u, x + 1, y, z) + PSGridGet(u, x, y - 1, z) +
               PSGridGet(u, x, y + 1, z) - 4.0 * c;
  double vert = PSGridGet(kz, z - 1) * (PSGridGet(u, x, y, z - 1) - c) +
                PSGridGet(kz, z + 1) * (PSGridGet(u, x, y, z + 1) - c);
  PSGridEmit(v, c + PSGridGet(kz, z) * lap + 0.5 * vert + 0.01 * PSGridGet(src, x, y));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DDouble u = PSGrid3DDoubleNew(NX, NY, NZ), v = PSGrid3DDoubleNew(NX, NY, NZ);
  PSGrid1DDouble kz = PSGrid1DDoubleNew(NZ);
  PSGrid2DDouble src = PSGrid2DDoubleNew(NX, NY);
  PSDomain3D inner = PSDomain3DNew(1, NX - 1, 1, NY - 1, 1, NZ - 1);
  double *h = (double *)malloc(sizeof(double) * NX * NY * NZ);
  double prof[NZ], s[NX * NY];
  for (int z = 0; z < NZ; ++z)
    prof[z] = 0.05 + 0.02 * (z % 3);
  PSGridCopyin(kz, prof);
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      s[x + NX * y] = (x + y) % 2 ? 1.0 : -0.5;
  PSGridCopyin(src, s);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x)
        h[AT(x, y, z)] = (double)((x * y + 2 * z) % 5);
  PSGridCopyin(u, h);
  PSGridCopyin(v, h);
  PSStencilRun(PSStencilMap(conduct, inner, u, v, kz, src),
               PSStencilMap(conduct, inner, v, u, kz, src), 5);
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
