/* host_subdomain3d.c in plain C: the inner points [1, N - 1)^3 swept, the faces kept. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 18
#define AT(g, i, j, k) (g)[(i) + N * ((j) + N * (k))]

static void smooth(const double *in, double *out, const double *coef) {
  for (int k = 1; k < N - 1; ++k)
    for (int j = 1; j < N - 1; ++j)
      for (int i = 1; i < N - 1; ++i) {
        double s = AT(in, i - 1, j, k) + AT(in, i + 1, j, k) + AT(in, i, j - 1, k) +
                   AT(in, i, j + 1, k) + AT(in, i, j, k - 1) + AT(in, i, j, k + 1);
        double a = fabs(AT(coef, i, j, k));
        AT(out, i, j, k) = (1.0 - a) * AT(in, i, j, k) + a * s / 6.0;
      }
}

int main(void) {
  double *u = (double *)malloc(sizeof(double) * N * N * N);
  double *v = (double *)malloc(sizeof(double) * N * N * N);
  double *c = (double *)malloc(sizeof(double) * N * N * N);
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) {
        AT(u, i, j, k) = 0.1 * (double)((i * 3 + j * 5 + k * 7) % 11) - 0.3;
        AT(v, i, j, k) = 0.1 * (double)((i * 3 + j * 5 + k * 7) % 11) - 0.3 +
                         (i == 0 || j == 0 || k == 0 ? 2.0 : 0.0);
        AT(c, i, j, k) = 0.125 * (double)((i + 2 * j + 3 * k) % 9 - 4);
      }
  for (int it = 0; it < 6; ++it) {
    smooth(u, v, c);
    smooth(v, u, c);
  }
  double lo = u[0];
  for (int i = 0; i < N * N * N; ++i)
    lo = u[i] < lo ? u[i] : lo;
  printf("min %a\n", lo);
  double check = 0.0;
  for (int i = 0; i < N * N * N; ++i)
    check += u[i] * (double)(1 + i % 7);
  printf("checksum %a\n", check);
  const int at[6][3] = {{0, 0, 0}, {1, 1, 1}, {N / 2, N / 3, N / 4}, {N - 2, N - 2, N - 2},
                        {N - 1, 5, 6}, {4, 1, N - 2}};
  for (int p = 0; p < 6; ++p)
    printf("u[%d,%d,%d] = %a\n", at[p][0], at[p][1], at[p][2], AT(u, at[p][0], at[p][1], at[p][2]));
  free(u);
  free(v);
  free(c);
  return 0;
}
