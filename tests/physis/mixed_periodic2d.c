/* Periodic access chosen per read: advection along x on a torus (PSGridGetPeriodic) plus
 * diffusion along y against the grid's edges (PSGridGet at an offset reads 0 past them), on
 * one grid; a PS_MAX reduction after the run. */
#include "physis/physis.h"

#define NX 24
#define NY 15

void step(const int x, const int y, PSGrid2DFloat u, PSGrid2DFloat v, float c, float d) {
  float upwind = PSGridGetPeriodic(u, x - 1, y) - PSGridGet(u, x, y);
  float across = PSGridGet(u, x, y - 1) + PSGridGet(u, x, y + 1) - 2.0f * PSGridGet(u, x, y);
  PSGridEmit(v, PSGridGet(u, x, y) + c * upwind + d * across);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DFloat u = PSGrid2DFloatNew(NX, NY);
  PSGrid2DFloat v = PSGrid2DFloatNew(NX, NY);
  PSDomain2D d = PSDomain2DNew(0, NX, 0, NY);
  float c = 0.4f, k = 0.1f;
  PSStencilRun(PSStencilMap(step, d, u, v, c, k), PSStencilMap(step, d, v, u, c, k), 6);
  float top;
  PSReduce(&top, PS_MAX, u);
  PSFinalize();
  return 0;
}
