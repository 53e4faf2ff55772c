/* host_crowd3d.c in plain C: the crowding rule on a torus and the per-cell tally. */
#include <stdio.h>
#include <stdlib.h>

#define NX 9
#define NY 8
#define NZ 7
#define AT(x, y, z) ((((x) + NX) % NX) + NX * ((((y) + NY) % NY) + NY * (((z) + NZ) % NZ)))

static void vote(const int *a, int *b) {
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        int n = a[AT(x - 1, y, z)] + a[AT(x + 1, y, z)] + a[AT(x, y - 1, z)] + a[AT(x, y + 1, z)] +
                a[AT(x, y, z - 1)] + a[AT(x, y, z + 1)];
        b[AT(x, y, z)] = n > 3 ? 0 : n < 2 ? 1 - a[AT(x, y, z)] : a[AT(x, y, z)];
      }
}

static void tally(const int *a, const long *c, long *d) {
  for (int i = 0; i < NX * NY * NZ; ++i)
    d[i] = c[i] + 1073741824L * a[i] + 1;
}

int main(void) {
  int *a = malloc(sizeof(int) * NX * NY * NZ), *b = malloc(sizeof(int) * NX * NY * NZ);
  long *c = malloc(sizeof(long) * NX * NY * NZ), *d = malloc(sizeof(long) * NX * NY * NZ);
  for (int i = 0; i < NX * NY * NZ; ++i) {
    a[i] = (i * 37 + i / 5) % 7 < 3 ? 1 : 0;
    c[i] = d[i] = 0;
  }
  for (int it = 0; it < 6; ++it) {
    vote(a, b);
    tally(b, c, d);
    vote(b, a);
    tally(a, d, c);
  }
  long total = 0, least = c[0];
  int most = a[0];
  for (int i = 0; i < NX * NY * NZ; ++i) {
    total += c[i];
    least = c[i] < least ? c[i] : least;
    most = a[i] > most ? a[i] : most;
  }
  printf("total %ld most %d least %ld\n", total, most, least);
  for (int x = 0; x < NX; ++x)
    printf("%s%ld", x ? " " : "", c[x + NX * (NY / 2 + NY * (NZ / 2))]);
  printf("\n");
  free(a);
  free(b);
  free(c);
  free(d);
  return 0;
}
