/* A whole Physis program (see host_heat3d.c) that calls PSReduce wherever its host code likes:
 * before the run, after each PSStencilRun of a host loop, and after a PSGridCopyin -- each
 * gives the grid's value at that moment. The sums of the 64-bit grid are past 2^53, where a
 * double would round them: stencilc reduces integer grids exactly, in 64 bits. The float
 * grids' min and max are read into floats and printed in hexadecimal. */
#include <stdio.h>

#include "physis/physis.h"

#define W 12
#define H 10

void grow(const int x, const int y, PSGrid2DLong a, PSGrid2DLong b) {
  PSGridEmit(b, PSGridGet(a, x, y) + (PSGridGet(a, x - 1, y) + PSGridGet(a, x + 1, y)) / 4 + 1);
}

void cool(const int x, const int y, PSGrid2DFloat f, PSGrid2DFloat g) {
  PSGridEmit(g, 0.5f * PSGridGet(f, x, y) + 0.25f * (PSGridGet(f, x, y - 1) + PSGridGet(f, x, y + 1)));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, W, H);
  PSGrid2DLong a = PSGrid2DLongNew(W, H), b = PSGrid2DLongNew(W, H);
  PSGrid2DFloat f = PSGrid2DFloatNew(W, H), g = PSGrid2DFloatNew(W, H);
  PSDomain2D d = PSDomain2DNew(0, W, 0, H);
  long big[W * H];
  float heat[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      big[x + W * y] = (1L << 46) + 12345L * x + 977L * y;
      heat[x + W * y] = (float)((x * 7 + y * 3) % 11) - 5.0f;
    }
  PSGridCopyin(a, big);
  PSGridCopyin(b, big);
  PSGridCopyin(f, heat);
  PSGridCopyin(g, heat);
  long first;
  PSReduce(&first, PS_SUM, a);
  printf("before the run: sum %ld\n", first);
  PSStencil m1 = PSStencilMap(grow, d, a, b), m2 = PSStencilMap(grow, d, b, a);
  PSStencil m3 = PSStencilMap(cool, d, f, g), m4 = PSStencilMap(cool, d, g, f);
  for (int i = 0; i < 3; ++i) {
    PSStencilRun(m1, m2, m3, m4, 2);
    long total, top;
    float lo, hi;
    PSReduce(&total, PS_SUM, a);
    PSReduce(&top, PS_MAX, b);
    PSReduce(&lo, PS_MIN, f);
    PSReduce(&hi, PS_MAX, g);
    printf("after run %d: sum %ld max %ld min %a max %a\n", i, total, top, lo, hi);
  }
  PSGridCopyout(a, big);
  for (int c = 0; c < W * H; ++c)
    big[c] = -(big[c] / 3);
  PSGridCopyin(a, big);
  long again, low;
  PSReduce(&again, PS_SUM, a);
  PSReduce(&low, PS_MIN, a);
  printf("after copying in: sum %ld min %ld\n", again, low);
  PSGridFree(a);
  PSGridFree(b);
  PSGridFree(f);
  PSGridFree(g);
  PSFinalize();
  return 0;
}
