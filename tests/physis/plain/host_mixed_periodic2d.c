/* host_mixed_periodic2d.c in plain C: x wraps around, y reads 0 past the edges. */
#include <stdio.h>

#define NX 11
#define NY 6

static float wrapped(const float *u, int x, int y) { return u[(x + NX) % NX + NX * y]; }
static float edged(const float *u, int x, int y) {
  return (y < 0 || y >= NY) ? 0.0f : u[x + NX * y];
}

static void step(const float *u, float *v) {
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x) {
      float upwind = wrapped(u, x - 1, y) - u[x + NX * y];
      float across = edged(u, x, y - 1) + edged(u, x, y + 1) - 2.0f * u[x + NX * y];
      v[x + NX * y] = u[x + NX * y] + 0.4f * upwind + 0.1f * across;
    }
}

int main(void) {
  float u[NX * NY], v[NX * NY];
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      u[x + NX * y] = (x >= NX - 3) ? 1.0f + 0.25f * y : 0.0f;
  for (int i = 0; i < 9; ++i) {
    step(u, v);
    step(v, u);
  }
  for (int y = 0; y < NY; ++y) {
    for (int x = 0; x < NX; ++x)
      printf(" %a", u[x + NX * y]);
    putchar('\n');
  }
  return 0;
}
