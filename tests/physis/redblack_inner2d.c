/* Red-black Gauss-Seidel on the inner cells of a grid (PSStencilMapRedBlack over a domain that
 * leaves a frame of one cell, and two on the high x side): the frame holds the boundary values
 * the host would copy in and is never written; each colour is that of the cell's absolute
 * coordinates, so the domain starting at 1 begins its rows on the other colour. */
#include "physis/physis.h"

#define NX 27
#define NY 20

void relax(const int x, const int y, PSGrid2DDouble u, PSGrid2DDouble f, double h2) {
  double nb = PSGridGet(u, x - 1, y) + PSGridGet(u, x + 1, y) + PSGridGet(u, x, y - 1) +
              PSGridGet(u, x, y + 1);
  PSGridEmit(u, 0.25 * (nb - h2 * PSGridGet(f, x, y)));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, NX, NY);
  PSGrid2DDouble u = PSGrid2DDoubleNew(NX, NY);
  PSGrid2DDouble f = PSGrid2DDoubleNew(NX, NY);
  PSDomain2D inner = PSDomain2DNew(1, NX - 2, 1, NY - 1);
  const double h = 1.0 / (NX + 1);
  double h2 = h * h;
  PSStencil s = PSStencilMapRedBlack(relax, inner, u, f, h2);
  PSStencilRun(s, 15);
  double total;
  PSReduce(&total, PS_SUM, u);
  PSFinalize();
  return 0;
}
