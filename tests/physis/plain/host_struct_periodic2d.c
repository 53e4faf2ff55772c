/* host_struct_periodic2d.c in plain C: periodic reads wrap around the torus, the shifted copy
 * reads 0 outside the grid; g to h, h to g, the copy and the census, 6 times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 12
#define H 10

struct Cell {
  int alive[2];
  float heat;
  double age;
};

static const struct Cell *wrap(const struct Cell *g, int x, int y) {
  return &g[(x + W) % W + W * ((y + H) % H)];
}

static void step(const struct Cell *g, struct Cell *h) {
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const struct Cell *e = &g[x + W * y];
      for (int i = 0; i < 2; ++i) {
        int n = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            n = n + wrap(g, x + dx, y + dy)->alive[i];
        int self = e->alive[i];
        n = n - self;
        int other = e->alive[0] + e->alive[1] - self;
        h[x + W * y].alive[i] = (n == 3 || (self == 1 && n == 2 && other == 0)) ? 1 : 0;
      }
      float c = e->heat;
      float warm = (float)(e->alive[0] + e->alive[1]);
      h[x + W * y].heat = c + 0.375f * (wrap(g, x - 1, y)->heat - c) +
                          0.125f * (wrap(g, x, y + 1)->heat - c) + 0.0625f * warm;
      double age = e->age;
      h[x + W * y].age = warm > 0.0f ? age + 1.0 : age * 0.5;
    }
}

static void board(const struct Cell *c) {
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      const struct Cell *e = &c[x + W * y];
      putchar(e->alive[0] ? (e->alive[1] ? '@' : '#') : (e->alive[1] ? 'o' : '.'));
    }
    putchar('\n');
  }
}

int main(void) {
  struct Cell *g = (struct Cell *)calloc(W * H, sizeof(struct Cell));
  struct Cell *h = (struct Cell *)calloc(W * H, sizeof(struct Cell));
  struct Cell *s = (struct Cell *)calloc(W * H, sizeof(struct Cell));
  int *p = (int *)calloc(W * H, sizeof(int));
  const int glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (int i = 0; i < 5; ++i)
    g[glider[i][0] + W * glider[i][1]].alive[0] = 1;
  for (int x = 6; x < 9; ++x)
    g[x + W * 6].alive[1] = 1;
  g[10 + W * 2].alive[1] = g[11 + W * 2].alive[1] = 1;
  g[10 + W * 3].alive[1] = g[11 + W * 3].alive[1] = 1;
  for (int i = 0; i < W * H; ++i) {
    g[i].heat = (float)((i * 7) % 9) * 0.25f;
    g[i].age = (double)(i % 3);
  }
  memcpy(h, g, sizeof(struct Cell) * W * H);
  memcpy(s, g, sizeof(struct Cell) * W * H);
  for (int it = 0; it < 6; ++it) {
    step(g, h);
    step(h, g);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        struct Cell zero = {{0, 0}, 0.0f, 0.0};
        s[x + W * y] = (x + 1 < W && y - 1 >= 0) ? g[x + 1 + W * (y - 1)] : zero;
      }
    for (int i = 0; i < W * H; ++i)
      p[i] = g[i].alive[0] + 2 * g[i].alive[1];
  }
  long total = 0;
  int most = p[0];
  for (int i = 0; i < W * H; ++i) {
    total += p[i];
    most = p[i] > most ? p[i] : most;
  }
  printf("census %ld max %d\n", total, most);
  board(g);
  for (int x = 0; x < W; ++x)
    printf("%s%a", x ? " " : "", g[x + W * 4].heat);
  printf("\n");
  for (int x = 0; x < W; ++x)
    printf("%s%a", x ? " " : "", g[x + W * 6].age);
  printf("\n");
  board(s);
  printf("shifted %a %a\n", s[3 + W * 5].heat, s[0 + W * 0].age);
  free(g);
  free(h);
  free(s);
  free(p);
  return 0;
}
