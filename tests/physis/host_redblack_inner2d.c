/* A whole Physis program (see host_heat3d.c): red-black Gauss-Seidel on the inner cells of a
 * grid (PSStencilMapRedBlack over a domain that leaves a frame of one cell, and two on the high
 * x side): the frame holds boundary values the host copies in (a different value on each side)
 * and is never written; each colour is that of the cell's absolute coordinates, so the domain
 * starting at 1 begins its rows on the other colour. After the run PSReduce sums u (printed to
 * 11 digits, as a sum's order is the target's); u is copied out, its checksum, a row across the
 * frame and a column printed in hexadecimal. */
#include <stdio.h>

#include "physis/physis.h"

#define NX 27
#define NY 20

void relax(const int x, const int y, PSGrid2DDouble u, PSGrid2DDouble f, double h2) {
  double nb = PSGridGet(u, x - 1, y) + PSGridGet(u, x + 1, y) + PSGridGet(u, x, y - 1) +
              PSGridGet(u, x, y + 1);
  PSGridEmit(u, 0.25 * (nb - h2 * PSGridGet(f, x, y)));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DDouble u = PSGrid2DDoubleNew(NX, NY);
  PSGrid2DDouble f = PSGrid2DDoubleNew(NX, NY);
  PSDomain2D inner = PSDomain2DNew(1, NX - 2, 1, NY - 1);
  double host[NX * NY];
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      host[x + NX * y] = (double)((x * 11 + y * 5) % 9 - 4);
  PSGridCopyin(f, host);
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      host[x + NX * y] = x == 0            ? 1.0 + 0.05 * y
                         : x >= NX - 2     ? -0.5 * (x - NX + 3)
                         : y == 0          ? 0.25
                         : y == NY - 1     ? 0.1 * x
                                           : 0.0;
  PSGridCopyin(u, host);
  const double h = 1.0 / (NX + 1);
  double h2 = h * h;
  PSStencil s = PSStencilMapRedBlack(relax, inner, u, f, h2);
  PSStencilRun(s, 15);
  double total;
  PSReduce(&total, PS_SUM, u);
  PSGridCopyout(u, host);
  printf("sum %.10e\n", total);
  double check = 0.0;
  for (int i = 0; i < NX * NY; ++i)
    check += host[i] * (double)(1 + i % 3);
  printf("checksum %a\n", check);
  printf("row 1:");
  for (int x = 0; x < NX; ++x)
    printf(" %a", host[x + NX * 1]);
  printf("\ncolumn %d:", NX - 3);
  for (int y = 0; y < NY; ++y)
    printf(" %a", host[NX - 3 + NX * y]);
  printf("\n");
  PSGridFree(u);
  PSGridFree(f);
  PSFinalize();
  return 0;
}
