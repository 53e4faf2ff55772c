/* host_paths2d.c in plain C: 24 sweeps of the path counts on 64-bit integers. */
#include <stdio.h>

#define W 14
#define H 9
#define P 4294967311L

static void paths(const long *a, long *b) {
  for (int y = 1; y < H; ++y)
    for (int x = 1; x < W; ++x)
      b[x + W * y] = (a[x - 1 + W * y] + a[x + W * (y - 1)] + 3 * a[x + W * y]) % P;
}

int main(void) {
  long a[W * H], b[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      a[x + W * y] = b[x + W * y] = (x == 0 || y == 0) ? 1000000 + 7 * x + 11 * y : 0;
  for (int i = 0; i < 12; ++i) {
    paths(a, b);
    paths(b, a);
  }
  long top = a[0], total = 0;
  for (int c = 0; c < W * H; ++c) {
    top = a[c] > top ? a[c] : top;
    total += a[c];
  }
  printf("max %ld sum %ld\n", top, total);
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x)
      printf(" %ld", a[x + W * y]);
    putchar('\n');
  }
  return 0;
}
