/* A Physis program with three different PSStencilRun calls, as programs that set up their
 * fields with a stencil and post-process with another do: a seeding map run once, then in a
 * host loop the relaxation pair (the main run block: the deepest and longest run) and a
 * sharpening into a third grid, reduced and copied out between runs. stencilc makes the other
 * runs named blocks (`run seed: 1 { ... }`, `run sharpen: 1 { ... }`) that the host code calls
 * where it called PSStencilRun. */
#include <stdio.h>

#include "physis/physis.h"

#define NX 20
#define NY 14
#define ROUNDS 3

void seed(const int x, const int y, PSGrid2DFloat a) {
  PSGridEmit(a, (float)((x * 7 + y * 3) % 11) / 11.0f);
}

void relax(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float w) {
  float c = PSGridGet(a, x, y);
  PSGridEmit(b, c + w * (PSGridGet(a, x - 1, y) + PSGridGet(a, x + 1, y) +
                         PSGridGet(a, x, y - 1) + PSGridGet(a, x, y + 1) - 4.0f * c));
}

void sharpen(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat c) {
  PSGridEmit(c, 1.5f * PSGridGet(a, x, y) -
                    0.125f * (PSGridGet(a, x - 1, y) + PSGridGet(a, x + 1, y) +
                              PSGridGet(a, x, y - 1) + PSGridGet(a, x, y + 1)));
}

static void show(const char *what, int round, const float *h) {
  double s = 0;
  for (int i = 0; i < NX * NY; ++i)
    s += (double)h[i] * (double)(1 + i % 5);
  printf("%s %d %a %a %a\n", what, round, s, (double)h[NX + 1], (double)h[NX * (NY / 2) + 3]);
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DFloat a = PSGrid2DFloatNew(NX, NY), b = PSGrid2DFloatNew(NX, NY);
  PSGrid2DFloat c = PSGrid2DFloatNew(NX, NY);
  PSDomain2D d = PSDomain2DNew(0, NX, 0, NY);
  static float h[NX * NY];
  PSStencil init = PSStencilMap(seed, d, a);
  PSStencil s1 = PSStencilMap(relax, d, a, b, 0.125f);
  PSStencil s2 = PSStencilMap(relax, d, b, a, 0.125f);
  PSStencil post = PSStencilMap(sharpen, d, a, c);
  PSStencilRun(init, 1);
  PSGridCopyout(a, h);
  show("seeded", 0, h);
  for (int r = 1; r <= ROUNDS; ++r) {
    PSStencilRun(s1, s2, 2);
    float top;
    PSReduce(&top, PS_MAX, a);
    printf("max %d %a\n", r, (double)top);
    PSStencilRun(post, 1);
    PSGridCopyout(c, h);
    show("sharpened", r, h);
  }
  PSGridCopyout(a, h);
  show("relaxed", ROUNDS, h);
  PSGridFree(a);
  PSGridFree(b);
  PSGridFree(c);
  PSFinalize();
  return 0;
}
