/* A whole Physis program (see host_heat3d.c): red-black Gauss-Seidel on a 2D Poisson problem
 * (double), laplace(u) = f: PSStencilMapRedBlack updates the grid in place, red points first,
 * then black; the host copies in f (a source and a sink) and a starting guess for u; after the
 * run PSReduce sums u (printed to 11 digits, as a sum's order is the target's) and u is copied
 * out, its checksum and a few cells printed in hexadecimal. (host_redblack2d.c is the same
 * sweep with the other sign of f, from zero, and a max.) */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define N 30

void relax(const int x, const int y, PSGrid2DDouble u, PSGrid2DDouble f, double h2) {
  double nb = PSGridGet(u, x - 1, y) + PSGridGet(u, x + 1, y) + PSGridGet(u, x, y - 1) +
              PSGridGet(u, x, y + 1);
  PSGridEmit(u, 0.25 * (nb - h2 * PSGridGet(f, x, y)));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DDouble u = PSGrid2DDoubleNew(N, N);
  PSGrid2DDouble f = PSGrid2DDoubleNew(N, N);
  PSDomain2D all = PSDomain2DNew(0, N, 0, N);
  double *host = (double *)malloc(sizeof(double) * N * N);
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      host[x + N * y] = (x - 8) * (x - 8) + (y - 9) * (y - 9) < 16    ? 40.0
                        : (x - 20) * (x - 20) + (y - 19) * (y - 19) < 9 ? -60.0
                                                                        : 0.0;
  PSGridCopyin(f, host);
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      host[x + N * y] = 0.001 * (double)((x * 3 + y * 7) % 10);
  PSGridCopyin(u, host);
  const double h = 1.0 / (N + 1);
  double h2 = h * h;
  PSStencil s = PSStencilMapRedBlack(relax, all, u, f, h2);
  PSStencilRun(s, 20);
  double total;
  PSReduce(&total, PS_SUM, u);
  PSGridCopyout(u, host);
  printf("sum %.10e\n", total);
  double check = 0.0;
  for (int i = 0; i < N * N; ++i)
    check += host[i] * (double)(1 + i % 5);
  printf("checksum %a\n", check);
  const int at[5][2] = {{0, 0}, {8, 9}, {20, 19}, {N - 1, 1}, {15, N - 1}};
  for (int k = 0; k < 5; ++k)
    printf("u[%d,%d] = %a\n", at[k][0], at[k][1], host[at[k][0] + N * at[k][1]]);
  PSGridFree(u);
  PSGridFree(f);
  PSFinalize();
  free(host);
  return 0;
}
