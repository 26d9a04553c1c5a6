#include "engine/backend/cpu/cpu_kernels.h"

#include <algorithm>

#include "engine/backend/cpu/worker_pool.h"

// The build targets baseline x86-64 (SSE2). On x86-64 the kernels are also compiled for x86-64-v3 (AVX2,
// FMA) and picked at load time: a CPU that has them gets the wider vectors, and the program still runs
// on every x86-64.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define AYAR_CPU_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define AYAR_CPU_KERNEL
#endif

namespace ayar::engine {

namespace {

// Lanes of independent partial sums: the compiler turns each lane loop into vector instructions, which
// it may not do for a single running sum (that would reorder float additions).
constexpr int kLanes = 8;

// Dot products of two weight rows with four token rows: 8 independent sums keep the vector units busy,
// and each loaded weight serves four tokens. out = {w0.x0, w0.x1, w0.x2, w0.x3, w1.x0, ..., w1.x3}.
AYAR_CPU_KERNEL void dotTwoRowsWithFourTokens(const float* w0, const float* w1, const float* x0,
                                              const float* x1, const float* x2, const float* x3,
                                              std::int64_t n, float* out) {
  float a0[kLanes] = {}, a1[kLanes] = {}, a2[kLanes] = {}, a3[kLanes] = {};
  float b0[kLanes] = {}, b1[kLanes] = {}, b2[kLanes] = {}, b3[kLanes] = {};
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      const float u = w0[i + l];
      const float v = w1[i + l];
      a0[l] += u * x0[i + l];
      a1[l] += u * x1[i + l];
      a2[l] += u * x2[i + l];
      a3[l] += u * x3[i + l];
      b0[l] += v * x0[i + l];
      b1[l] += v * x1[i + l];
      b2[l] += v * x2[i + l];
      b3[l] += v * x3[i + l];
    }
  }
  float s[8] = {};
  for (int l = 0; l < kLanes; ++l) {
    s[0] += a0[l];
    s[1] += a1[l];
    s[2] += a2[l];
    s[3] += a3[l];
    s[4] += b0[l];
    s[5] += b1[l];
    s[6] += b2[l];
    s[7] += b3[l];
  }
  for (; i < n; ++i) {
    const float* xs[4] = {x0, x1, x2, x3};
    for (int j = 0; j < 4; ++j) {
      s[j] += w0[i] * xs[j][i];
      s[4 + j] += w1[i] * xs[j][i];
    }
  }
  for (int j = 0; j < 8; ++j)
    out[j] = s[j];
}

// Weight rows per tile: a tile (~64 KiB) stays in L2 while every token passes over it.
constexpr std::int64_t kTileBytes = 64 * 1024;

}  // namespace

AYAR_CPU_KERNEL float dotProduct(const float* a, const float* b, std::int64_t n) {
  // The same lanes and the same order of additions as dotTwoRowsWithFourTokens (see matmul).
  float acc[kLanes] = {};
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l)
      acc[l] += a[i + l] * b[i + l];
  }
  float sum = 0.0f;
  for (int l = 0; l < kLanes; ++l)
    sum += acc[l];
  for (; i < n; ++i)
    sum += a[i] * b[i];
  return sum;
}

AYAR_CPU_KERNEL void addScaled(float* y, float scale, const float* x, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    y[i] += scale * x[i];
}

void matmul(float* y, const float* x, const float* w, std::int64_t tokens, std::int64_t inFeatures,
            std::int64_t outFeatures, WorkerPool& pool) {
  if (tokens == 0) return;
  const std::int64_t tileRows =
      std::max<std::int64_t>(1, kTileBytes / (inFeatures * static_cast<std::int64_t>(sizeof(float))));
  // Waking a thread costs microseconds: give each at least ~64k multiply-adds.
  const std::int64_t minRowsPerThread = std::max<std::int64_t>(1, 65536 / (tokens * inFeatures));
  pool.parallelFor(outFeatures, minRowsPerThread, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t tile = begin; tile < end; tile += tileRows) {
      const std::int64_t tileEnd = std::min(end, tile + tileRows);
      std::int64_t t = 0;
      for (; t + 4 <= tokens; t += 4) {
        const float* xt = x + t * inFeatures;
        for (std::int64_t o = tile; o < tileEnd; o += 2) {
          // An odd last row pairs with itself; the duplicate results are dropped.
          const std::int64_t o1 = std::min(o + 1, tileEnd - 1);
          float out[8];
          dotTwoRowsWithFourTokens(w + o * inFeatures, w + o1 * inFeatures, xt, xt + inFeatures,
                                   xt + 2 * inFeatures, xt + 3 * inFeatures, inFeatures, out);
          for (int j = 0; j < 4; ++j) {
            y[(t + j) * outFeatures + o] = out[j];
            y[(t + j) * outFeatures + o1] = out[4 + j];
          }
        }
      }
      for (; t < tokens; ++t) {
        for (std::int64_t o = tile; o < tileEnd; ++o) {
          y[t * outFeatures + o] = dotProduct(w + o * inFeatures, x + t * inFeatures, inFeatures);
        }
      }
    }
  });
}

}  // namespace ayar::engine
