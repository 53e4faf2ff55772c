// RUN: %stencilc check %s --print-ir | FileCheck %s --check-prefix=IR
// RUN: rm -rf %t && %stencilc emit %s -o %t > /dev/null
// RUN: FileCheck %s --check-prefix=HOST --input-file=%t/translate_runs_host.c
// PSStencilRun with other stencils makes another run block. The main block is the one run
// deepest in main()'s loops and conditions, then the one with the most iterations, then the
// first; the others are named after their first kernel (the maps' kernels are k for `once`,
// k_2 and k_3 for s1 and s2) and run where the host code calls them
// (__stencilc_ps_run_block). The same stencils again (the same variables, the same order) run
// the same block, each call with its own count; a PSReduce after a run goes to the main block.
#include "Inputs/kernel2d.h"
#define STEPS 10
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  PSStencil s1 = PSStencilMap(k, d, a, b, 1.0f);
  PSStencil s2 = PSStencilMap(k, d, b, a, 1.0f);
  PSStencil once = PSStencilMap(k, d, a, b, 0.5f);
// HOST: {{^  }}__stencilc_ps_run_block("k", 1);
  PSStencilRun(once, 1);
// HOST: {{^  }}__stencilc_ps_run_block("k", 2);
  PSStencilRun(once, 2);
  for (int i = 0; i < 3; ++i) {
// HOST: {{^    }}__stencilc_ps_run(STEPS);
    PSStencilRun(s1, s2, STEPS);
    float m;
    PSReduce(&m, PS_MAX, a);
  }
// HOST: {{^  }}__stencilc_ps_run_block("k_3", 1);
  PSStencilRun(s2, s1, 1);
  return 0;
}
// IR: {{^}}reduce m = max(a[+0,+0]){{$}}
// IR-NEXT: {{^}}run STEPS{{$}}
// IR-NEXT: {{^}}  k_2{{$}}
// IR-NEXT: {{^}}  k_3{{$}}
// IR-NEXT: {{^}}  m{{$}}
// IR-NEXT: {{^}}run k: 1{{$}}
// IR-NEXT: {{^}}  k{{$}}
// IR-NEXT: {{^}}run k_3: 1{{$}}
// IR-NEXT: {{^}}  k_3{{$}}
// IR-NEXT: {{^}}  k_2{{$}}
