/* A whole Physis program on a 1D struct grid (DeclareGrid1D): struct Rec holds an int counter
 * kept modulo 7, a long that doubles past 32 bits and a double smoothed by a weight given as a
 * scalar of the map; two struct grids alternate on the sub-domain [1, N-1) (the end records keep
 * their values), a second kernel writes a PSGrid1DLong and a PSGrid1DDouble from the struct,
 * whose smallest and largest values and product are reduced; the records printed exactly. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define N 26
#define STEPS 10

struct Rec {
  int n;
  long big;
  double v;
};

DeclareGrid1D(Rec, struct Rec);

void evolve(const int x, PSGrid1DRec g, PSGrid1DRec h, double a, long m) {
  PSGridEmitUtype(h.n, (PSGridGet(g, x - 1).n + PSGridGet(g, x).n + PSGridGet(g, x + 1).n) % 7);
  PSGridEmitUtype(h.big, 2 * PSGridGet(g, x).big + PSGridGet(g, x - 1).big % 1000 +
                             PSGridGet(g, x + 1).n * m);
  double v = PSGridGet(g, x).v;
  PSGridEmitUtype(h.v, (1.0 - 2.0 * a) * v + a * (PSGridGet(g, x - 1).v + PSGridGet(g, x + 1).v));
}

void tally(const int x, PSGrid1DRec g, PSGrid1DLong f, PSGrid1DDouble d) {
  PSGridEmit(f, 1 + PSGridGet(g, x).n % 4);
  PSGridEmit(d, PSGridGet(g, x).v * (double)(PSGridGet(g, x).big % 10));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DRec g = PSGrid1DRecNew(N), h = PSGrid1DRecNew(N);
  PSGrid1DLong f = PSGrid1DLongNew(N);
  PSGrid1DDouble d = PSGrid1DDoubleNew(N);
  PSDomain1D inner = PSDomain1DNew(1, N - 1);
  PSDomain1D all = PSDomain1DNew(0, N);
  struct Rec r[N];
  for (int i = 0; i < N; ++i) {
    r[i].n = (i * 5) % 7;
    r[i].big = 1000000007L * (i % 5) + i;
    r[i].v = (double)((i * 11) % 13) / 4.0;
  }
  PSGridCopyin(g, r);
  r[0].n = 6;
  r[N - 1].big = 77;
  PSGridCopyin(h, r);
  double a = 0.3;
  const long m = 3;
  PSStencil even = PSStencilMap(evolve, inner, g, h, a, m);
  PSStencil odd = PSStencilMap(evolve, inner, h, g, a, m);
  PSStencil t = PSStencilMap(tally, all, g, f, d);
  PSStencilRun(even, odd, t, STEPS);
  long lo, hi, prod;
  double dlo, dhi;
  PSReduce(&lo, PS_MIN, f);
  PSReduce(&hi, PS_MAX, f);
  PSReduce(&prod, PS_PROD, f);
  PSReduce(&dlo, PS_MIN, d);
  PSReduce(&dhi, PS_MAX, d);
  printf("f min %ld max %ld prod %ld; d min %a max %a\n", lo, hi, prod, dlo, dhi);
  PSGridCopyout(g, r);
  for (int i = 0; i < N; ++i)
    printf("%2d: %d %ld %a\n", i, r[i].n, r[i].big, r[i].v);
  PSGridCopyout(h, r);
  printf("h ends: %d %ld %a | %d %ld %a\n", r[0].n, r[0].big, r[0].v, r[N - 1].n, r[N - 1].big,
         r[N - 1].v);
  PSGridFree(g);
  PSGridFree(h);
  PSGridFree(f);
  PSGridFree(d);
  PSFinalize();
  return 0;
}
