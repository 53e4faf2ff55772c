/* host_multigrid3d.c in plain C: the interior updated from a into b and from b into a (every
 * read stays inside the grid), the struct's members from before each sweep, then the totals
 * turned into longs over the whole grid; 3 times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 10
#define NY 8
#define NZ 6
#define AT(x, y, z) ((x) + NX * ((y) + NY * (z)))

struct Acc {
  float flux[3];
  double total;
  int visits;
};

static float lap(const float *u, int x, int y, int z) {
  float s = -6.0f * u[AT(x, y, z)];
  for (int d = -1; d <= 1; d += 2)
    s = s + u[AT(x + d, y, z)] + u[AT(x, y + d, z)] + u[AT(x, y, z + d)];
  return s;
}

static void update(const float *a, float *b, const double *k, const int *mask, const double *base,
                   struct Acc *s, float dt) {
  for (int z = 1; z < NZ - 1; ++z)
    for (int y = 1; y < NY - 1; ++y)
      for (int x = 1; x < NX - 1; ++x) {
        struct Acc *e = &s[AT(x, y, z)];
        float c = a[AT(x, y, z)];
        int on = mask[AT(x, y, z)];
        double w = k[AT(x, y, z)] * base[AT(x, y, 0)];
        float next = on != 0 ? c + dt * (float)w * lap(a, x, y, z) : c;
        double t = e->total;
        for (int i = 0; i < 3; ++i)
          t = t + 0.5 * e->flux[i];
        b[AT(x, y, z)] = next;
        for (int i = 0; i < 3; ++i)
          e->flux[i] = a[AT(x + i - 1, y, z)] - a[AT(x, y + i - 1, z - 1)];
        e->total = t + (double)next;
        e->visits = e->visits + on;
      }
}

int main(void) {
  size_t cells = (size_t)NX * NY * NZ;
  float *a = (float *)malloc(sizeof(float) * cells), *b = (float *)malloc(sizeof(float) * cells);
  double *k = (double *)malloc(sizeof(double) * cells);
  double *base = (double *)malloc(sizeof(double) * cells);
  int *mask = (int *)malloc(sizeof(int) * cells);
  long *n = (long *)calloc(cells, sizeof(long));
  struct Acc *s = (struct Acc *)calloc(cells, sizeof(struct Acc));
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        a[AT(x, y, z)] = (float)((x * 3 + y * 5 + z * 7) % 11) * 0.125f;
        mask[AT(x, y, z)] = (x + y + z) % 3 != 0;
      }
  memcpy(b, a, sizeof(float) * cells);
  for (size_t i = 0; i < cells; ++i) {
    k[i] = 0.5 + 0.125 * (double)(i % 4);
    base[i] = i < (size_t)NX * NY ? 0.25 + 0.0625 * (double)(i % 5) : -100.0;
    s[i].total = (double)(i % 7);
  }
  for (int it = 0; it < 3; ++it) {
    update(a, b, k, mask, base, s, 0.1f);
    update(b, a, k, mask, base, s, 0.1f);
    for (size_t i = 0; i < cells; ++i)
      n[i] = (long)(s[i].total * 1024.0) + s[i].visits;
  }
  float lo = a[0], hi = a[0];
  long sum = 0, top = n[0];
  for (size_t i = 0; i < cells; ++i) {
    lo = a[i] < lo ? a[i] : lo;
    hi = a[i] > hi ? a[i] : hi;
    sum += n[i];
    top = n[i] > top ? n[i] : top;
  }
  printf("a min %a max %a; n sum %ld max %ld\n", lo, hi, sum, top);
  for (int x = 0; x < NX; ++x)
    printf("%s%a", x ? " " : "", a[AT(x, NY / 2, NZ / 2)]);
  printf("\n");
  for (int y = 1; y < NY - 1; y += 2) {
    const struct Acc *e = &s[AT(4, y, 2)];
    printf("acc %a %a %a %a %d\n", e->flux[0], e->flux[1], e->flux[2], e->total, e->visits);
  }
  free(a);
  free(b);
  free(k);
  free(base);
  free(mask);
  free(n);
  free(s);
  return 0;
}
