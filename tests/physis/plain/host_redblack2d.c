/* host_redblack2d.c in plain C: red cells ((x + y) even) first, then black, in place; reads
 * outside the grid 0. */
#include <stdio.h>
#include <stdlib.h>

#define N 24

static double at(const double *u, int x, int y) {
  return x < 0 || x >= N || y < 0 || y >= N ? 0.0 : u[x + N * y];
}

static void show(const char *what, const double *u, int x, int y) {
  printf("%s[%d,%d] = %a\n", what, x, y, u[x + N * y]);
}

int main(void) {
  double *u = (double *)calloc(N * N, sizeof(double)), *f = (double *)calloc(N * N, sizeof(double));
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      f[x + N * y] = (x > N / 4 && x < 3 * N / 4 && y > N / 4 && y < 3 * N / 4) ? 1.0 : 0.0;
  const double h = 1.0 / (N + 1);
  double h2 = h * h;
  for (int it = 0; it < 30; ++it)
    for (int colour = 0; colour < 2; ++colour)
      for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x)
          if ((x + y) % 2 == colour) {
            double s = at(u, x - 1, y) + at(u, x + 1, y) + at(u, x, y - 1) + at(u, x, y + 1);
            u[x + N * y] = 0.25 * (s + h2 * f[x + N * y]);
          }
  double top = u[0];
  for (int i = 0; i < N * N; ++i)
    top = u[i] > top ? u[i] : top;
  printf("max %a\n", top);
  show("u", u, 0, 0);
  show("u", u, N / 2, N / 2);
  show("u", u, 3, 17);
  free(u);
  free(f);
  return 0;
}
