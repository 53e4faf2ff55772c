/* host_wave1d.c in plain C: three arrays rotating, periodic neighbours for the Laplacian. */
#include <stdio.h>
#include <string.h>

#define N 64

static void leap(const double *prev, const double *cur, double *next, double c2, int damp) {
  for (int i = 0; i < N; ++i) {
    double lap = cur[(i - 1 + N) % N] - 2.0 * cur[i] + cur[(i + 1) % N];
    double v = 2.0 * cur[i] - prev[i] + c2 * lap;
    next[i] = damp ? 0.999 * v : v;
  }
}

int main(void) {
  double a[N], b[N], c[N] = {0};
  for (int i = 0; i < N; ++i)
    a[i] = b[i] = (i > N / 4 && i < N / 2) ? (double)(i - N / 4) * (N / 2 - i) / 64.0 : 0.0;
  double c2 = 0.25;
  int damp = 1;
  for (int it = 0; it < 20; ++it) {
    leap(a, b, c, c2, damp);
    leap(b, c, a, c2, damp);
    leap(c, a, b, c2, damp);
  }
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += b[i];
  FILE *f = fopen("wave.txt", "w");
  if (!f)
    return 1;
  for (int i = 0; i < N; ++i)
    fprintf(f, "%d %a\n", i, b[i]);
  fclose(f);
  printf("sum %.10e\n", sum);
  return 0;
}
