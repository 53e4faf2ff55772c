/* host_loops1d.c in plain C: the same loops, the same order of additions; reads outside the
 * grid 0. */
#include <stdio.h>

#define N 100
#define R 3

static double at(const double *g, int i) { return i < 0 || i >= N ? 0.0 : g[i]; }

static void smooth(const double *in, double *out) {
  for (int i = 0; i < N; ++i) {
    double acc = 0.0, wsum = 0.0;
    for (int k = -R; k <= R; ++k) {
      double w = k == 0 ? 2.0 : 1.0 / (k * k);
      acc += w * at(in, i + k);
      wsum += w;
    }
    int j;
    double tail = 0.0;
    for (j = 4; j > 0; j -= 2)
      for (int m = 0; m < 2; m++)
        tail += 0.001 * at(in, i + m - j / 2);
    out[i] = acc / wsum + tail + 0.0001 * j;
  }
}

static void show(const char *name, const double *g) {
  for (int i = 0; i < N; i += 5)
    printf("%s[%d..%d] %a %a %a %a %a\n", name, i, i + 4, g[i], g[i + 1], g[i + 2], g[i + 3],
           g[i + 4]);
}

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = b[i] = (double)(i % 13) * 0.75 - (i % 2 ? 1.5 : 0.0);
  for (int it = 0; it < 4; ++it) {
    smooth(a, b);
    smooth(b, a);
  }
  double top = a[0];
  for (int i = 0; i < N; ++i)
    top = a[i] > top ? a[i] : top;
  printf("max %a\n", top);
  show("a", a);
  show("b", b);
  return 0;
}
