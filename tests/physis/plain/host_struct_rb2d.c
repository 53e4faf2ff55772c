/* host_struct_rb2d.c in plain C: red cells ((x + y) even) then black ones, member u in place,
 * reads outside the grid 0; then the residual of every cell and the count of large ones. */
#include <stdio.h>
#include <stdlib.h>

#define N 18
#define SWEEPS 4

struct Node {
  double u;
  double k;
  float f;
};

static int in(int x, int y) { return x >= 0 && x < N && y >= 0 && y < N; }
static double U(const struct Node *g, int x, int y) { return in(x, y) ? g[x + N * y].u : 0.0; }
static double K(const struct Node *g, int x, int y) { return in(x, y) ? g[x + N * y].k : 0.0; }

int main(void) {
  struct Node *g = (struct Node *)malloc(sizeof(struct Node) * N * N);
  double *r = (double *)calloc(N * N, sizeof(double));
  int *count = (int *)calloc(N * N, sizeof(int));
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x) {
      g[x + N * y].u = (double)((x * 5 + y * 3) % 7) / 8.0;
      g[x + N * y].k = 1.0 + 0.25 * ((x + 2 * y) % 5);
      g[x + N * y].f = (x > N / 3 && x < 2 * N / 3 && y > N / 4) ? 1.5f : -0.25f;
    }
  const double h = 1.0 / (N + 1);
  const double h2 = h * h;
  const double tol = 0.01;
  for (int round = 0; round < 3; ++round) {
    for (int it = 0; it < SWEEPS; ++it) {
      for (int colour = 0; colour < 2; ++colour)
        for (int y = 0; y < N; ++y)
          for (int x = 0; x < N; ++x)
            if ((x + y) % 2 == colour) {
              double kc = K(g, x, y);
              double s = U(g, x - 1, y) * K(g, x - 1, y) + U(g, x + 1, y) * K(g, x + 1, y) +
                         U(g, x, y - 1) * K(g, x, y - 1) + U(g, x, y + 1) * K(g, x, y + 1);
              g[x + N * y].u = (s + h2 * g[x + N * y].f) / (4.0 * kc);
            }
      for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) {
          double kc = K(g, x, y);
          double lap = U(g, x - 1, y) * K(g, x - 1, y) + U(g, x + 1, y) * K(g, x + 1, y) +
                       U(g, x, y - 1) * K(g, x, y - 1) + U(g, x, y + 1) * K(g, x, y + 1) -
                       4.0 * kc * U(g, x, y);
          double res = lap + h2 * g[x + N * y].f;
          r[x + N * y] = res < 0.0 ? -res : res;
          count[x + N * y] = count[x + N * y] + (res > tol || res < -tol);
        }
    }
    double hi = r[0], lo = r[0];
    long large = 0;
    for (int i = 0; i < N * N; ++i) {
      hi = r[i] > hi ? r[i] : hi;
      lo = r[i] < lo ? r[i] : lo;
      large += count[i];
    }
    printf("round %d: residual max %a min %a, large %ld\n", round, hi, lo, large);
  }
  for (int y = 0; y < N; y += 5) {
    for (int x = 0; x < N; x += 3)
      printf("%s%a", x ? " " : "", g[x + N * y].u);
    printf("\n");
  }
  printf("k %a f %a count %d %d\n", g[7 + N * 9].k, g[7 + N * 9].f, count[1 + N],
         count[N / 2 + N * (N / 2)]);
  free(g);
  free(r);
  free(count);
  return 0;
}
