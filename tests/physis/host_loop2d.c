/* A whole Physis program whose host code drives the stencil (see host_heat3d.c): PSStencilRun
 * inside a host loop, a reduction and a copy-out after every round to print the progress, a
 * condition that stops early, and a time series of one cell written to a file. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define NX 32
#define NY 16
#define ROUNDS 6

void diffuse(const int x, const int y, PSGrid2DDouble u, PSGrid2DDouble v, double c) {
  double lap = PSGridGetPeriodic(u, x - 1, y) + PSGridGetPeriodic(u, x + 1, y) +
               PSGridGetPeriodic(u, x, y - 1) + PSGridGetPeriodic(u, x, y + 1) -
               4.0 * PSGridGet(u, x, y);
  PSGridEmit(v, PSGridGet(u, x, y) + c * lap);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DDouble u = PSGrid2DDoubleNew(NX, NY);
  PSGrid2DDouble v = PSGrid2DDoubleNew(NX, NY);
  PSDomain2D d = PSDomain2DNew(0, NX, 0, NY);
  double *host = (double *)calloc(NX * NY, sizeof(double));
  host[NX / 2 + NX * (NY / 2)] = 100.0;
  host[3 + NX * 2] = 50.0;
  PSGridCopyin(u, host);
  double c = 0.2;
  PSStencil forth = PSStencilMap(diffuse, d, u, v, c);
  PSStencil back = PSStencilMap(diffuse, d, v, u, c);
  FILE *series = fopen("series.txt", "w");
  if (!series)
    return 1;
  for (int round = 0; round < ROUNDS; ++round) {
    PSStencilRun(forth, back, 5);
    double peak;
    PSReduce(&peak, PS_MAX, u);
    PSGridCopyout(u, host);
    printf("round %d: peak %a, centre %a\n", round, peak, host[NX / 2 + NX * (NY / 2)]);
    fprintf(series, "%d %.17g\n", round, host[3 + NX * 2]);
    if (peak < 1.0) {
      printf("flat after %d rounds\n", round + 1);
      break;
    }
  }
  fclose(series);
  PSFinalize();
  free(host);
  return 0;
}
