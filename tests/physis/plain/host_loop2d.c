/* host_loop2d.c in plain C: periodic neighbours, two sweeps per iteration, 5 iterations a round. */
#include <stdio.h>
#include <stdlib.h>

#define NX 32
#define NY 16
#define ROUNDS 6

static double wrap(const double *u, int x, int y) {
  return u[(x + NX) % NX + NX * ((y + NY) % NY)];
}

static void diffuse(const double *u, double *v, double c) {
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x) {
      double lap = wrap(u, x - 1, y) + wrap(u, x + 1, y) + wrap(u, x, y - 1) + wrap(u, x, y + 1) -
                   4.0 * u[x + NX * y];
      v[x + NX * y] = u[x + NX * y] + c * lap;
    }
}

int main(void) {
  double *u = (double *)calloc(NX * NY, sizeof(double)), *v = (double *)calloc(NX * NY, sizeof(double));
  u[NX / 2 + NX * (NY / 2)] = 100.0;
  u[3 + NX * 2] = 50.0;
  double c = 0.2;
  FILE *series = fopen("series.txt", "w");
  if (!series)
    return 1;
  for (int round = 0; round < ROUNDS; ++round) {
    for (int it = 0; it < 5; ++it) {
      diffuse(u, v, c);
      diffuse(v, u, c);
    }
    double peak = u[0];
    for (int i = 0; i < NX * NY; ++i)
      peak = u[i] > peak ? u[i] : peak;
    printf("round %d: peak %a, centre %a\n", round, peak, u[NX / 2 + NX * (NY / 2)]);
    fprintf(series, "%d %.17g\n", round, u[3 + NX * 2]);
    if (peak < 1.0) {
      printf("flat after %d rounds\n", round + 1);
      break;
    }
  }
  fclose(series);
  free(u);
  free(v);
  return 0;
}
