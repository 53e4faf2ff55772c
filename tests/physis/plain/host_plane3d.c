/* host_plane3d.c in plain C: the interior updated from the bottom plane's conductivity and the
 * inflow column, the faces kept. */
#include <stdio.h>
#include <stdlib.h>

#define NX 12
#define NY 10
#define NZ 8
#define AT(x, y, z) ((x) + NX * ((y) + NY * (z)))

static void conduct(const double *u, double *v, const double *k, double dt) {
  for (int z = 1; z < NZ - 1; ++z)
    for (int y = 1; y < NY - 1; ++y)
      for (int x = 1; x < NX - 1; ++x) {
        double c = u[AT(x, y, z)];
        double lap = u[AT(x - 1, y, z)] + u[AT(x + 1, y, z)] + u[AT(x, y - 1, z)] +
                     u[AT(x, y + 1, z)] + u[AT(x, y, z - 1)] + u[AT(x, y, z + 1)] - 6.0 * c;
        v[AT(x, y, z)] = c + dt * k[AT(x, y, 0)] * lap + 0.001 * u[AT(0, y, z)];
      }
}

int main(void) {
  double *u = malloc(sizeof(double) * NX * NY * NZ), *v = malloc(sizeof(double) * NX * NY * NZ);
  double *k = malloc(sizeof(double) * NX * NY * NZ);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        k[AT(x, y, z)] = z == 0 ? 0.05 + 0.01 * ((x + 3 * y) % 7) : -1.0;
        u[AT(x, y, z)] = v[AT(x, y, z)] = x == 0 ? 5.0 + y : (double)((x * y + z) % 4);
      }
  for (int it = 0; it < 6; ++it) {
    conduct(u, v, k, 0.5);
    conduct(v, u, k, 0.5);
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
  free(k);
  return 0;
}
