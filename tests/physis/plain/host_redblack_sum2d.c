/* host_redblack_sum2d.c in plain C: red cells ((x + y) even) first, then black, in place; reads
 * outside the grid 0; the sum printed to 11 digits. */
#include <stdio.h>
#include <stdlib.h>

#define N 30

static double at(const double *u, int x, int y) {
  return x < 0 || x >= N || y < 0 || y >= N ? 0.0 : u[x + N * y];
}

int main(void) {
  double *u = (double *)malloc(sizeof(double) * N * N), *f = (double *)malloc(sizeof(double) * N * N);
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x) {
      f[x + N * y] = (x - 8) * (x - 8) + (y - 9) * (y - 9) < 16    ? 40.0
                     : (x - 20) * (x - 20) + (y - 19) * (y - 19) < 9 ? -60.0
                                                                     : 0.0;
      u[x + N * y] = 0.001 * (double)((x * 3 + y * 7) % 10);
    }
  const double h = 1.0 / (N + 1);
  double h2 = h * h;
  for (int it = 0; it < 20; ++it)
    for (int colour = 0; colour < 2; ++colour)
      for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x)
          if ((x + y) % 2 == colour) {
            double nb = at(u, x - 1, y) + at(u, x + 1, y) + at(u, x, y - 1) + at(u, x, y + 1);
            u[x + N * y] = 0.25 * (nb - h2 * f[x + N * y]);
          }
  double total = 0.0;
  for (int i = 0; i < N * N; ++i)
    total += u[i];
  printf("sum %.10e\n", total);
  double check = 0.0;
  for (int i = 0; i < N * N; ++i)
    check += u[i] * (double)(1 + i % 5);
  printf("checksum %a\n", check);
  const int pt[5][2] = {{0, 0}, {8, 9}, {20, 19}, {N - 1, 1}, {15, N - 1}};
  for (int k = 0; k < 5; ++k)
    printf("u[%d,%d] = %a\n", pt[k][0], pt[k][1], u[pt[k][0] + N * pt[k][1]]);
  free(u);
  free(f);
  return 0;
}
