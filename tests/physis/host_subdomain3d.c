/* A whole Physis program (see host_heat3d.c): a Jacobi sweep over the inner points of a 3D grid
 * only (a domain smaller than the grid: the faces keep their values), with a variable
 * coefficient grid that no map writes (read through fabs: the host gives it negative values
 * too), in double. The host copies in u, v (other values on the faces, which the second map
 * reads) and the coefficients; after the run the minimum is reduced and u copied out, its
 * checksum and a few cells (on faces and inside) printed in hexadecimal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define N 18

void smooth(const int i, const int j, const int k, PSGrid3DDouble in, PSGrid3DDouble out,
            PSGrid3DDouble coef) {
  double s = PSGridGet(in, i - 1, j, k) + PSGridGet(in, i + 1, j, k) + PSGridGet(in, i, j - 1, k) +
             PSGridGet(in, i, j + 1, k) + PSGridGet(in, i, j, k - 1) + PSGridGet(in, i, j, k + 1);
  double a = fabs(PSGridGet(coef, i, j, k));
  PSGridEmit(out, (1.0 - a) * PSGridGet(in, i, j, k) + a * s / 6.0);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 3, N, N, N);
  PSGrid3DDouble u = PSGrid3DDoubleNew(N, N, N), v = PSGrid3DDoubleNew(N, N, N);
  PSGrid3DDouble c = PSGrid3DDoubleNew(N, N, N);
  PSDomain3D inner = PSDomain3DNew(1, N - 1, 1, N - 1, 1, N - 1);
  double *h = (double *)malloc(sizeof(double) * N * N * N);
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i)
        h[i + N * (j + N * k)] = 0.1 * (double)((i * 3 + j * 5 + k * 7) % 11) - 0.3;
  PSGridCopyin(u, h);
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i)
        h[i + N * (j + N * k)] = 0.1 * (double)((i * 3 + j * 5 + k * 7) % 11) - 0.3 +
                                 (i == 0 || j == 0 || k == 0 ? 2.0 : 0.0);
  PSGridCopyin(v, h);
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i)
        h[i + N * (j + N * k)] = 0.125 * (double)((i + 2 * j + 3 * k) % 9 - 4);
  PSGridCopyin(c, h);
  PSStencilRun(PSStencilMap(smooth, inner, u, v, c), PSStencilMap(smooth, inner, v, u, c), 6);
  double lo;
  PSReduce(&lo, PS_MIN, u);
  PSGridCopyout(u, h);
  printf("min %a\n", lo);
  double check = 0.0;
  for (int i = 0; i < N * N * N; ++i)
    check += h[i] * (double)(1 + i % 7);
  printf("checksum %a\n", check);
  const int at[6][3] = {{0, 0, 0}, {1, 1, 1}, {N / 2, N / 3, N / 4}, {N - 2, N - 2, N - 2},
                        {N - 1, 5, 6}, {4, 1, N - 2}};
  for (int p = 0; p < 6; ++p)
    printf("u[%d,%d,%d] = %a\n", at[p][0], at[p][1], at[p][2],
           h[at[p][0] + N * (at[p][1] + N * at[p][2])]);
  PSGridFree(u);
  PSGridFree(v);
  PSGridFree(c);
  PSFinalize();
  free(h);
  return 0;
}
