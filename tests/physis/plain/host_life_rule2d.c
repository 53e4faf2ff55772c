/* host_life_rule2d.c in plain C: 16 generations on a torus, a cell alive when positive. */
#include <stdio.h>

#define W 40
#define H 24

static int alive(const int *a, int x, int y) { return a[(x + W) % W + W * ((y + H) % H)] > 0; }

static void generation(const int *a, int *b) {
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dx != 0 || dy != 0)
            n += alive(a, x + dx, y + dy);
      b[x + W * y] = n == 3 || (n == 2 && alive(a, x, y)) ? 1 : 0;
    }
}

static int sum(const int *a) {
  int s = 0;
  for (int i = 0; i < W * H; ++i)
    s += a[i];
  return s;
}

int main(void) {
  int a[W * H], b[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      a[x + W * y] = b[x + W * y] = (x * 5 + y * 3 + x * y) % 7 < 3 ? (x + y) % 4 - 1 : 0;
  printf("seeded: sum %d\n", sum(a));
  for (int it = 0; it < 8; ++it) {
    generation(a, b);
    generation(b, a);
  }
  printf("population %d\n", sum(a));
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x)
      putchar(a[x + W * y] ? '#' : '.');
    putchar('\n');
  }
  return 0;
}
