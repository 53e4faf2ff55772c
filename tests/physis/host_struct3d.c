/* A Physis program with a user-defined element type: a two-species reaction-diffusion state
 * kept in struct Cell (float concentrations, a double age and an array of two int counters),
 * one member written from the others of the same grid, whole elements copied to a second
 * grid, array members read and written in loops with constant bounds. */
#include <stdio.h>
#include <stdlib.h>
#include "physis/physis.h"

#define NX 20
#define NY 14
#define NZ 9
#define STEPS 5

struct Cell {
  float a;
  float b;
  double age;
  int hits[2];
};

DeclareGrid3D(Cell, struct Cell);

static void react(const int x, const int y, const int z, PSGrid3DCell g, PSGrid3DCell h,
                  float rate) {
  float a = PSGridGet(g, x, y, z).a;
  float b = PSGridGet(g, x, y, z).b;
  float lap = PSGridGet(g, x + 1, y, z).a + PSGridGet(g, x - 1, y, z).a +
              PSGridGet(g, x, y + 1, z).a + PSGridGet(g, x, y - 1, z).a +
              PSGridGet(g, x, y, z + 1).a + PSGridGet(g, x, y, z - 1).a - 6.0f * a;
  PSGridEmitUtype(h.a, a + rate * lap - a * b * b);
  PSGridEmitUtype(h.b, b + a * b * b * 0.5f - 0.01f * b);
  PSGridEmitUtype(h.age, PSGridGet(g, x, y, z).age + 0.5);
  int i;
  for (i = 0; i < 2; ++i)
    PSGridEmitUtype(h.hits[i], PSGridGet(g, x, y, z).hits[i] + (a > 0.5f ? i + 1 : 0));
}

static void keep(const int x, const int y, const int z, PSGrid3DCell g, PSGrid3DCell h) {
  PSGridEmitUtype(g, PSGridGet(h, x, y, z));
}

int main(int argc, char *argv[]) {
  size_t n = (size_t)NX * NY * NZ, i;
  struct Cell *buf = (struct Cell *)malloc(sizeof(struct Cell) * n);
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DCell g = PSGrid3DCellNew(NX, NY, NZ);
  PSGrid3DCell h = PSGrid3DCellNew(NX, NY, NZ);
  PSDomain3D inner = PSDomain3DNew(1, NX - 1, 1, NY - 1, 1, NZ - 1);
  PSDomain3D all = PSDomain3DNew(0, NX, 0, NY, 0, NZ);
  for (i = 0; i < n; ++i) {
    buf[i].a = (float)((i * 7) % 13) / 13.0f;
    buf[i].b = (float)((i * 3) % 5) / 5.0f;
    buf[i].age = (double)(i % 4);
    buf[i].hits[0] = (int)(i % 3);
    buf[i].hits[1] = 0;
  }
  PSGridCopyin(g, buf);
  PSGridCopyin(h, buf);
  PSStencil s1 = PSStencilMap(react, inner, g, h, 0.1f);
  PSStencil s2 = PSStencilMap(keep, all, g, h);
  PSStencilRun(s1, s2, STEPS);
  PSGridCopyout(g, buf);
  double sa = 0, sb = 0, sage = 0;
  long hits = 0;
  for (i = 0; i < n; ++i) {
    sa += buf[i].a;
    sb += buf[i].b;
    sage += buf[i].age;
    hits += buf[i].hits[0] * 3 + buf[i].hits[1];
  }
  printf("a %a b %a age %a hits %ld\n", sa, sb, sage, hits);
  printf("cell %a %a %a %d %d\n", buf[NX + 1 + NX * NY].a, buf[NX + 1 + NX * NY].b,
         buf[NX + 1 + NX * NY].age, buf[NX + 1 + NX * NY].hits[0], buf[NX + 1 + NX * NY].hits[1]);
  PSGridFree(g);
  PSGridFree(h);
  PSFinalize();
  free(buf);
  return 0;
}
