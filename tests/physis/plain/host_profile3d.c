/* host_profile3d.c in plain C: the interior updated from the profile along z and the surface
 * source, the faces kept. */
#include <stdio.h>
#include <stdlib.h>

#define NX 12
#define NY 10
#define NZ 8
#define AT(x, y, z) ((x) + NX * ((y) + NY * (z)))

static void conduct(const double *u, double *v, const double *kz, const double *src) {
  for (int z = 1; z < NZ - 1; ++z)
    for (int y = 1; y < NY - 1; ++y)
      for (int x = 1; x < NX - 1; ++x) {
        double c = u[AT(x, y, z)];
        double lap = u[AT(x - 1, y, z)] + u[AT(x + 1, y, z)] + u[AT(x, y - 1, z)] +
                     u[AT(x, y + 1, z)] - 4.0 * c;
        double vert = kz[z - 1] * (u[AT(x, y, z - 1)] - c) + kz[z + 1] * (u[AT(x, y, z + 1)] - c);
        v[AT(x, y, z)] = c + kz[z] * lap + 0.5 * vert + 0.01 * src[x + NX * y];
      }
}

int main(void) {
  double *u = malloc(sizeof(double) * NX * NY * NZ), *v = malloc(sizeof(double) * NX * NY * NZ);
  double kz[NZ], src[NX * NY];
  for (int z = 0; z < NZ; ++z)
    kz[z] = 0.05 + 0.02 * (z % 3);
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      src[x + NX * y] = (x + y) % 2 ? 1.0 : -0.5;
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x)
        u[AT(x, y, z)] = v[AT(x, y, z)] = (double)((x * y + 2 * z) % 5);
  for (int it = 0; it < 5; ++it) {
    conduct(u, v, kz, src);
    conduct(v, u, kz, src);
  }
  double highest = u[0];
  for (int i = 0; i < NX * NY * NZ; ++i)
    highest = u[i] > highest ? u[i] : highest;
  printf("max %a\n", highest);
  for (int x = 0; x < NX; ++x)
    printf("%s%a", x ? " " : "", u[AT(x, NY / 2, NZ / 2)]);
  printf("\n");
  free(u);
  free(v);
  return 0;
}
