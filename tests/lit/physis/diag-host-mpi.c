// RUN: not %stencilc build %s --target mpi-openmp -o %t 2>&1 | FileCheck %s
// A Physis program's own main() is not built for an MPI target yet (its host code would run on
// every rank); verify of its stencils works there.
// CHECK: error: {{.*}}diag-host-mpi.c: building a Physis program's host code for mpi-openmp is not supported yet
#include "physis/physis.h"
#define N 8
void copy(const int x, PSGrid1DFloat a, PSGrid1DFloat b) { PSGridEmit(b, PSGridGet(a, x)); }
int main(int argc, char **argv) {
  PSInit(&argc, &argv, 1, N);
  PSGrid1DFloat a = PSGrid1DFloatNew(N), b = PSGrid1DFloatNew(N);
  PSStencilRun(PSStencilMap(copy, PSDomain1DNew(0, N), a, b), 3);
  PSFinalize();
  return 0;
}
