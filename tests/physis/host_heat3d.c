/* A whole Physis program, host code included: `stencilc build` keeps its main() (tests/e2e
 * physis_host.sh runs it against plain/host_heat3d.c, the same computation in plain C). The
 * initial state is copied in, two maps ping-pong for 12 iterations, the result is copied out,
 * written to a file and summarised on stdout. */
#include <stdio.h>
#include <stdlib.h>

#include "physis/physis.h"

#define NX 20
#define NY 12
#define NZ 10

void heat(const int x, const int y, const int z, PSGrid3DFloat u, PSGrid3DFloat v, float c0,
          float c1) {
  float s = PSGridGet(u, x - 1, y, z) + PSGridGet(u, x + 1, y, z) + PSGridGet(u, x, y - 1, z) +
            PSGridGet(u, x, y + 1, z) + PSGridGet(u, x, y, z - 1) + PSGridGet(u, x, y, z + 1);
  PSGridEmit(v, c0 * PSGridGet(u, x, y, z) + c1 * s);
}

int main(int argc, char *argv[]) {
  PSInit(&argc, &argv, 3, NX, NY, NZ);
  PSGrid3DFloat u = PSGrid3DFloatNew(NX, NY, NZ);
  PSGrid3DFloat v = PSGrid3DFloatNew(NX, NY, NZ);
  PSDomain3D d = PSDomain3DNew(0, NX, 0, NY, 0, NZ);
  const size_t n = (size_t)NX * NY * NZ;
  float *buf = (float *)malloc(sizeof(float) * n);
  for (size_t i = 0; i < n; ++i)
    buf[i] = (float)((i * 7919) % 101) / 101.0f;
  PSGridCopyin(u, buf);
  PSGridCopyin(v, buf);
  float c0 = 0.4f, c1 = 0.1f;
  PSStencilRun(PSStencilMap(heat, d, u, v, c0, c1), PSStencilMap(heat, d, v, u, c0, c1), 12);
  float hottest, coldest;
  PSReduce(&hottest, PS_MAX, u);
  PSReduce(&coldest, PS_MIN, u);
  PSGridCopyout(u, buf);
  FILE *out = fopen("heat3d.out", "wb");
  if (!out || fwrite(buf, sizeof(float), n, out) != n) {
    fprintf(stderr, "cannot write heat3d.out\n");
    return 1;
  }
  fclose(out);
  printf("max %a min %a\n", hottest, coldest);
  printf("u[0,0,0] = %.9g, u[10,6,5] = %.9g\n", buf[0], buf[10 + NX * (6 + NY * 5)]);
  PSGridFree(u);
  PSGridFree(v);
  PSFinalize();
  free(buf);
  return 0;
}
