/* host_rerun2d.c in plain C: the same sweeps (1 + 6 double iterations), the same output. */
#include <stdio.h>
#include <string.h>

#define NX 24
#define NY 18

static double at(const double *g, int x, int y) {
  return x < 0 || x >= NX || y < 0 || y >= NY ? 0.0 : g[x + NX * y];
}

static void relax(const double *a, double *b, double w) {
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x) {
      double c = at(a, x, y);
      b[x + NX * y] = c + w * (at(a, x - 1, y) + at(a, x + 1, y) + at(a, x, y - 1) +
                               at(a, x, y + 1) - 4.0 * c);
    }
}

static void show(const char *what, const double *h) {
  double s = 0;
  for (int i = 0; i < NX * NY; ++i)
    s += h[i] * (double)(1 + i % 7);
  printf("%s %a %a %a\n", what, s, h[NX + 1], h[NX * (NY / 2) + NX / 2]);
}

static double max_of(const double *g) {
  double m = g[0];
  for (int i = 1; i < NX * NY; ++i)
    m = g[i] > m ? g[i] : m;
  return m;
}

int main(void) {
  static double a[NX * NY], b[NX * NY];
  for (int i = 0; i < NX * NY; ++i)
    a[i] = (double)((i * 37) % 19) / 19.0;
  memcpy(b, a, sizeof a);
  for (int it = 0; it < 1; ++it) {
    relax(a, b, 0.2);
    relax(b, a, 0.2);
  }
  show("warm-up", a);
  printf("max %a\n", max_of(a));
  for (int it = 0; it < 6; ++it) {
    relax(a, b, 0.2);
    relax(b, a, 0.2);
  }
  show("run", a);
  printf("max %a\n", max_of(a));
  return 0;
}
