/* A correct 2D kernel k(a -> b, scalar s), for the tests whose error is in main(). */
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
  PSGridEmit(b, s * PSGridGet(a, x, y));
}
