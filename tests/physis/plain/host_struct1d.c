/* host_struct1d.c in plain C: records 1 to N-2 updated (reads outside the grid would be 0, the
 * sub-domain keeps them inside), g to h then h to g, then the long and double grids from g. */
#include <stdio.h>
#include <stdlib.h>

#define N 26
#define STEPS 10

struct Rec {
  int n;
  long big;
  double v;
};

static void evolve(const struct Rec *g, struct Rec *h, double a, long m) {
  for (int x = 1; x < N - 1; ++x) {
    h[x].n = (g[x - 1].n + g[x].n + g[x + 1].n) % 7;
    h[x].big = 2 * g[x].big + g[x - 1].big % 1000 + g[x + 1].n * m;
    double v = g[x].v;
    h[x].v = (1.0 - 2.0 * a) * v + a * (g[x - 1].v + g[x + 1].v);
  }
}

int main(void) {
  struct Rec g[N], h[N];
  long f[N];
  double d[N];
  for (int i = 0; i < N; ++i) {
    g[i].n = (i * 5) % 7;
    g[i].big = 1000000007L * (i % 5) + i;
    g[i].v = (double)((i * 11) % 13) / 4.0;
    h[i] = g[i];
  }
  h[0].n = 6;
  h[N - 1].big = 77;
  double a = 0.3;
  const long m = 3;
  for (int it = 0; it < STEPS; ++it) {
    evolve(g, h, a, m);
    evolve(h, g, a, m);
    for (int x = 0; x < N; ++x) {
      f[x] = 1 + g[x].n % 4;
      d[x] = g[x].v * (double)(g[x].big % 10);
    }
  }
  long lo = f[0], hi = f[0], prod = 1;
  double dlo = d[0], dhi = d[0];
  for (int x = 0; x < N; ++x) {
    lo = f[x] < lo ? f[x] : lo;
    hi = f[x] > hi ? f[x] : hi;
    prod *= f[x];
    dlo = d[x] < dlo ? d[x] : dlo;
    dhi = d[x] > dhi ? d[x] : dhi;
  }
  printf("f min %ld max %ld prod %ld; d min %a max %a\n", lo, hi, prod, dlo, dhi);
  for (int i = 0; i < N; ++i)
    printf("%2d: %d %ld %a\n", i, g[i].n, g[i].big, g[i].v);
  printf("h ends: %d %ld %a | %d %ld %a\n", h[0].n, h[0].big, h[0].v, h[N - 1].n, h[N - 1].big,
         h[N - 1].v);
  return 0;
}
