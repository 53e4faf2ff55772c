/* A whole Physis program, host code included (see host_heat3d.c), on 64-bit integer grids
 * (PSGrid2DLong): lattice-path counts modulo the first prime above 2^32, so every count soon
 * needs more than 32 bits; the host fills the first row and column, the kernel sums with a
 * long local, PS_MAX and PS_SUM reduce into longs, and the counts are printed. */
#include <stdio.h>

#include "physis/physis.h"

#define W 14
#define H 9
#define P 4294967311L

void paths(const int x, const int y, PSGrid2DLong a, PSGrid2DLong b) {
  long s = PSGridGet(a, x - 1, y) + PSGridGet(a, x, y - 1) + 3 * PSGridGet(a, x, y);
  PSGridEmit(b, s % P);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, W, H);
  PSGrid2DLong a = PSGrid2DLongNew(W, H);
  PSGrid2DLong b = PSGrid2DLongNew(W, H);
  PSDomain2D d = PSDomain2DNew(1, W, 1, H);
  long board[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      board[x + W * y] = (x == 0 || y == 0) ? 1000000 + 7 * x + 11 * y : 0;
  PSGridCopyin(a, board);
  PSGridCopyin(b, board);
  PSStencilRun(PSStencilMap(paths, d, a, b), PSStencilMap(paths, d, b, a), 12);
  long top, total;
  PSReduce(&top, PS_MAX, a);
  PSReduce(&total, PS_SUM, a);
  PSGridCopyout(a, board);
  printf("max %ld sum %ld\n", top, total);
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x)
      printf(" %ld", board[x + W * y]);
    putchar('\n');
  }
  PSFinalize();
  return 0;
}
