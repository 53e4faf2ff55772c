// Hand-written reference for the GPU benchmark (bench/gpu.sh): the 3D 7-point heat stencil in
// fp32 with Dirichlet-0 faces, one thread per interior point, 32x8 blocks: what a competent user
// writes by hand first, the baseline stencilc's chosen plan is compared with in the same run.
// The same file builds with nvcc (CUDA) and hipcc (HIP, -x hip).
//
// Build: nvcc -O3 -x cu heat3d_naive.cu -o heat3d_naive_gpu
//        hipcc -O3 -x hip heat3d_naive.cu -o heat3d_naive_gpu
// Run:   ./heat3d_naive_gpu NX NY NZ STEPS      (prints one JSON line)
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define GPU(name) hip##name
#define API "hip"
#else
#include <cuda_runtime.h>
#define GPU(name) cuda##name
#define API "cuda"
#endif

#define CHECK(call)                                                                            \
  do {                                                                                         \
    const auto e = (call);                                                                     \
    if (e != GPU(Success)) {                                                                   \
      std::fprintf(stderr, "error: %s: %s\n", #call, GPU(GetErrorString)(e));                \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

__global__ void heat(const float *__restrict__ a, float *__restrict__ b, long nx, long ny,
                     long nz, float c0, float c1) {
  const long x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  const long y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  const long sxy = nx * ny;
  if (x >= nx - 1 || y >= ny - 1)
    return;
  for (long z = 1; z < nz - 1; ++z) {
    const long i = z * sxy + y * nx + x;
    b[i] = c0 * a[i] + c1 * (a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx] + a[i - sxy] + a[i + sxy]);
  }
}

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s NX NY NZ STEPS\n", argv[0]);
    return 2;
  }
  const long nx = std::atol(argv[1]), ny = std::atol(argv[2]), nz = std::atol(argv[3]);
  const int steps = std::atoi(argv[4]);
  if (nx < 3 || ny < 3 || nz < 3 || steps < 1) {
    std::fprintf(stderr, "error: sizes must be at least 3 and steps at least 1\n");
    return 2;
  }
  const long n = nx * ny * nz;
  std::vector<float> h(n);
  for (long z = 0; z < nz; ++z)
    for (long y = 0; y < ny; ++y)
      for (long x = 0; x < nx; ++x) {
        const bool face = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
        h[(z * ny + y) * nx + x] =
            face ? 0.0f : 1.0f + static_cast<float>((x * 7 + y * 13 + z * 29) % 97) / 97.0f;
      }
  float *a = nullptr, *b = nullptr;
  CHECK(GPU(Malloc)(&a, n * sizeof(float)));
  CHECK(GPU(Malloc)(&b, n * sizeof(float)));
  CHECK(GPU(Memcpy)(a, h.data(), n * sizeof(float), GPU(MemcpyHostToDevice)));
  CHECK(GPU(Memcpy)(b, h.data(), n * sizeof(float), GPU(MemcpyHostToDevice)));
  const dim3 block(32, 8), grid((nx - 2 + 31) / 32, (ny - 2 + 7) / 8);
  GPU(Event_t) t0, t1;
  CHECK(GPU(EventCreate)(&t0));
  CHECK(GPU(EventCreate)(&t1));
  heat<<<grid, block>>>(a, b, nx, ny, nz, 0.4f, 0.1f); // warm-up
  CHECK(GPU(DeviceSynchronize)());
  CHECK(GPU(EventRecord)(t0));
  for (int t = 0; t < steps; ++t) {
    heat<<<grid, block>>>(a, b, nx, ny, nz, 0.4f, 0.1f);
    std::swap(a, b);
  }
  CHECK(GPU(EventRecord)(t1));
  CHECK(GPU(EventSynchronize)(t1));
  CHECK(GPU(GetLastError)());
  float ms = 0;
  CHECK(GPU(EventElapsedTime)(&ms, t0, t1));
  const double secs = ms / 1e3;
  const double cells = double(nx - 2) * (ny - 2) * (nz - 2) * steps;
  std::printf("{\"kernel\":\"heat3d_naive_%s\",\"nx\":%ld,\"ny\":%ld,\"nz\":%ld,\"steps\":%d,"
              "\"seconds\":%.6f,\"cells_per_second\":%.6e,\"effective_gbs\":%.3f}\n",
              API, nx, ny, nz, steps, secs, cells / secs, cells * 8.0 / secs / 1e9);
  CHECK(GPU(Free)(a));
  CHECK(GPU(Free)(b));
  return 0;
}
