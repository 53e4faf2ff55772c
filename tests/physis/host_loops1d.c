/* A whole Physis program (see host_heat3d.c): a radius-3 smoothing in 1D written with loops, as
 * C programmers write wide stencils: for loops with constant bounds (unrolled by stencilc), a
 * mutable accumulator, a weight computed from the loop variable, and a nested loop counting
 * down by 2 (its variable, 0 after the loop, used after it). The host fills both double grids
 * with a saw-tooth (the reads past the ends read 0); after the run the largest value is reduced
 * and both grids are printed in hexadecimal. */
#include <stdio.h>

#include "physis/physis.h"

#define N 100
#define R 3

void smooth(const int i, PSGrid1DDouble in, PSGrid1DDouble out) {
  double acc = 0.0, wsum = 0.0;
  for (int k = -R; k <= R; ++k) {
    double w = k == 0 ? 2.0 : 1.0 / (k * k);
    acc += w * PSGridGet(in, i + k);
    wsum += w;
  }
  int j;
  double tail = 0.0;
  for (j = 4; j > 0; j -= 2)
    for (int m = 0; m < 2; m++)
      tail += 0.001 * PSGridGet(in, i + m - j / 2);
  PSGridEmit(out, acc / wsum + tail + 0.0001 * j);
}

static void show(const char *name, const double *g) {
  for (int i = 0; i < N; i += 5)
    printf("%s[%d..%d] %a %a %a %a %a\n", name, i, i + 4, g[i], g[i + 1], g[i + 2], g[i + 3],
           g[i + 4]);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DDouble a = PSGrid1DDoubleNew(N), b = PSGrid1DDoubleNew(N);
  PSDomain1D d = PSDomain1DNew(0, N);
  double h[N];
  for (int i = 0; i < N; ++i)
    h[i] = (double)(i % 13) * 0.75 - (i % 2 ? 1.5 : 0.0);
  PSGridCopyin(a, h);
  PSGridCopyin(b, h);
  PSStencilRun(PSStencilMap(smooth, d, a, b), PSStencilMap(smooth, d, b, a), 4);
  double top;
  PSReduce(&top, PS_MAX, a);
  printf("max %a\n", top);
  PSGridCopyout(a, h);
  show("a", h);
  PSGridCopyout(b, h);
  show("b", h);
  PSFinalize();
  return 0;
}
