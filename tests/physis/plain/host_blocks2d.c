/* host_blocks2d.c in plain C: the seeding, then per round two relaxation pairs, the maximum, the
 * sharpening; the same output. */
#include <stdio.h>

#define NX 20
#define NY 14
#define ROUNDS 3

static float at(const float *g, int x, int y) {
  return x < 0 || x >= NX || y < 0 || y >= NY ? 0.0f : g[x + NX * y];
}

static void relax(const float *a, float *b, float w) {
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x) {
      float c = at(a, x, y);
      b[x + NX * y] = c + w * (at(a, x - 1, y) + at(a, x + 1, y) + at(a, x, y - 1) +
                               at(a, x, y + 1) - 4.0f * c);
    }
}

static void sharpen(const float *a, float *c) {
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      c[x + NX * y] = 1.5f * at(a, x, y) - 0.125f * (at(a, x - 1, y) + at(a, x + 1, y) +
                                                      at(a, x, y - 1) + at(a, x, y + 1));
}

static void show(const char *what, int round, const float *h) {
  double s = 0;
  for (int i = 0; i < NX * NY; ++i)
    s += (double)h[i] * (double)(1 + i % 5);
  printf("%s %d %a %a %a\n", what, round, s, (double)h[NX + 1], (double)h[NX * (NY / 2) + 3]);
}

int main(void) {
  static float a[NX * NY], b[NX * NY], c[NX * NY];
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      a[x + NX * y] = (float)((x * 7 + y * 3) % 11) / 11.0f;
  show("seeded", 0, a);
  for (int r = 1; r <= ROUNDS; ++r) {
    for (int it = 0; it < 2; ++it) {
      relax(a, b, 0.125f);
      relax(b, a, 0.125f);
    }
    float top = a[0];
    for (int i = 1; i < NX * NY; ++i)
      top = a[i] > top ? a[i] : top;
    printf("max %d %a\n", r, (double)top);
    sharpen(a, c);
    show("sharpened", r, c);
  }
  show("relaxed", ROUNDS, a);
  return 0;
}
