/* A whole Physis program mapping one 3D kernel over six grids: two float grids alternating, a
 * double conductivity, an int mask, a double grid whose bottom plane z = 0 is read at an
 * absolute index everywhere above it, and a struct grid that accumulates fluxes (an array
 * member) and a running total; the kernel calls functions of the program that read grids
 * (inlined), one of them taking the struct grid, with loops of constant bounds; a third kernel
 * turns the totals into a PSGrid3DLong. Min, max and the exact sum reduced, values printed in
 * hexadecimal. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define NX 10
#define NY 8
#define NZ 6
#define AT(x, y, z) ((x) + NX * ((y) + NY * (z)))

struct Acc {
  float flux[3];
  double total;
  int visits;
};

DeclareGrid3D(Acc, struct Acc);

static float lap(PSGrid3DFloat u, int x, int y, int z) {
  float s = -6.0f * PSGridGet(u, x, y, z);
  int d;
  for (d = -1; d <= 1; d += 2)
    s = s + PSGridGet(u, x + d, y, z) + PSGridGet(u, x, y + d, z) + PSGridGet(u, x, y, z + d);
  return s;
}

static double weight(PSGrid3DDouble k, PSGrid3DDouble base, int x, int y, int z) {
  return PSGridGet(k, x, y, z) * PSGridGet(base, x, y, 0);
}

static double carried(PSGrid3DAcc s, int x, int y, int z) {
  double t = PSGridGet(s, x, y, z).total;
  int i;
  for (i = 0; i < 3; ++i)
    t = t + 0.5 * PSGridGet(s, x, y, z).flux[i];
  return t;
}

void update(const int x, const int y, const int z, PSGrid3DFloat a, PSGrid3DFloat b,
            PSGrid3DDouble k, PSGrid3DInt mask, PSGrid3DDouble base, PSGrid3DAcc s, float dt) {
  float c = PSGridGet(a, x, y, z);
  int on = PSGridGet(mask, x, y, z);
  double w = weight(k, base, x, y, z);
  float next = on != 0 ? c + dt * (float)w * lap(a, x, y, z) : c;
  double t = carried(s, x, y, z);
  PSGridEmit(b, next);
  int i;
  for (i = 0; i < 3; ++i)
    PSGridEmitUtype(s.flux[i], PSGridGet(a, x + i - 1, y, z) - PSGridGet(a, x, y + i - 1, z - 1));
  PSGridEmitUtype(s.total, t + (double)next);
  PSGridEmitUtype(s.visits, PSGridGet(s, x, y, z).visits + on);
}

void collect(const int x, const int y, const int z, PSGrid3DAcc s, PSGrid3DLong n) {
  PSGridEmit(n, (long)(PSGridGet(s, x, y, z).total * 1024.0) + PSGridGet(s, x, y, z).visits);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DFloat a = PSGrid3DFloatNew(NX, NY, NZ), b = PSGrid3DFloatNew(NX, NY, NZ);
  PSGrid3DDouble k = PSGrid3DDoubleNew(NX, NY, NZ), base = PSGrid3DDoubleNew(NX, NY, NZ);
  PSGrid3DInt mask = PSGrid3DIntNew(NX, NY, NZ);
  PSGrid3DAcc s = PSGrid3DAccNew(NX, NY, NZ);
  PSGrid3DLong n = PSGrid3DLongNew(NX, NY, NZ);
  PSDomain3D inner = PSDomain3DNew(1, NX - 1, 1, NY - 1, 1, NZ - 1);
  PSDomain3D all = PSDomain3DNew(0, NX, 0, NY, 0, NZ);
  size_t cells = (size_t)NX * NY * NZ;
  float *fa = (float *)malloc(sizeof(float) * cells);
  double *fd = (double *)malloc(sizeof(double) * cells);
  int *fi = (int *)malloc(sizeof(int) * cells);
  struct Acc *acc = (struct Acc *)calloc(cells, sizeof(struct Acc));
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        fa[AT(x, y, z)] = (float)((x * 3 + y * 5 + z * 7) % 11) * 0.125f;
        fi[AT(x, y, z)] = (x + y + z) % 3 != 0;
      }
  PSGridCopyin(a, fa);
  PSGridCopyin(b, fa);
  PSGridCopyin(mask, fi);
  for (size_t i = 0; i < cells; ++i)
    fd[i] = 0.5 + 0.125 * (double)(i % 4);
  PSGridCopyin(k, fd);
  for (size_t i = 0; i < cells; ++i)
    fd[i] = i < (size_t)NX * NY ? 0.25 + 0.0625 * (double)(i % 5) : -100.0;
  PSGridCopyin(base, fd);
  for (size_t i = 0; i < cells; ++i)
    acc[i].total = (double)(i % 7);
  PSGridCopyin(s, acc);
  PSStencilRun(PSStencilMap(update, inner, a, b, k, mask, base, s, 0.1f),
               PSStencilMap(update, inner, b, a, k, mask, base, s, 0.1f),
               PSStencilMap(collect, all, s, n), 3);
  float lo, hi;
  long sum, top;
  PSReduce(&lo, PS_MIN, a);
  PSReduce(&hi, PS_MAX, a);
  PSReduce(&sum, PS_SUM, n);
  PSReduce(&top, PS_MAX, n);
  printf("a min %a max %a; n sum %ld max %ld\n", lo, hi, sum, top);
  PSGridCopyout(a, fa);
  PSGridCopyout(s, acc);
  for (int x = 0; x < NX; ++x)
    printf("%s%a", x ? " " : "", fa[AT(x, NY / 2, NZ / 2)]);
  printf("\n");
  for (int y = 1; y < NY - 1; y += 2) {
    const struct Acc *e = &acc[AT(4, y, 2)];
    printf("acc %a %a %a %a %d\n", e->flux[0], e->flux[1], e->flux[2], e->total, e->visits);
  }
  PSGridFree(a);
  PSGridFree(b);
  PSGridFree(k);
  PSGridFree(base);
  PSGridFree(mask);
  PSGridFree(s);
  PSGridFree(n);
  PSFinalize();
  free(fa);
  free(fd);
  free(fi);
  free(acc);
  return 0;
}
