/* host_coeff2d.c in plain C: the interior updated, the faces kept; the product accumulated in
 * double over float values (as stencilc's reductions are). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 20

static void conduct(const float *u, float *v, const float *k, float dt) {
  for (int y = 1; y < N - 1; ++y)
    for (int x = 1; x < N - 1; ++x) {
      float c = u[x + N * y];
      float flux = k[x + N * y] * (u[x - 1 + N * y] + u[x + 1 + N * y] + u[x + N * (y - 1)] +
                                   u[x + N * (y + 1)] - 4.0f * c);
      v[x + N * y] = c + dt * flux;
    }
}

int main(void) {
  float *u = malloc(sizeof(float) * N * N), *v = malloc(sizeof(float) * N * N);
  float *k = malloc(sizeof(float) * N * N), *g = malloc(sizeof(float) * N * N);
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x) {
      k[x + N * y] = (x < N / 2) ? 0.2f : 0.05f;
      u[x + N * y] = v[x + N * y] = (x == 0) ? 10.0f : (float)((x * y) % 5);
    }
  float dt = 0.5f;
  for (int it = 0; it < 15; ++it) {
    conduct(u, v, k, dt);
    conduct(v, u, k, dt);
    for (int i = 0; i < N * N; ++i)
      g[i] = 1.0f + u[i] / 100.0f;
  }
  float lowest = u[0];
  double product = 1.0;
  for (int i = 0; i < N * N; ++i) {
    lowest = u[i] < lowest ? u[i] : lowest;
    product *= (double)g[i];
  }
  printf("min %a product %.9e\n", lowest, product);
  for (int x = 0; x < N; ++x)
    printf("%s%.6g", x ? " " : "", u[x + N * (N / 2)]);
  printf("\n");
  free(u);
  free(v);
  free(k);
  free(g);
  return 0;
}
