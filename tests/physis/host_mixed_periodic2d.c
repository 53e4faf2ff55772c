/* A whole Physis program, host code included (see host_heat3d.c), reading one grid both ways:
 * advection along x on a torus (PSGridGetPeriodic) and diffusion along y against the grid's
 * edges (PSGridGet at an offset, 0 outside the grid as stencilc defines it), a hot stripe set
 * by the host, the grid printed in hexadecimal after 9 double steps. */
#include <stdio.h>

#include "physis/physis.h"

#define NX 11
#define NY 6

void step(const int x, const int y, PSGrid2DFloat u, PSGrid2DFloat v) {
  float upwind = PSGridGetPeriodic(u, x - 1, y) - PSGridGet(u, x, y);
  float across = PSGridGet(u, x, y - 1) + PSGridGet(u, x, y + 1) - 2.0f * PSGridGet(u, x, y);
  PSGridEmit(v, PSGridGet(u, x, y) + 0.4f * upwind + 0.1f * across);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DFloat u = PSGrid2DFloatNew(NX, NY);
  PSGrid2DFloat v = PSGrid2DFloatNew(NX, NY);
  PSDomain2D d = PSDomain2DNew(0, NX, 0, NY);
  float field[NX * NY];
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      field[x + NX * y] = (x >= NX - 3) ? 1.0f + 0.25f * y : 0.0f;
  PSGridCopyin(u, field);
  PSStencilRun(PSStencilMap(step, d, u, v), PSStencilMap(step, d, v, u), 9);
  PSGridCopyout(u, field);
  for (int y = 0; y < NY; ++y) {
    for (int x = 0; x < NX; ++x)
      printf(" %a", field[x + NX * y]);
    putchar('\n');
  }
  PSFinalize();
  return 0;
}
