/* A whole Physis program, host code included (see host_heat3d.c): Conway's Life on a torus
 * (PSGridGetPeriodic), an int grid seeded with a glider and a blinker by the host, 16
 * generations, the population reduced into an int, the board printed as text. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define W 12
#define H 10

void generation(const int x, const int y, PSGrid2DInt a, PSGrid2DInt b) {
  int n = PSGridGetPeriodic(a, x - 1, y - 1) + PSGridGetPeriodic(a, x, y - 1) +
          PSGridGetPeriodic(a, x + 1, y - 1) + PSGridGetPeriodic(a, x - 1, y) +
          PSGridGetPeriodic(a, x + 1, y) + PSGridGetPeriodic(a, x - 1, y + 1) +
          PSGridGetPeriodic(a, x, y + 1) + PSGridGetPeriodic(a, x + 1, y + 1);
  int alive = PSGridGet(a, x, y);
  PSGridEmit(b, (n == 3 || (alive == 1 && n == 2)) ? 1 : 0);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, W, H);
  PSGrid2DInt a = PSGrid2DIntNew(W, H);
  PSGrid2DInt b = PSGrid2DIntNew(W, H);
  PSDomain2D d = PSDomain2DNew(0, W, 0, H);
  int board[W * H] = {0};
  const int glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (int i = 0; i < 5; ++i)
    board[glider[i][0] + W * glider[i][1]] = 1;
  for (int x = 7; x < 10; ++x)
    board[x + W * 6] = 1;
  PSGridCopyin(a, board);
  PSStencilRun(PSStencilMap(generation, d, a, b), PSStencilMap(generation, d, b, a), 8);
  int population;
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
