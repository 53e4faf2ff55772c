/* A whole Physis program on a torus with a struct element type: two species of Life kept in an
 * int array member (alive[2]), counted with PSGridGetPeriodic in loops with constant bounds, a
 * float heat advected around the torus and a double age; two struct grids alternating (g to h,
 * then h to g, in one PSStencilRun), a whole-element copy of the state shifted by one cell into
 * a third struct grid (PSGridGet at an offset: zeros come in from outside the grid, so g is read
 * both periodically and against its edges), the populations reduced from an int grid, the
 * boards and the members printed bit for bit. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define W 12
#define H 10

struct Cell {
  int alive[2];
  float heat;
  double age;
};

DeclareGrid2D(Cell, struct Cell);

void step(const int x, const int y, PSGrid2DCell g, PSGrid2DCell h) {
  int i, dx, dy;
  for (i = 0; i < 2; ++i) {
    int n = 0;
    for (dy = -1; dy <= 1; ++dy)
      for (dx = -1; dx <= 1; ++dx)
        n = n + PSGridGetPeriodic(g, x + dx, y + dy).alive[i];
    int self = PSGridGet(g, x, y).alive[i];
    n = n - self;
    int other = PSGridGet(g, x, y).alive[0] + PSGridGet(g, x, y).alive[1] - self;
    PSGridEmitUtype(h.alive[i], (n == 3 || (self == 1 && n == 2 && other == 0)) ? 1 : 0);
  }
  float c = PSGridGet(g, x, y).heat;
  float warm = (float)(PSGridGet(g, x, y).alive[0] + PSGridGet(g, x, y).alive[1]);
  PSGridEmitUtype(h.heat, c + 0.375f * (PSGridGetPeriodic(g, x - 1, y).heat - c) +
                              0.125f * (PSGridGetPeriodic(g, x, y + 1).heat - c) + 0.0625f * warm);
  double age = PSGridGet(g, x, y).age;
  PSGridEmitUtype(h.age, warm > 0.0f ? age + 1.0 : age * 0.5);
}

void shifted(const int x, const int y, PSGrid2DCell s, PSGrid2DCell g) {
  PSGridEmitUtype(s, PSGridGet(g, x + 1, y - 1));
}

void census(const int x, const int y, PSGrid2DCell g, PSGrid2DInt p) {
  PSGridEmit(p, PSGridGet(g, x, y).alive[0] + 2 * PSGridGet(g, x, y).alive[1]);
}

static void board(const struct Cell *c) {
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      const struct Cell *e = &c[x + W * y];
      putchar(e->alive[0] ? (e->alive[1] ? '@' : '#') : (e->alive[1] ? 'o' : '.'));
    }
    putchar('\n');
  }
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, W, H);
  PSGrid2DCell g = PSGrid2DCellNew(W, H);
  PSGrid2DCell h = PSGrid2DCellNew(W, H);
  PSGrid2DCell s = PSGrid2DCellNew(W, H);
  PSGrid2DInt p = PSGrid2DIntNew(W, H);
  PSDomain2D d = PSDomain2DNew(0, W, 0, H);
  struct Cell *host = (struct Cell *)calloc(W * H, sizeof(struct Cell));
  const int glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (int i = 0; i < 5; ++i)
    host[glider[i][0] + W * glider[i][1]].alive[0] = 1;
  for (int x = 6; x < 9; ++x)
    host[x + W * 6].alive[1] = 1;
  host[10 + W * 2].alive[1] = host[11 + W * 2].alive[1] = 1;
  host[10 + W * 3].alive[1] = host[11 + W * 3].alive[1] = 1;
  for (int i = 0; i < W * H; ++i) {
    host[i].heat = (float)((i * 7) % 9) * 0.25f;
    host[i].age = (double)(i % 3);
  }
  PSGridCopyin(g, host);
  PSGridCopyin(h, host);
  PSGridCopyin(s, host);
  PSStencilRun(PSStencilMap(step, d, g, h), PSStencilMap(step, d, h, g),
               PSStencilMap(shifted, d, s, g), PSStencilMap(census, d, g, p), 6);
  long total;
  int most;
  PSReduce(&total, PS_SUM, p);
  PSReduce(&most, PS_MAX, p);
  printf("census %ld max %d\n", total, most);
  PSGridCopyout(g, host);
  board(host);
  for (int x = 0; x < W; ++x)
    printf("%s%a", x ? " " : "", host[x + W * 4].heat);
  printf("\n");
  for (int x = 0; x < W; ++x)
    printf("%s%a", x ? " " : "", host[x + W * 6].age);
  printf("\n");
  PSGridCopyout(s, host);
  board(host);
  printf("shifted %a %a\n", host[3 + W * 5].heat, host[0 + W * 0].age);
  PSGridFree(g);
  PSGridFree(h);
  PSGridFree(s);
  PSGridFree(p);
  PSFinalize();
  free(host);
  return 0;
}
