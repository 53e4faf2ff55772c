/* A whole Physis program (see host_heat3d.c) whose kernel calls functions of the program
 * (Physis inlines them): a weighted average read through a function taking the grid, a clamp
 * with if/else, a function called inside ?: (the column x = 0 clamped to [-1, 1] after
 * doubling, the others to [0, 1]). The host fills both grids with values on both sides of the
 * clamps; after the run the sum of a float grid (combined in double, converted to float) is
 * printed, and the grid copied out, in hexadecimal. */
#include <stdio.h>

#include "physis/physis.h"

#define N 32

static float clampf(float v, float lo, float hi) {
  float r = v;
  if (v < lo)
    r = lo;
  else if (v > hi)
    r = hi;
  return r;
}

static float average(PSGrid2DFloat g, int x, int y, float w) {
  float side = PSGridGet(g, x - 1, y) + PSGridGet(g, x + 1, y);
  float updown = PSGridGet(g, x, y - 1) + PSGridGet(g, x, y + 1);
  return (1.0f - w) * PSGridGet(g, x, y) + w * 0.25f * (side + updown);
}

void smooth(const int x, const int y, PSGrid2DFloat in, PSGrid2DFloat out, float w) {
  float a = average(in, x, y, w * 0.5f);
  PSGridEmit(out, x > 0 ? clampf(a, 0.0f, 1.0f) : clampf(2.0f * a, -1.0f, 1.0f));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float h[N * N];
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      h[x + N * y] = (float)((x * 7 + y * 13) % 23) / 11.0f - 0.5f;
  PSGridCopyin(a, h);
  for (int i = 0; i < N * N; ++i)
    h[i] = 0.125f * (float)(i % 9) - 0.5f;
  PSGridCopyin(b, h);
  float w = 0.8f;
  PSStencilRun(PSStencilMap(smooth, d, a, b, w), PSStencilMap(smooth, d, b, a, w), 5);
  float s;
  PSReduce(&s, PS_SUM, a);
  PSGridCopyout(a, h);
  printf("sum %a\n", s);
  for (int y = 0; y < N; y += 5) {
    printf("row %d:", y);
    for (int x = 0; x < N; x += 3)
      printf(" %a", h[x + N * y]);
    printf("\n");
  }
  PSFinalize();
  return 0;
}
