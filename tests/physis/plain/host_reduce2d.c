/* host_reduce2d.c in plain C: the same sweeps, the sums in 64-bit integers, min and max. */
#include <stdio.h>

#define W 12
#define H 10

static long at_l(const long *a, int x, int y) {
  return x < 0 || x >= W || y < 0 || y >= H ? 0 : a[x + W * y];
}

static float at_f(const float *f, int x, int y) {
  return x < 0 || x >= W || y < 0 || y >= H ? 0.0f : f[x + W * y];
}

static void grow(const long *a, long *b) {
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      b[x + W * y] = at_l(a, x, y) + (at_l(a, x - 1, y) + at_l(a, x + 1, y)) / 4 + 1;
}

static void cool(const float *f, float *g) {
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      g[x + W * y] = 0.5f * at_f(f, x, y) + 0.25f * (at_f(f, x, y - 1) + at_f(f, x, y + 1));
}

static long sum(const long *a) {
  long s = 0;
  for (int c = 0; c < W * H; ++c)
    s += a[c];
  return s;
}

int main(void) {
  long a[W * H], b[W * H];
  float f[W * H], g[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      a[x + W * y] = b[x + W * y] = (1L << 46) + 12345L * x + 977L * y;
      f[x + W * y] = g[x + W * y] = (float)((x * 7 + y * 3) % 11) - 5.0f;
    }
  printf("before the run: sum %ld\n", sum(a));
  for (int i = 0; i < 3; ++i) {
    for (int s = 0; s < 2; ++s) {
      grow(a, b);
      grow(b, a);
      cool(f, g);
      cool(g, f);
    }
    long top = b[0];
    float lo = f[0], hi = g[0];
    for (int c = 0; c < W * H; ++c) {
      top = b[c] > top ? b[c] : top;
      lo = f[c] < lo ? f[c] : lo;
      hi = g[c] > hi ? g[c] : hi;
    }
    printf("after run %d: sum %ld max %ld min %a max %a\n", i, sum(a), top, lo, hi);
  }
  long low = 0;
  for (int c = 0; c < W * H; ++c) {
    a[c] = -(a[c] / 3);
    low = c == 0 || a[c] < low ? a[c] : low;
  }
  printf("after copying in: sum %ld min %ld\n", sum(a), low);
  return 0;
}
