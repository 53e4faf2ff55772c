// RUN: not %stencilc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
// stencilc's own checks (here the race of reading a neighbour of the grid being written) are
// located in the C file as well.
#include "physis/physis.h"
#define N 8
void k(const int x, const int y, PSGrid2DFloat a, PSGrid2DFloat b, float s) {
// CHECK: {{^.*}}diag-race.c:[[@LINE+1]]:17: error: race: kernel 'k' writes grid 'a' and reads it at a neighbouring point; write to another grid and swap, or update in place 'on red' / 'on black'{{$}}
  PSGridEmit(a, PSGridGet(a, x + 1, y));
}
#include "Inputs/main2d.h"
