/* A kernel dividing by zero at one cell (x = 29, on the last of 4 ranks): under mpirun the
 * job ends with one line naming the kernel and a non-zero status, never a hang. */
#include <stdio.h>

#include "physis/physis.h"

#define N 32

void ratio(const int x, PSGrid1DInt a, PSGrid1DInt b) { PSGridEmit(b, 100 / (PSGridGet(a, x) - 29)); }

int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DInt a = PSGrid1DIntNew(N), b = PSGrid1DIntNew(N);
  PSDomain1D d = PSDomain1DNew(0, N);
  int buf[N];
  for (int x = 0; x < N; ++x)
    buf[x] = x;
  PSGridCopyin(a, buf);
  PSStencilRun(PSStencilMap(ratio, d, a, b), 1);
  PSGridCopyout(b, buf);
  printf("%d\n", buf[0]);
  PSFinalize();
  return 0;
}
