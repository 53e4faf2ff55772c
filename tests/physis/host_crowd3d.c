/* A whole Physis program on 3D integer grids: a crowding rule over the six neighbours on a
 * torus (PSGridGetPeriodic) on an int grid of two states (crowded cells empty, lonely ones
 * flip, the others keep their state), and a long grid that counts, per cell, the generations
 * it spent in state 1 (weighted by 2^30, so the counts pass 32 bits); the counts summed into a
 * long, the largest state and the smallest count reduced, a row of counts printed. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define NX 9
#define NY 8
#define NZ 7

void vote(const int x, const int y, const int z, PSGrid3DInt a, PSGrid3DInt b) {
  int n = PSGridGetPeriodic(a, x - 1, y, z) + PSGridGetPeriodic(a, x + 1, y, z) +
          PSGridGetPeriodic(a, x, y - 1, z) + PSGridGetPeriodic(a, x, y + 1, z) +
          PSGridGetPeriodic(a, x, y, z - 1) + PSGridGetPeriodic(a, x, y, z + 1);
  int self = PSGridGet(a, x, y, z);
  PSGridEmit(b, n > 3 ? 0 : n < 2 ? 1 - self : self);
}

void tally(const int x, const int y, const int z, PSGrid3DInt a, PSGrid3DLong c,
           PSGrid3DLong d) {
  long weight = 1073741824;
  PSGridEmit(d, PSGridGet(c, x, y, z) + weight * PSGridGet(a, x, y, z) + 1);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DInt a = PSGrid3DIntNew(NX, NY, NZ), b = PSGrid3DIntNew(NX, NY, NZ);
  PSGrid3DLong c = PSGrid3DLongNew(NX, NY, NZ), d = PSGrid3DLongNew(NX, NY, NZ);
  PSDomain3D all = PSDomain3DNew(0, NX, 0, NY, 0, NZ);
  int *s = (int *)malloc(sizeof(int) * NX * NY * NZ);
  long *t = (long *)malloc(sizeof(long) * NX * NY * NZ);
  for (int i = 0; i < NX * NY * NZ; ++i) {
    s[i] = (i * 37 + i / 5) % 7 < 3 ? 1 : 0;
    t[i] = 0;
  }
  PSGridCopyin(a, s);
  PSGridCopyin(c, t);
  PSGridCopyin(d, t);
  PSStencilRun(PSStencilMap(vote, all, a, b), PSStencilMap(tally, all, b, c, d),
               PSStencilMap(vote, all, b, a), PSStencilMap(tally, all, a, d, c), 6);
  long total;
  int most;
  long least;
  PSReduce(&total, PS_SUM, c);
  PSReduce(&most, PS_MAX, a);
  PSReduce(&least, PS_MIN, c);
  PSGridCopyout(c, t);
  printf("total %ld most %d least %ld\n", total, most, least);
  for (int x = 0; x < NX; ++x)
    printf("%s%ld", x ? " " : "", t[x + NX * (NY / 2 + NY * (NZ / 2))]);
  printf("\n");
  free(s);
  free(t);
  PSFinalize();
  return 0;
}
