/* host_heat3d.c in plain C: the same arithmetic in the same order, reads outside the grid 0
 * (stencilc's default boundary; the values Physis leaves undefined there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 20
#define NY 12
#define NZ 10

static float at(const float *u, int x, int y, int z) {
  if (x < 0 || x >= NX || y < 0 || y >= NY || z < 0 || z >= NZ)
    return 0.0f;
  return u[x + NX * (y + NY * z)];
}

static void heat(const float *u, float *v, float c0, float c1) {
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        float s = at(u, x - 1, y, z) + at(u, x + 1, y, z) + at(u, x, y - 1, z) +
                  at(u, x, y + 1, z) + at(u, x, y, z - 1) + at(u, x, y, z + 1);
        v[x + NX * (y + NY * z)] = c0 * at(u, x, y, z) + c1 * s;
      }
}

int main(void) {
  const size_t n = (size_t)NX * NY * NZ;
  float *u = (float *)malloc(sizeof(float) * n), *v = (float *)malloc(sizeof(float) * n);
  for (size_t i = 0; i < n; ++i)
    u[i] = v[i] = (float)((i * 7919) % 101) / 101.0f;
  float c0 = 0.4f, c1 = 0.1f;
  for (int it = 0; it < 12; ++it) {
    heat(u, v, c0, c1);
    heat(v, u, c0, c1);
  }
  float hottest = u[0], coldest = u[0];
  for (size_t i = 0; i < n; ++i) {
    hottest = u[i] > hottest ? u[i] : hottest;
    coldest = u[i] < coldest ? u[i] : coldest;
  }
  FILE *out = fopen("heat3d.out", "wb");
  if (!out || fwrite(u, sizeof(float), n, out) != n)
    return 1;
  fclose(out);
  printf("max %a min %a\n", hottest, coldest);
  printf("u[0,0,0] = %.9g, u[10,6,5] = %.9g\n", u[0], u[10 + NX * (6 + NY * 5)]);
  free(u);
  free(v);
  return 0;
}
