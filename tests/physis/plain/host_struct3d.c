/* host_struct3d.c in plain C: the same struct, the same sweeps, the same output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 20
#define NY 14
#define NZ 9
#define STEPS 5

struct Cell {
  float a;
  float b;
  double age;
  int hits[2];
};

static size_t at(int x, int y, int z) { return (size_t)x + (size_t)NX * ((size_t)y + (size_t)NY * z); }

int main(void) {
  size_t n = (size_t)NX * NY * NZ, i;
  struct Cell *buf = (struct Cell *)malloc(sizeof(struct Cell) * n);
  struct Cell *g = (struct Cell *)malloc(sizeof(struct Cell) * n);
  struct Cell *h = (struct Cell *)malloc(sizeof(struct Cell) * n);
  for (i = 0; i < n; ++i) {
    buf[i].a = (float)((i * 7) % 13) / 13.0f;
    buf[i].b = (float)((i * 3) % 5) / 5.0f;
    buf[i].age = (double)(i % 4);
    buf[i].hits[0] = (int)(i % 3);
    buf[i].hits[1] = 0;
  }
  memcpy(g, buf, sizeof(struct Cell) * n);
  memcpy(h, buf, sizeof(struct Cell) * n);
  const float rate = 0.1f;
  for (int s = 0; s < STEPS; ++s) {
    for (int z = 1; z < NZ - 1; ++z)
      for (int y = 1; y < NY - 1; ++y)
        for (int x = 1; x < NX - 1; ++x) {
          float a = g[at(x, y, z)].a;
          float b = g[at(x, y, z)].b;
          float lap = g[at(x + 1, y, z)].a + g[at(x - 1, y, z)].a + g[at(x, y + 1, z)].a +
                      g[at(x, y - 1, z)].a + g[at(x, y, z + 1)].a + g[at(x, y, z - 1)].a -
                      6.0f * a;
          h[at(x, y, z)].a = a + rate * lap - a * b * b;
          h[at(x, y, z)].b = b + a * b * b * 0.5f - 0.01f * b;
          h[at(x, y, z)].age = g[at(x, y, z)].age + 0.5;
          for (int k = 0; k < 2; ++k)
            h[at(x, y, z)].hits[k] = g[at(x, y, z)].hits[k] + (a > 0.5f ? k + 1 : 0);
        }
    memcpy(g, h, sizeof(struct Cell) * n);
  }
  memcpy(buf, g, sizeof(struct Cell) * n);
  double sa = 0, sb = 0, sage = 0;
  long hits = 0;
  for (i = 0; i < n; ++i) {
    sa += buf[i].a;
    sb += buf[i].b;
    sage += buf[i].age;
    hits += buf[i].hits[0] * 3 + buf[i].hits[1];
  }
  printf("a %a b %a age %a hits %ld\n", sa, sb, sage, hits);
  printf("cell %a %a %a %d %d\n", buf[NX + 1 + NX * NY].a, buf[NX + 1 + NX * NY].b,
         buf[NX + 1 + NX * NY].age, buf[NX + 1 + NX * NY].hits[0], buf[NX + 1 + NX * NY].hits[1]);
  free(g);
  free(h);
  free(buf);
  return 0;
}
