/* A whole Physis program (see host_heat3d.c): 3D diffusion as Physis's own examples write it,
 * seven float coefficients computed on the host (stencilc evaluates their initializers itself),
 * the faces handled inside the kernel (a point on a face uses itself for the missing
 * neighbour), two maps that ping-pong between the grids. Both grids are copied in from the host
 * and out after the run; their checksums and a few cells, corners and faces included, are
 * printed in hexadecimal. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define NX 24
#define NY 20
#define NZ 16
#define REAL float
#define PSGrid3DReal PSGrid3DFloat
#define PSGrid3DRealNew PSGrid3DFloatNew

void diffusion(const int x, const int y, const int z, PSGrid3DReal g1, PSGrid3DReal g2,
               REAL ce, REAL cw, REAL cn, REAL cs, REAL ct, REAL cb, REAL cc) {
  REAL c, w, e, n, s, b, t;
  c = PSGridGet(g1, x, y, z);
  if (x == 0) w = c; else w = PSGridGet(g1, x - 1, y, z);
  if (x == NX - 1) e = c; else e = PSGridGet(g1, x + 1, y, z);
  if (y == 0) n = c; else n = PSGridGet(g1, x, y - 1, z);
  if (y == NY - 1) s = c; else s = PSGridGet(g1, x, y + 1, z);
  if (z == 0) b = c; else b = PSGridGet(g1, x, y, z - 1);
  if (z == NZ - 1) t = c; else t = PSGridGet(g1, x, y, z + 1);
  PSGridEmit(g2, cc * c + cw * w + ce * e + cs * s + cn * n + cb * b + ct * t);
  return;
}

static void show(const char *name, const REAL *g) {
  double sum = 0.0;
  for (int i = 0; i < NX * NY * NZ; ++i)
    sum += (double)g[i] * (double)(1 + i % 7);
  printf("%s: checksum %a\n", name, sum);
  const int at[5][3] = {{0, 0, 0}, {NX - 1, NY - 1, NZ - 1}, {NX / 2, NY / 3, NZ / 4},
                        {0, NY / 2, NZ - 1}, {NX - 1, 0, NZ / 2}};
  for (int k = 0; k < 5; ++k)
    printf("%s[%d,%d,%d] = %a\n", name, at[k][0], at[k][1], at[k][2],
           g[at[k][0] + NX * (at[k][1] + NY * at[k][2])]);
}

int main(int argc, char *argv[]) {
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DReal g1 = PSGrid3DRealNew(NX, NY, NZ);
  PSGrid3DReal g2 = PSGrid3DRealNew(NX, NY, NZ);
  PSDomain3D d = PSDomain3DNew(0, NX, 0, NY, 0, NZ);
  REAL *buf = (REAL *)malloc(sizeof(REAL) * NX * NY * NZ);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x)
        buf[x + NX * (y + NY * z)] = (REAL)((x * 5 + y * 3 + z * 11) % 17) / 17.0f;
  PSGridCopyin(g1, buf);
  for (int i = 0; i < NX * NY * NZ; ++i)
    buf[i] = -1.0f;
  PSGridCopyin(g2, buf);
  REAL kappa = 0.1f;
  REAL dx = 1.0f / NX, dy = 1.0f / NY, dz = 1.0f / NZ;
  REAL dt = 0.1f * dx * dx / kappa;
  REAL ce = kappa * dt / (dx * dx), cw = kappa * dt / (dx * dx);
  REAL cn = kappa * dt / (dy * dy), cs = kappa * dt / (dy * dy);
  REAL ct = kappa * dt / (dz * dz), cb = kappa * dt / (dz * dz);
  REAL cc = 1.0f - (ce + cw + cn + cs + ct + cb);
  PSStencilRun(PSStencilMap(diffusion, d, g1, g2, ce, cw, cn, cs, ct, cb, cc),
               PSStencilMap(diffusion, d, g2, g1, ce, cw, cn, cs, ct, cb, cc), 10);
  printf("coefficients %a %a %a %a\n", ce, cn, ct, cc);
  PSGridCopyout(g1, buf);
  show("g1", buf);
  PSGridCopyout(g2, buf);
  show("g2", buf);
  PSGridFree(g1);
  PSGridFree(g2);
  PSFinalize();
  free(buf);
  return 0;
}
