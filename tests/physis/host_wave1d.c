/* A whole Physis program (see host_heat3d.c): the 1D wave equation by leapfrog on a ring, three
 * grids rotating through three maps of one kernel (each map binds the grids differently), an int
 * and a double scalar, the energy summed after the run and the displacement written to a file. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define N 64

void leap(const int i, PSGrid1DDouble prev, PSGrid1DDouble cur, PSGrid1DDouble next, double c2,
          int damp) {
  double lap = PSGridGetPeriodic(cur, i - 1) - 2.0 * PSGridGet(cur, i) + PSGridGetPeriodic(cur, i + 1);
  double v = 2.0 * PSGridGet(cur, i) - PSGridGet(prev, i) + c2 * lap;
  PSGridEmit(next, damp ? 0.999 * v : v);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DDouble a = PSGrid1DDoubleNew(N), b = PSGrid1DDoubleNew(N), c = PSGrid1DDoubleNew(N);
  PSDomain1D d = PSDomain1DNew(0, N);
  double x0[N];
  for (int i = 0; i < N; ++i)
    x0[i] = (i > N / 4 && i < N / 2) ? (double)(i - N / 4) * (N / 2 - i) / 64.0 : 0.0;
  PSGridCopyin(a, x0);
  PSGridCopyin(b, x0);
  double c2 = 0.25;
  int damp = 1;
  PSStencilRun(PSStencilMap(leap, d, a, b, c, c2, damp), PSStencilMap(leap, d, b, c, a, c2, damp),
               PSStencilMap(leap, d, c, a, b, c2, damp), 20);
  double sum;
  PSReduce(&sum, PS_SUM, b);
  PSGridCopyout(b, x0);
  FILE *f = fopen("wave.txt", "w");
  if (!f)
    return 1;
  for (int i = 0; i < N; ++i)
    fprintf(f, "%d %a\n", i, x0[i]);
  fclose(f);
  printf("sum %.10e\n", sum);
  PSFinalize();
  return 0;
}
