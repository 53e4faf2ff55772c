/* A whole Physis program on a 1D float grid: a weighted three-point smoothing of the interior
 * (the end cells keep their values), the weight a float scalar of the map; the smallest and
 * the largest value reduced into floats, the grid printed bit for bit. */
#include <stdio.h>

#include "physis/physis.h"

#define N 40

void smooth(const int x, PSGrid1DFloat a, PSGrid1DFloat b, float w) {
  PSGridEmit(b, (1.0f - 2.0f * w) * PSGridGet(a, x) + w * (PSGridGet(a, x - 1) + PSGridGet(a, x + 1)));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DFloat a = PSGrid1DFloatNew(N), b = PSGrid1DFloatNew(N);
  PSDomain1D inner = PSDomain1DNew(1, N - 1);
  float h[N];
  for (int i = 0; i < N; ++i)
    h[i] = 0.25f * (float)((i * 13) % 11);
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  PSStencilRun(PSStencilMap(smooth, inner, a, b, 0.3f), PSStencilMap(smooth, inner, b, a, 0.3f),
               10);
  float lo, hi;
  PSReduce(&lo, PS_MIN, a);
  PSReduce(&hi, PS_MAX, a);
  PSGridCopyout(a, h);
  printf("min %a max %a\n", lo, hi);
  for (int i = 0; i < N; ++i)
    printf("%s%a", i ? " " : "", h[i]);
  printf("\n");
  PSFinalize();
  return 0;
}
