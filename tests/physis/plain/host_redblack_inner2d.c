/* host_redblack_inner2d.c in plain C: red then black cells ((x + y) even, then odd) of the inner
 * cells [1, NX - 2) x [1, NY - 1), in place; the frame kept; the sum printed to 11 digits. */
#include <stdio.h>

#define NX 27
#define NY 20

int main(void) {
  double u[NX * NY], f[NX * NY];
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x) {
      f[x + NX * y] = (double)((x * 11 + y * 5) % 9 - 4);
      u[x + NX * y] = x == 0            ? 1.0 + 0.05 * y
                      : x >= NX - 2     ? -0.5 * (x - NX + 3)
                      : y == 0          ? 0.25
                      : y == NY - 1     ? 0.1 * x
                                        : 0.0;
    }
  const double h = 1.0 / (NX + 1);
  double h2 = h * h;
  for (int it = 0; it < 15; ++it)
    for (int colour = 0; colour < 2; ++colour)
      for (int y = 1; y < NY - 1; ++y)
        for (int x = 1; x < NX - 2; ++x)
          if ((x + y) % 2 == colour) {
            double nb = u[x - 1 + NX * y] + u[x + 1 + NX * y] + u[x + NX * (y - 1)] +
                        u[x + NX * (y + 1)];
            u[x + NX * y] = 0.25 * (nb - h2 * f[x + NX * y]);
          }
  double total = 0.0;
  for (int i = 0; i < NX * NY; ++i)
    total += u[i];
  printf("sum %.10e\n", total);
  double check = 0.0;
  for (int i = 0; i < NX * NY; ++i)
    check += u[i] * (double)(1 + i % 3);
  printf("checksum %a\n", check);
  printf("row 1:");
  for (int x = 0; x < NX; ++x)
    printf(" %a", u[x + NX * 1]);
  printf("\ncolumn %d:", NX - 3);
  for (int y = 0; y < NY; ++y)
    printf(" %a", u[NX - 3 + NX * y]);
  printf("\n");
  return 0;
}
