/* A whole Physis program (see host_heat3d.c): Conway's Game of Life on a torus, on an int grid,
 * the neighbours read periodically and counted with comparisons used as numbers (as C allows:
 * a cell is alive when its value is positive), the rule written with if/else on a local. The
 * host seeds the board with -1, 0, 1 and 2 (the first generation reads 2 as alive and -1 as
 * dead); after 16 generations the population is reduced into an int and the board printed as
 * text. (host_life2d.c is Life with sums of the cells and a ?: rule.) */
#include <stdio.h>

#include "physis/physis.h"

#define W 40
#define H 24

void generation(const int x, const int y, PSGrid2DInt cur, PSGrid2DInt next) {
  int n = 0;
  n += PSGridGetPeriodic(cur, x - 1, y - 1) > 0;
  n += PSGridGetPeriodic(cur, x, y - 1) > 0;
  n += PSGridGetPeriodic(cur, x + 1, y - 1) > 0;
  n += PSGridGetPeriodic(cur, x - 1, y) > 0;
  n += PSGridGetPeriodic(cur, x + 1, y) > 0;
  n += PSGridGetPeriodic(cur, x - 1, y + 1) > 0;
  n += PSGridGetPeriodic(cur, x, y + 1) > 0;
  n += PSGridGetPeriodic(cur, x + 1, y + 1) > 0;
  int alive = PSGridGetPeriodic(cur, x, y) > 0;
  int out;
  if (n == 3)
    out = 1;
  else if (n == 2 && alive)
    out = 1;
  else
    out = 0;
  PSGridEmit(next, out);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, W, H);
  PSGrid2DInt a = PSGrid2DIntNew(W, H);
  PSGrid2DInt b = PSGrid2DIntNew(W, H);
  PSDomain2D d = PSDomain2DNew(0, W, 0, H);
  int board[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      board[x + W * y] = (x * 5 + y * 3 + x * y) % 7 < 3 ? (x + y) % 4 - 1 : 0;
  PSGridCopyin(a, board);
  PSGridCopyin(b, board);
  int population;
  PSReduce(&population, PS_SUM, a);
  printf("seeded: sum %d\n", population);
  PSStencilRun(PSStencilMap(generation, d, a, b), PSStencilMap(generation, d, b, a), 8);
  PSReduce(&population, PS_SUM, a);
  PSGridCopyout(a, board);
  printf("population %d\n", population);
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x)
      putchar(board[x + W * y] ? '#' : '.');
    putchar('\n');
  }
  PSFinalize();
  return 0;
}
