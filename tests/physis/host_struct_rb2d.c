/* A whole Physis program on a 2D struct grid: red-black Gauss-Seidel (PSStencilMapRedBlack)
 * updating member u of struct Node in place, with the conductivity k, a read-only member of the
 * same struct, as the coefficient, and the source f a member too; a second kernel fills a
 * separate double grid with the local residual and counts, on an int grid, the sweeps where it
 * stayed large (a map of three grids); the residual's largest and smallest values and the count
 * reduced between host iterations, the struct grid copied out and printed bit for bit. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define N 18
#define SWEEPS 4

struct Node {
  double u;
  double k;
  float f;
};

DeclareGrid2D(Node, struct Node);

void relax(const int x, const int y, PSGrid2DNode g, double h2) {
  double kc = PSGridGet(g, x, y).k;
  double s = PSGridGet(g, x - 1, y).u * PSGridGet(g, x - 1, y).k +
             PSGridGet(g, x + 1, y).u * PSGridGet(g, x + 1, y).k +
             PSGridGet(g, x, y - 1).u * PSGridGet(g, x, y - 1).k +
             PSGridGet(g, x, y + 1).u * PSGridGet(g, x, y + 1).k;
  PSGridEmitUtype(g.u, (s + h2 * PSGridGet(g, x, y).f) / (4.0 * kc));
}

void residual(const int x, const int y, PSGrid2DNode g, PSGrid2DDouble r, PSGrid2DInt c, double h2,
              double tol) {
  double kc = PSGridGet(g, x, y).k;
  double lap = PSGridGet(g, x - 1, y).u * PSGridGet(g, x - 1, y).k +
               PSGridGet(g, x + 1, y).u * PSGridGet(g, x + 1, y).k +
               PSGridGet(g, x, y - 1).u * PSGridGet(g, x, y - 1).k +
               PSGridGet(g, x, y + 1).u * PSGridGet(g, x, y + 1).k -
               4.0 * kc * PSGridGet(g, x, y).u;
  double res = lap + h2 * PSGridGet(g, x, y).f;
  PSGridEmit(r, res < 0.0 ? -res : res);
  PSGridEmit(c, PSGridGet(c, x, y) + (res > tol || res < -tol));
}

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 2, N, N);
  PSGrid2DNode g = PSGrid2DNodeNew(N, N);
  PSGrid2DDouble r = PSGrid2DDoubleNew(N, N);
  PSGrid2DInt c = PSGrid2DIntNew(N, N);
  PSDomain2D all = PSDomain2DNew(0, N, 0, N);
  struct Node *host = (struct Node *)malloc(sizeof(struct Node) * N * N);
  int *count = (int *)calloc(N * N, sizeof(int));
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x) {
      host[x + N * y].u = (double)((x * 5 + y * 3) % 7) / 8.0;
      host[x + N * y].k = 1.0 + 0.25 * ((x + 2 * y) % 5);
      host[x + N * y].f = (x > N / 3 && x < 2 * N / 3 && y > N / 4) ? 1.5f : -0.25f;
    }
  PSGridCopyin(g, host);
  PSGridCopyin(c, count);
  const double h = 1.0 / (N + 1);
  const double h2 = h * h;
  PSStencil rb = PSStencilMapRedBlack(relax, all, g, h2);
  PSStencil res = PSStencilMap(residual, all, g, r, c, h2, 0.01);
  for (int round = 0; round < 3; ++round) {
    PSStencilRun(rb, res, SWEEPS);
    double hi, lo;
    long large;
    PSReduce(&hi, PS_MAX, r);
    PSReduce(&lo, PS_MIN, r);
    PSReduce(&large, PS_SUM, c);
    printf("round %d: residual max %a min %a, large %ld\n", round, hi, lo, large);
  }
  PSGridCopyout(g, host);
  PSGridCopyout(c, count);
  for (int y = 0; y < N; y += 5) {
    for (int x = 0; x < N; x += 3)
      printf("%s%a", x ? " " : "", host[x + N * y].u);
    printf("\n");
  }
  printf("k %a f %a count %d %d\n", host[7 + N * 9].k, host[7 + N * 9].f, count[1 + N],
         count[N / 2 + N * (N / 2)]);
  PSGridFree(g);
  PSGridFree(r);
  PSGridFree(c);
  PSFinalize();
  free(host);
  free(count);
  return 0;
}
