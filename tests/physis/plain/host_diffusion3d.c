/* host_diffusion3d.c in plain C: the faces use the point itself for the missing neighbour,
 * two arrays ping-pong; the same float coefficients, sums in the same order. */
#include <stdio.h>
#include <stdlib.h>

#define NX 24
#define NY 20
#define NZ 16
#define REAL float

static REAL at(const REAL *g, int x, int y, int z) { return g[x + NX * (y + NY * z)]; }

static void diffusion(const REAL *g1, REAL *g2, REAL ce, REAL cw, REAL cn, REAL cs, REAL ct,
                      REAL cb, REAL cc) {
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        REAL c = at(g1, x, y, z);
        REAL w = x == 0 ? c : at(g1, x - 1, y, z);
        REAL e = x == NX - 1 ? c : at(g1, x + 1, y, z);
        REAL n = y == 0 ? c : at(g1, x, y - 1, z);
        REAL s = y == NY - 1 ? c : at(g1, x, y + 1, z);
        REAL b = z == 0 ? c : at(g1, x, y, z - 1);
        REAL t = z == NZ - 1 ? c : at(g1, x, y, z + 1);
        g2[x + NX * (y + NY * z)] = cc * c + cw * w + ce * e + cs * s + cn * n + cb * b + ct * t;
      }
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

int main(void) {
  REAL *g1 = (REAL *)malloc(sizeof(REAL) * NX * NY * NZ);
  REAL *g2 = (REAL *)malloc(sizeof(REAL) * NX * NY * NZ);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x)
        g1[x + NX * (y + NY * z)] = (REAL)((x * 5 + y * 3 + z * 11) % 17) / 17.0f;
  for (int i = 0; i < NX * NY * NZ; ++i)
    g2[i] = -1.0f;
  REAL kappa = 0.1f;
  REAL dx = 1.0f / NX, dy = 1.0f / NY, dz = 1.0f / NZ;
  REAL dt = 0.1f * dx * dx / kappa;
  REAL ce = kappa * dt / (dx * dx), cw = kappa * dt / (dx * dx);
  REAL cn = kappa * dt / (dy * dy), cs = kappa * dt / (dy * dy);
  REAL ct = kappa * dt / (dz * dz), cb = kappa * dt / (dz * dz);
  REAL cc = 1.0f - (ce + cw + cn + cs + ct + cb);
  for (int it = 0; it < 10; ++it) {
    diffusion(g1, g2, ce, cw, cn, cs, ct, cb, cc);
    diffusion(g2, g1, ce, cw, cn, cs, ct, cb, cc);
  }
  printf("coefficients %a %a %a %a\n", ce, cn, ct, cc);
  show("g1", g1);
  show("g2", g2);
  free(g1);
  free(g2);
  return 0;
}
