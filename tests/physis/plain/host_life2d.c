/* host_life2d.c in plain C: 16 generations on a torus. */
#include <stdio.h>
#include <string.h>

#define W 12
#define H 10

static int at(const int *a, int x, int y) { return a[(x + W) % W + W * ((y + H) % H)]; }

static void generation(const int *a, int *b) {
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int n = at(a, x - 1, y - 1) + at(a, x, y - 1) + at(a, x + 1, y - 1) + at(a, x - 1, y) +
              at(a, x + 1, y) + at(a, x - 1, y + 1) + at(a, x, y + 1) + at(a, x + 1, y + 1);
      b[x + W * y] = (n == 3 || (at(a, x, y) == 1 && n == 2)) ? 1 : 0;
    }
}

int main(void) {
  int a[W * H] = {0}, b[W * H] = {0};
  const int glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (int i = 0; i < 5; ++i)
    a[glider[i][0] + W * glider[i][1]] = 1;
  for (int x = 7; x < 10; ++x)
    a[x + W * 6] = 1;
  for (int it = 0; it < 8; ++it) {
    generation(a, b);
    generation(b, a);
  }
  int population = 0;
  for (int i = 0; i < W * H; ++i)
    population += a[i];
  printf("population %d\n", population);
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x)
      putchar(a[x + W * y] ? '#' : '.');
    putchar('\n');
  }
  return 0;
}
