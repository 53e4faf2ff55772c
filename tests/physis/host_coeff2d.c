/* A whole Physis program (see host_heat3d.c): diffusion with a conductivity grid the host fills
 * and the kernels only read, on the interior sub-domain (the faces keep their values), the
 * smallest value and the product of (1 + u / 100) reduced, a row of u printed. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define N 20

void conduct(const int x, const int y, PSGrid2DFloat u, PSGrid2DFloat v, PSGrid2DFloat k,
             float dt) {
  float c = PSGridGet(u, x, y);
  float flux = PSGridGet(k, x, y) * (PSGridGet(u, x - 1, y) + PSGridGet(u, x + 1, y) +
                                     PSGridGet(u, x, y - 1) + PSGridGet(u, x, y + 1) - 4.0f * c);
  PSGridEmit(v, c + dt * flux);
}

void growth(const int x, const int y, PSGrid2DFloat u, PSGrid2DFloat g) {
  PSGridEmit(g, 1.0f + PSGridGet(u, x, y) / 100.0f);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DFloat u = PSGrid2DFloatNew(N, N), v = PSGrid2DFloatNew(N, N);
  PSGrid2DFloat k = PSGrid2DFloatNew(N, N), g = PSGrid2DFloatNew(N, N);
  PSDomain2D inner = PSDomain2DNew(1, N - 1, 1, N - 1);
  PSDomain2D all = PSDomain2DNew(0, N, 0, N);
  float *h = (float *)malloc(sizeof(float) * N * N);
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      h[x + N * y] = (x < N / 2) ? 0.2f : 0.05f;
  PSGridCopyin(k, h);
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      h[x + N * y] = (x == 0) ? 10.0f : (float)((x * y) % 5);
  PSGridCopyin(u, h);
  PSGridCopyin(v, h);
  float dt = 0.5f;
  PSStencilRun(PSStencilMap(conduct, inner, u, v, k, dt), PSStencilMap(conduct, inner, v, u, k, dt),
               PSStencilMap(growth, all, u, g), 15);
  float lowest;
  double product;
  PSReduce(&lowest, PS_MIN, u);
  PSReduce(&product, PS_PROD, g);
  PSGridCopyout(u, h);
  printf("min %a product %.9e\n", lowest, product);
  for (int x = 0; x < N; ++x)
    printf("%s%.6g", x ? " " : "", h[x + N * (N / 2)]);
  printf("\n");
  free(h);
  PSFinalize();
  return 0;
}
