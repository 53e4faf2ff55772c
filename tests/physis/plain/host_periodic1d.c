/* host_periodic1d.c in plain C: upwind advection on a ring, the neighbours' indices wrapped. */
#include <stdio.h>

#define N 64

static void advect(const double *a, double *b, double courant, int dir) {
  for (int i = 0; i < N; ++i) {
    double here = a[i];
    double left = a[(i - 1 + N) % N], right = a[(i + 1) % N];
    double up = dir > 0 ? left : right;
    b[i] = here - courant * (here - up);
  }
}

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; ++i) {
    int k = (i + 6) % N;
    a[i] = b[i] = k < 12 ? (double)(k * (12 - k)) / 36.0 : 0.01 * (double)(i % 5);
  }
  double courant = 0.4;
  int dir = 1;
  for (int it = 0; it < 16; ++it) {
    advect(a, b, courant, dir);
    advect(b, a, courant, dir);
  }
  double peak = a[0];
  for (int i = 0; i < N; ++i)
    peak = a[i] > peak ? a[i] : peak;
  printf("peak %a\n", peak);
  for (int i = 0; i < N; i += 4)
    printf("a[%d..%d] %a %a %a %a\n", i, i + 3, a[i], a[i + 1], a[i + 2], a[i + 3]);
  return 0;
}
