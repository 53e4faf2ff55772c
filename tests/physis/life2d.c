/* Conway's Game of Life on a torus, on an int grid: neighbours read periodically, counted
 * with comparisons used as numbers (as C allows), the rule written with if/else on a local. */
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
  PSStencilRun(PSStencilMap(generation, d, a, b), PSStencilMap(generation, d, b, a), 8);
  int population;
  PSReduce(&population, PS_SUM, a);
  PSFinalize();
  return 0;
}
