/* PSReduce of a grid copied in after the run: stencilc computes reductions at the end of each
 * iteration, so the value would be stale; the program must stop with one line, exit 1. */
#include <stdio.h>

#include "physis/physis.h"

#define N 8

void copy(const int x, PSGrid1DFloat a, PSGrid1DFloat b) { PSGridEmit(b, PSGridGet(a, x)); }

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DFloat a = PSGrid1DFloatNew(N), b = PSGrid1DFloatNew(N);
  PSDomain1D d = PSDomain1DNew(0, N);
  float buf[N] = {1, 2, 3, 4, 5, 6, 7, 8};
  PSGridCopyin(a, buf);
  PSStencilRun(PSStencilMap(copy, d, a, b), 1);
  PSGridCopyin(b, buf);
  float s;
  PSReduce(&s, PS_SUM, b);
  printf("%g\n", s);
  PSFinalize();
  return 0;
}
