/* host_smooth1d.c in plain C: the interior smoothed, the end cells kept. */
#include <stdio.h>

#define N 40

static void smooth(const float *a, float *b, float w) {
  for (int x = 1; x < N - 1; ++x)
    b[x] = (1.0f - 2.0f * w) * a[x] + w * (a[x - 1] + a[x + 1]);
}

int main(void) {
  float a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = b[i] = 0.25f * (float)((i * 13) % 11);
  for (int it = 0; it < 10; ++it) {
    smooth(a, b, 0.3f);
    smooth(b, a, 0.3f);
  }
  float lo = a[0], hi = a[0];
  for (int i = 0; i < N; ++i) {
    lo = a[i] < lo ? a[i] : lo;
    hi = a[i] > hi ? a[i] : hi;
  }
  printf("min %a max %a\n", lo, hi);
  for (int i = 0; i < N; ++i)
    printf("%s%a", i ? " " : "", a[i]);
  printf("\n");
  return 0;
}
