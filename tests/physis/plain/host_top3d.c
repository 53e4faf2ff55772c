/* host_top3d.c in plain C: the interior in x and y updated from the top plane of the state and
 * the plane below it of the coefficient, the x and y faces kept. */
#include <stdio.h>
#include <stdlib.h>

static int nx = 10, ny = 9, nz = 7;
#define AT(x, y, z) ((x) + nx * ((y) + ny * (z)))

static void relax(const double *u, double *v, const double *k, int top) {
  for (int z = 0; z < nz; ++z)
    for (int y = 1; y < ny - 1; ++y)
      for (int x = 1; x < nx - 1; ++x) {
        double c = u[AT(x, y, z)];
        double lap = u[AT(x - 1, y, z)] + u[AT(x + 1, y, z)] + u[AT(x, y - 1, z)] +
                     u[AT(x, y + 1, z)] - 4.0 * c;
        v[AT(x, y, z)] = c + 0.2 * k[AT(x, y, top - 1)] * lap + 0.01 * u[AT(x, y, top)];
      }
}

int main(void) {
  double *u = malloc(sizeof(double) * nx * ny * nz), *v = malloc(sizeof(double) * nx * ny * nz);
  double *k = malloc(sizeof(double) * nx * ny * nz);
  for (int i = 0; i < nx * ny * nz; ++i) {
    k[i] = 0.1 + 0.01 * (i % 13);
    u[i] = v[i] = (double)((i * 7) % 5);
  }
  for (int it = 0; it < 5; ++it) {
    relax(u, v, k, nz - 1);
    relax(v, u, k, nz - 1);
  }
  double highest = u[0];
  for (int i = 0; i < nx * ny * nz; ++i)
    highest = u[i] > highest ? u[i] : highest;
  printf("max %a\n", highest);
  for (int z = 0; z < nz; ++z)
    printf("%s%a", z ? " " : "", u[AT(nx / 2, ny / 2, z)]);
  printf("\n");
  free(u);
  free(v);
  free(k);
  return 0;
}
