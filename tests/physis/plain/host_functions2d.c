/* host_functions2d.c in plain C: reads outside the grid 0; the sum of the float grid combined
 * in double (as stencilc's reductions do) and converted to float. The final values are at least
 * 2^-4 in magnitude (multiples of 2^-27) and their sum below 2^10, so the double sum is exact
 * whatever the order of combination, as on every target and number of ranks. */
#include <stdio.h>

#define N 32

static float at(const float *g, int x, int y) {
  return x < 0 || x >= N || y < 0 || y >= N ? 0.0f : g[x + N * y];
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

static void smooth(const float *in, float *out, float w) {
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x) {
      float wh = w * 0.5f;
      float side = at(in, x - 1, y) + at(in, x + 1, y);
      float updown = at(in, x, y - 1) + at(in, x, y + 1);
      float a = (1.0f - wh) * at(in, x, y) + wh * 0.25f * (side + updown);
      out[x + N * y] = x > 0 ? clampf(a, 0.0f, 1.0f) : clampf(2.0f * a, -1.0f, 1.0f);
    }
}

int main(void) {
  float a[N * N], b[N * N];
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      a[x + N * y] = (float)((x * 7 + y * 13) % 23) / 11.0f - 0.5f;
  for (int i = 0; i < N * N; ++i)
    b[i] = 0.125f * (float)(i % 9) - 0.5f;
  float w = 0.8f;
  for (int it = 0; it < 5; ++it) {
    smooth(a, b, w);
    smooth(b, a, w);
  }
  double acc = 0.0;
  for (int i = 0; i < N * N; ++i)
    acc += (double)a[i];
  printf("sum %a\n", (float)acc);
  for (int y = 0; y < N; y += 5) {
    printf("row %d:", y);
    for (int x = 0; x < N; x += 3)
      printf(" %a", a[x + N * y]);
    printf("\n");
  }
  return 0;
}
