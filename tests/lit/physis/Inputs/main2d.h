/* A correct main() mapping a 2D kernel k(a -> b, scalar s), for the tests whose error is in
 * the kernel. */
int main(int argc, char **argv) {
  PSGrid2DFloat a = PSGrid2DFloatNew(N, N), b = PSGrid2DFloatNew(N, N);
  PSDomain2D d = PSDomain2DNew(0, N, 0, N);
  float s = 1.0f;
  PSStencilRun(PSStencilMap(k, d, a, b, s), 3);
  return 0;
}
