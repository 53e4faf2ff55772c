/* 3D diffusion, as Physis's own examples write it: seven coefficients computed on the host, the
 * faces handled inside the kernel (a point on a face uses itself for the missing neighbour),
 * two maps that ping-pong between the grids. */
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

int main(int argc, char *argv[]) {
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DReal g1 = PSGrid3DRealNew(NX, NY, NZ);
  PSGrid3DReal g2 = PSGrid3DRealNew(NX, NY, NZ);
  PSDomain3D d = PSDomain3DNew(0, NX, 0, NY, 0, NZ);
  REAL *buf = (REAL *)malloc(sizeof(REAL) * NX * NY * NZ);
  for (int i = 0; i < NX * NY * NZ; ++i)
    buf[i] = (REAL)(i % 17) / 17.0f;
  PSGridCopyin(g1, buf);
  REAL kappa = 0.1f;
  REAL dx = 1.0f / NX, dy = 1.0f / NY, dz = 1.0f / NZ;
  REAL dt = 0.1f * dx * dx / kappa;
  REAL ce = kappa * dt / (dx * dx), cw = kappa * dt / (dx * dx);
  REAL cn = kappa * dt / (dy * dy), cs = kappa * dt / (dy * dy);
  REAL ct = kappa * dt / (dz * dz), cb = kappa * dt / (dz * dz);
  REAL cc = 1.0f - (ce + cw + cn + cs + ct + cb);
  PSStencilRun(PSStencilMap(diffusion, d, g1, g2, ce, cw, cn, cs, ct, cb, cc),
               PSStencilMap(diffusion, d, g2, g1, ce, cw, cn, cs, ct, cb, cc), 10);
  PSGridCopyout(g1, buf);
  printf("%f\n", buf[0]);
  PSGridFree(g1);
  PSGridFree(g2);
  PSFinalize();
  free(buf);
  return 0;
}
