// Each of the CUDA backend's kernels against a double-precision reference on the host, on fresh random
// inputs (bf16-rounded before both sides see them). Skipped on a machine without a usable GPU.

#include "engine/backend/cuda/cuda_kernels.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/backend/cuda/cuda_backend.h"
#include "engine/model/weights.h"

namespace ayar::engine::cuda {
namespace {

#define SKIP_WITHOUT_GPU()                                 \
  do {                                                     \
    const CudaDeviceInfo device = probeCudaDevice();       \
    if (!device.usable) {                                  \
      GTEST_SKIP() << "no usable GPU: " << device.problem; \
    }                                                      \
  } while (false)

template <typename T>
class DeviceVector {
 public:
  explicit DeviceVector(const std::vector<T>& host) : m_count(host.size()) {
    EXPECT_EQ(cudaMalloc(&m_data, std::max<std::size_t>(1, host.size()) * sizeof(T)), cudaSuccess);
    if (!host.empty()) {
      EXPECT_EQ(cudaMemcpy(m_data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
                cudaSuccess);
    }
  }
  ~DeviceVector() { cudaFree(m_data); }
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;
  T* get() const { return static_cast<T*>(m_data); }
  std::vector<T> read() const {
    std::vector<T> host(m_count);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(host.data(), m_data, m_count * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
  }

 private:
  void* m_data = nullptr;
  std::size_t m_count;
};

// Random bf16 values and the floats they stand for.
struct RandomBf16 {
  std::vector<Bf16> bits;
  std::vector<double> values;
};
RandomBf16 randomBf16(std::size_t count, std::mt19937& rng, float low = -1.0f, float high = 1.0f) {
  std::uniform_real_distribution<float> pick(low, high);
  RandomBf16 r;
  for (std::size_t i = 0; i < count; ++i) {
    r.bits.push_back(toBf16(pick(rng)));
    r.values.push_back(fromBf16(r.bits.back()));
  }
  return r;
}

double relativeError(const std::vector<double>& value, const std::vector<double>& reference) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (!std::isfinite(value[i])) return INFINITY;
    diff += (value[i] - reference[i]) * (value[i] - reference[i]);
    norm += reference[i] * reference[i];
  }
  return std::sqrt(diff / norm);
}

// A head of kHeadDim values RMS-normed (times w, eps 1e-6) and rotated by RoPE (theta 1e6, NeoX halves)
// for `position`, in double precision: the reference of the kernels' q/k treatment.
std::vector<double> normRopeReference(const double* x, const std::vector<double>& w, int position) {
  double sumSquares = 0.0;
  for (int i = 0; i < kHeadDim; ++i)
    sumSquares += x[i] * x[i];
  const double scale = 1.0 / std::sqrt(sumSquares / kHeadDim + 1e-6);
  std::vector<double> n(kHeadDim), out(kHeadDim);
  for (int i = 0; i < kHeadDim; ++i)
    n[i] = x[i] * scale * w[i];
  for (int i = 0; i < kHeadDim / 2; ++i) {
    const double angle = position * std::pow(1e6, -2.0 * i / kHeadDim);
    out[i] = n[i] * std::cos(angle) - n[i + kHeadDim / 2] * std::sin(angle);
    out[i + kHeadDim / 2] = n[i + kHeadDim / 2] * std::cos(angle) + n[i] * std::sin(angle);
  }
  return out;
}

std::vector<double> widen(const std::vector<Bf16>& bits) {
  std::vector<double> out;
  for (const Bf16 b : bits)
    out.push_back(fromBf16(b));
  return out;
}

TEST(CudaKernels, AddRmsNormAddsTheResidualAndNormsTheSelectedRows) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(1);
  const int rows = 5, hidden = 1024;
  const RandomBf16 add = randomBf16(rows * hidden, rng), weight = randomBf16(hidden, rng, 0.5f, 1.5f);
  std::vector<float> residual(rows * hidden);
  std::uniform_real_distribution<float> pick(-2.0f, 2.0f);
  for (float& v : residual)
    v = pick(rng);
  const std::vector<std::int32_t> rowIndex{4, 1, 2};
  DeviceVector<float> dResidual(residual);
  DeviceVector<Bf16> dAdd(add.bits), dWeight(weight.bits), dOut(std::vector<Bf16>(3 * hidden, 0xffff));
  DeviceVector<std::int32_t> dRows(rowIndex);
  addRmsNorm(dOut.get(), dResidual.get(), dAdd.get(), dWeight.get(), dRows.get(), 3, hidden, 1e-6f, nullptr);
  const std::vector<double> out = widen(dOut.read());
  const std::vector<float> newResidual = dResidual.read();
  std::vector<double> expected(3 * hidden);
  for (int r = 0; r < 3; ++r) {
    const int row = rowIndex[static_cast<std::size_t>(r)];
    double sumSquares = 0.0;
    for (int i = 0; i < hidden; ++i) {
      const double x = residual[row * hidden + i] + add.values[row * hidden + i];
      EXPECT_NEAR(newResidual[row * hidden + i], x, 1e-5);
      sumSquares += x * x;
    }
    const double scale = 1.0 / std::sqrt(sumSquares / hidden + 1e-6);
    for (int i = 0; i < hidden; ++i) {
      expected[r * hidden + i] =
          (residual[row * hidden + i] + add.values[row * hidden + i]) * scale * weight.values[i];
    }
  }
  EXPECT_LT(relativeError(out, expected), 5e-3);
  EXPECT_EQ(newResidual[3 * hidden], residual[3 * hidden]);  // row 3 was not selected
}

TEST(CudaKernels, SiluMulMatchesTheReference) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(2);
  const int rows = 3, inter = 1536;
  const RandomBf16 gateUp = randomBf16(rows * 2 * inter, rng, -4.0f, 4.0f);
  DeviceVector<Bf16> dIn(gateUp.bits), dOut(std::vector<Bf16>(rows * inter, 0xffff));
  siluMul(dOut.get(), dIn.get(), rows, inter, nullptr);
  std::vector<double> expected;
  for (int r = 0; r < rows; ++r) {
    for (int i = 0; i < inter; ++i) {
      const double g = gateUp.values[r * 2 * inter + i];
      expected.push_back(g / (1.0 + std::exp(-g)) * gateUp.values[r * 2 * inter + inter + i]);
    }
  }
  EXPECT_LT(relativeError(widen(dOut.read()), expected), 5e-3);
}

TEST(CudaKernels, QkNormRopeRotatesQInPlaceAndWritesKvToTheirSlots) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(3);
  const int rows = 3, heads = 4, kvHeads = 2, blockSize = 16, numBlocks = 4;
  const int stride = (heads + 2 * kvHeads) * kHeadDim;
  const RandomBf16 qkv = randomBf16(rows * stride, rng), qNorm = randomBf16(kHeadDim, rng, 0.5f, 1.5f),
                   kNorm = randomBf16(kHeadDim, rng, 0.5f, 1.5f);
  const std::vector<std::int32_t> positions{0, 17, 3000}, slots{5, 2 * blockSize + 1, 3 * blockSize + 15};
  const int maxPositions = 4096;
  DeviceVector<float> cosines(std::vector<float>(maxPositions * kHeadDim / 2)),
      sines(std::vector<float>(maxPositions * kHeadDim / 2));
  fillRopeTable(cosines.get(), sines.get(), maxPositions, kHeadDim, 1e6, nullptr);
  const std::size_t cacheSize = static_cast<std::size_t>(numBlocks) * kvHeads * blockSize * kHeadDim;
  DeviceVector<Bf16> dQkv(qkv.bits), dQNorm(qNorm.bits), dKNorm(kNorm.bits),
      key(std::vector<Bf16>(cacheSize, 0)), value(std::vector<Bf16>(cacheSize, 0));
  DeviceVector<std::int32_t> dPositions(positions), dSlots(slots);
  const LayerKvCache cache{key.get(), value.get(), blockSize, kvHeads, numBlocks};
  qkNormRopeKvWrite(dQkv.get(), dQNorm.get(), dKNorm.get(), cosines.get(), sines.get(), dPositions.get(),
                    dSlots.get(), rows, heads, cache, 1e-6f, nullptr);
  const std::vector<double> q = widen(dQkv.read()), k = widen(key.read()), v = widen(value.read());

  std::vector<double> got, expected;
  for (int t = 0; t < rows; ++t) {
    const std::size_t slot = static_cast<std::size_t>(slots[static_cast<std::size_t>(t)]);
    const std::size_t block = slot / blockSize, offset = slot % blockSize;
    for (int h = 0; h < heads + 2 * kvHeads; ++h) {
      const double* in = qkv.values.data() + t * stride + h * kHeadDim;
      std::vector<double> want;
      const double* have;
      if (h < heads) {
        want = normRopeReference(in, qNorm.values, positions[static_cast<std::size_t>(t)]);
        have = q.data() + t * stride + h * kHeadDim;
      } else if (h < heads + kvHeads) {
        want = normRopeReference(in, kNorm.values, positions[static_cast<std::size_t>(t)]);
        have = k.data() +
               ((block * kvHeads + static_cast<std::size_t>(h - heads)) * blockSize + offset) * kHeadDim;
      } else {
        want.assign(in, in + kHeadDim);
        have = v.data() +
               ((block * kvHeads + static_cast<std::size_t>(h - heads - kvHeads)) * blockSize + offset) *
                   kHeadDim;
      }
      expected.insert(expected.end(), want.begin(), want.end());
      got.insert(got.end(), have, have + kHeadDim);
    }
  }
  EXPECT_LT(relativeError(got, expected), 5e-3);
}

// Shapes: one warp a row with a partial batch of loads; 8 batches a row over few rows (a looping warp a
// row, all rows resident at once); 2 batches a row over more rows than fit at once (a warp a batch); 12
// batches and a bit, an odd number of rows (12 warps, one row a block); 17 batches and a bit (4 warps
// looping).
TEST(CudaKernels, GemvMatchesTheReferenceForOneToEightRows) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(4);
  for (const auto& [n, k] : {std::pair{1001, 520}, std::pair{64, 8192}, std::pair{9000, 2048},
                             std::pair{41, 12296}, std::pair{37, 17416}}) {
    const RandomBf16 w = randomBf16(static_cast<std::size_t>(n) * k, rng);
    DeviceVector<Bf16> dW(w.bits);
    for (int rows = 1; rows <= 8; ++rows) {
      const RandomBf16 x = randomBf16(static_cast<std::size_t>(rows) * k, rng);
      DeviceVector<Bf16> dX(x.bits), dY(std::vector<Bf16>(static_cast<std::size_t>(rows) * n, 0xffff));
      DeviceVector<float> dYf(std::vector<float>(static_cast<std::size_t>(rows) * n, NAN));
      gemv(dY.get(), dX.get(), dW.get(), rows, n, k, nullptr);
      gemv(dYf.get(), dX.get(), dW.get(), rows, n, k, nullptr);
      std::vector<double> expected;
      for (int m = 0; m < rows; ++m) {
        for (int o = 0; o < n; ++o) {
          double sum = 0.0;
          for (int i = 0; i < k; ++i)
            sum +=
                x.values[static_cast<std::size_t>(m) * k + i] * w.values[static_cast<std::size_t>(o) * k + i];
          expected.push_back(sum);
        }
      }
      const std::vector<float> yf = dYf.read();
      EXPECT_LT(relativeError(widen(dY.read()), expected), 5e-3) << n << "x" << k << " rows " << rows;
      EXPECT_LT(relativeError(std::vector<double>(yf.begin(), yf.end()), expected), 1e-4)
          << n << "x" << k << " rows " << rows;
    }
  }
}

// The decode path's chain of normed GEMVs (embedding, qkv, o + residual, gate/up + SiLU, down + residual,
// lm_head over picked rows) against the norm-GEMV-residual chain in double precision on the host, for 1
// and 2 rows, launched plainly and as programmatic dependents, at widths that leave a half-empty last
// block and a partial last batch of loads.
TEST(CudaKernels, NormedGemvChainMatchesTheNormGemvResidualAndSiluChain) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(9);
  const int k = 1040, n = 1000, vocab = 999;
  // The forms met: qkv and lm_head (k of 1,040, 2 batches, few rows) a looping warp a row; o (k of 1,000)
  // one warp a row and two rows a block; down at k of 4,200 a looping warp a row, at 10,000 ten warps and
  // one row a block. (The one-batch form at 2-8 batches: the backend tests' qwen3-8b-shaped qkv.)
  for (const int inter : {4200, 10000}) {
    const int maxRows = kGemvFusedRows;
    const RandomBf16 embedding = randomBf16(static_cast<std::size_t>(16) * k, rng, -3.0f, 3.0f),
                     inputNorm = randomBf16(k, rng, 0.5f, 1.5f), postNorm = randomBf16(k, rng, 0.5f, 1.5f),
                     qkvW = randomBf16(static_cast<std::size_t>(n) * k, rng),
                     oW = randomBf16(static_cast<std::size_t>(k) * n, rng),
                     gateUp = randomBf16(2 * static_cast<std::size_t>(inter) * k, rng),
                     down = randomBf16(static_cast<std::size_t>(k) * inter, rng),
                     head = randomBf16(static_cast<std::size_t>(vocab) * k, rng);
    DeviceVector<Bf16> dEmbedding(embedding.bits), dInputNorm(inputNorm.bits), dPostNorm(postNorm.bits),
        dQkv(qkvW.bits), dO(oW.bits), dGateUp(gateUp.bits), dDown(down.bits), dHead(head.bits);

    auto product = [](const std::vector<double>& x, const std::vector<double>& weight, int rows, int outputs,
                      int width) {
      std::vector<double> y(static_cast<std::size_t>(rows) * outputs);
      for (int m = 0; m < rows; ++m)
        for (int o = 0; o < outputs; ++o) {
          double sum = 0.0;
          for (int i = 0; i < width; ++i)
            sum +=
                x[static_cast<std::size_t>(m) * width + i] * weight[static_cast<std::size_t>(o) * width + i];
          y[static_cast<std::size_t>(m) * outputs + o] = sum;
        }
      return y;
    };
    auto rmsNorm = [&](const std::vector<double>& x, const std::vector<double>& weight, int rows) {
      std::vector<double> h(x.size());
      for (int m = 0; m < rows; ++m) {
        double sumSquares = 0.0;
        for (int i = 0; i < k; ++i)
          sumSquares += x[static_cast<std::size_t>(m) * k + i] * x[static_cast<std::size_t>(m) * k + i];
        const double scale = 1.0 / std::sqrt(sumSquares / k + 1e-6);
        for (int i = 0; i < k; ++i)
          h[static_cast<std::size_t>(m) * k + i] = x[static_cast<std::size_t>(m) * k + i] * scale * weight[i];
      }
      return h;
    };
    auto sumsOfSquares = [&](const std::vector<double>& x, int rows) {
      std::vector<double> sums(static_cast<std::size_t>(rows));
      for (int m = 0; m < rows; ++m)
        for (int i = 0; i < k; ++i)
          sums[static_cast<std::size_t>(m)] +=
              x[static_cast<std::size_t>(m) * k + i] * x[static_cast<std::size_t>(m) * k + i];
      return sums;
    };
    auto weightedRows = [&](const std::vector<double>& x, const std::vector<double>& weight) {
      std::vector<double> out(x.size());
      for (std::size_t i = 0; i < x.size(); ++i)
        out[i] = x[i] * weight[i % static_cast<std::size_t>(k)];
      return out;
    };

    for (int rows = 1; rows <= maxRows; ++rows) {
      for (const Launch overlap : {Launch::Plain, Launch::Dependent}) {
        const std::string label = "intermediate " + std::to_string(inter) + ", " + std::to_string(rows) +
                                  " rows, launch " + std::to_string(static_cast<int>(overlap));
        std::vector<std::int32_t> tokens{3, 11};
        tokens.resize(static_cast<std::size_t>(rows));
        DeviceVector<std::int32_t> dTokens(tokens);
        DeviceVector<float> residual(std::vector<float>(static_cast<std::size_t>(rows) * k, NAN));
        DeviceVector<Bf16> weighted(std::vector<Bf16>(static_cast<std::size_t>(rows) * k, 0xffff));
        DeviceVector<double> slots(std::vector<double>(2 * static_cast<std::size_t>(maxRows), NAN));
        double* inputSlot = slots.get();
        double* postSlot = slots.get() + maxRows;
        const NormedRows toInput{residual.get(), weighted.get(), inputSlot};
        const NormedRows toPost{residual.get(), weighted.get(), postSlot};

        std::vector<double> x0;
        for (const std::int32_t t : tokens)
          x0.insert(x0.end(), embedding.values.begin() + static_cast<std::ptrdiff_t>(t) * k,
                    embedding.values.begin() + static_cast<std::ptrdiff_t>(t + 1) * k);
        embedRowsNormed(toInput, postSlot, dEmbedding.get(), dTokens.get(), dInputNorm.get(), rows, k,
                        nullptr);
        {
          const std::vector<double> got = slots.read();
          const std::vector<double> sums = sumsOfSquares(x0, rows);
          for (int m = 0; m < rows; ++m) {
            EXPECT_NEAR(got[static_cast<std::size_t>(m)], sums[static_cast<std::size_t>(m)],
                        1e-5 * sums[static_cast<std::size_t>(m)])
                << label;
            EXPECT_EQ(got[static_cast<std::size_t>(maxRows + m)], 0.0) << label;
          }
          EXPECT_LT(relativeError(widen(weighted.read()), weightedRows(x0, inputNorm.values)), 5e-3) << label;
        }

        // qkv = rmsnorm(x0) Wqkv
        DeviceVector<Bf16> qkv(std::vector<Bf16>(static_cast<std::size_t>(rows) * n, 0xffff));
        gemvNormed(qkv.get(), weighted.get(), inputSlot, 1e-6f, dQkv.get(), rows, n, k, overlap, nullptr);
        const std::vector<Bf16> qkvBits = qkv.read();
        EXPECT_LT(relativeError(widen(qkvBits),
                                product(rmsNorm(x0, inputNorm.values, rows), qkvW.values, rows, n, k)),
                  5e-3)
            << label;

        // x1 = x0 + qkv Wo (the kernel's own bf16 qkv as the input), weighted by the post-attention norm
        gemvAddResidualNormed(toPost, inputSlot, dPostNorm.get(), qkv.get(), dO.get(), rows, k, n, overlap,
                              nullptr);
        const std::vector<double> added = product(widen(qkvBits), oW.values, rows, k, n);
        std::vector<double> x1(x0.size());
        for (std::size_t i = 0; i < x0.size(); ++i)
          x1[i] = x0[i] + added[i];
        {
          const std::vector<float> got = residual.read();
          std::vector<double> delta(got.size());
          for (std::size_t i = 0; i < got.size(); ++i)
            delta[i] = static_cast<double>(got[i]) - x0[i];
          EXPECT_LT(relativeError(delta, added), 1e-4) << label;
          const std::vector<double> sums = sumsOfSquares(x1, rows), gotSlots = slots.read();
          for (int m = 0; m < rows; ++m) {
            EXPECT_EQ(gotSlots[static_cast<std::size_t>(m)], 0.0) << label;  // the input slot, cleared
            EXPECT_NEAR(gotSlots[static_cast<std::size_t>(maxRows + m)], sums[static_cast<std::size_t>(m)],
                        1e-4 * sums[static_cast<std::size_t>(m)])
                << label;
          }
          EXPECT_LT(relativeError(widen(weighted.read()), weightedRows(x1, postNorm.values)), 5e-3) << label;
        }

        // activated = silu(h Wgate) * (h Wup), h = rmsnorm(x1)
        DeviceVector<Bf16> activated(std::vector<Bf16>(static_cast<std::size_t>(rows) * inter, 0xffff));
        gemvNormedSiluMul(activated.get(), weighted.get(), postSlot, 1e-6f, dGateUp.get(), rows, inter, k,
                          overlap, nullptr);
        const std::vector<double> both =
            product(rmsNorm(x1, postNorm.values, rows), gateUp.values, rows, 2 * inter, k);
        std::vector<double> silu(static_cast<std::size_t>(rows) * inter);
        for (int m = 0; m < rows; ++m)
          for (int i = 0; i < inter; ++i) {
            const double g = both[static_cast<std::size_t>(m) * 2 * inter + i];
            silu[static_cast<std::size_t>(m) * inter + i] =
                g / (1.0 + std::exp(-g)) * both[static_cast<std::size_t>(m) * 2 * inter + inter + i];
          }
        const std::vector<Bf16> activatedBits = activated.read();
        EXPECT_LT(relativeError(widen(activatedBits), silu), 5e-3) << label;

        // x2 = x1 + activated Wdown, weighted by the input norm again
        gemvAddResidualNormed(toInput, postSlot, dInputNorm.get(), activated.get(), dDown.get(), rows, k,
                              inter, overlap, nullptr);
        const std::vector<double> downAdded = product(widen(activatedBits), down.values, rows, k, inter);
        std::vector<double> x2(x1.size());
        for (std::size_t i = 0; i < x1.size(); ++i)
          x2[i] = x1[i] + downAdded[i];
        {
          const std::vector<double> sums = sumsOfSquares(x2, rows), gotSlots = slots.read();
          for (int m = 0; m < rows; ++m) {
            EXPECT_NEAR(gotSlots[static_cast<std::size_t>(m)], sums[static_cast<std::size_t>(m)],
                        1e-4 * sums[static_cast<std::size_t>(m)])
                << label;
            EXPECT_EQ(gotSlots[static_cast<std::size_t>(maxRows + m)], 0.0) << label;
          }
        }

        // logits of the picked rows (the last row first) = rmsnorm(x2) Whead, float
        std::vector<std::int32_t> picked{rows - 1, 0};
        picked.resize(static_cast<std::size_t>(rows));
        DeviceVector<std::int32_t> dPicked(picked);
        DeviceVector<float> logits(std::vector<float>(static_cast<std::size_t>(rows) * vocab, NAN));
        gemvNormed(logits.get(), weighted.get(), inputSlot, dPicked.get(), 1e-6f, dHead.get(), rows, vocab, k,
                   overlap, nullptr);
        const std::vector<double> h2 = rmsNorm(x2, inputNorm.values, rows);
        std::vector<double> pickedRows;
        for (const std::int32_t r : picked)
          pickedRows.insert(pickedRows.end(), h2.begin() + static_cast<std::ptrdiff_t>(r) * k,
                            h2.begin() + static_cast<std::ptrdiff_t>(r + 1) * k);
        const std::vector<float> gotLogits = logits.read();
        EXPECT_LT(relativeError(std::vector<double>(gotLogits.begin(), gotLogits.end()),
                                product(pickedRows, head.values, rows, vocab, k)),
                  5e-3)
            << label;
      }
    }
  }
}

// A paged cache with random K and V, and the reference attention over it.
struct AttentionCase {
  int heads = 8, kvHeads = 2, blockSize = 16, numBlocks = 0;
  std::vector<std::int32_t> queryStart, queryLen, contextLen, blockTables;
  int stride = 0;
  RandomBf16 key, value, qkv;

  // (context, new tokens) a sequence; the heads and the cache's block size as the case needs.
  AttentionCase(const std::vector<std::pair<int, int>>& seqs, std::mt19937& rng, int queryHeads = 8,
                int keyValueHeads = 2, int tokensPerBlock = 16)
      : heads(queryHeads), kvHeads(keyValueHeads), blockSize(tokensPerBlock) {
    int rows = 0, blocks = 0;
    for (const auto& [context, fresh] : seqs) {
      stride = std::max(stride, (context + blockSize - 1) / blockSize);
      blocks += (context + blockSize - 1) / blockSize;
      queryStart.push_back(rows);
      queryLen.push_back(fresh);
      contextLen.push_back(context);
      rows += fresh;
    }
    numBlocks = blocks + 3;
    std::vector<std::int32_t> order(static_cast<std::size_t>(numBlocks));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::size_t next = 0;
    for (const auto& [context, fresh] : seqs) {
      for (int b = 0; b < stride; ++b)
        blockTables.push_back(b * blockSize < context ? order[next++] : 0);
    }
    const std::size_t cacheSize = static_cast<std::size_t>(numBlocks) * kvHeads * blockSize * kHeadDim;
    key = randomBf16(cacheSize, rng);
    value = randomBf16(cacheSize, rng);
    qkv = randomBf16(static_cast<std::size_t>(rows) * qkvStride(), rng);
  }
  int qkvStride() const { return (heads + 2 * kvHeads) * kHeadDim; }

  std::vector<double> reference(const std::vector<int>& seqList) const {
    std::vector<double> out;
    const double scale = 1.0 / std::sqrt(static_cast<double>(kHeadDim));
    for (const int s : seqList) {
      for (int i = 0; i < queryLen[static_cast<std::size_t>(s)]; ++i) {
        const int row = queryStart[static_cast<std::size_t>(s)] + i;
        const int position =
            contextLen[static_cast<std::size_t>(s)] - queryLen[static_cast<std::size_t>(s)] + i;
        for (int h = 0; h < heads; ++h) {
          const int kvh = h / (heads / kvHeads);
          const double* q = qkv.values.data() + static_cast<std::size_t>(row) * qkvStride() + h * kHeadDim;
          auto at = [&](const std::vector<double>& cache, int j) {
            const std::size_t block =
                static_cast<std::size_t>(blockTables[static_cast<std::size_t>(s * stride + j / blockSize)]);
            return cache.data() + ((block * kvHeads + kvh) * blockSize + j % blockSize) * kHeadDim;
          };
          std::vector<double> scores(static_cast<std::size_t>(position + 1));
          double maxScore = -INFINITY;
          for (int j = 0; j <= position; ++j) {
            const double* k = at(key.values, j);
            double dot = 0.0;
            for (int d = 0; d < kHeadDim; ++d)
              dot += q[d] * k[d];
            scores[static_cast<std::size_t>(j)] = dot * scale;
            maxScore = std::max(maxScore, dot * scale);
          }
          double sum = 0.0;
          for (double& sc : scores) {
            sc = std::exp(sc - maxScore);
            sum += sc;
          }
          for (int d = 0; d < kHeadDim; ++d) {
            double o = 0.0;
            for (int j = 0; j <= position; ++j)
              o += scores[static_cast<std::size_t>(j)] * at(value.values, j)[d];
            out.push_back(o / sum);
          }
        }
      }
    }
    return out;
  }
};

// The backend's split counts (a host rule, so no GPU needed), at an H200's 132 multiprocessors and 8 KV
// heads: whole 64-key tiles where the context is long, 16-key partitions up to 16 splits where it is short.
TEST(CudaKernels, DecodeAttentionSplitsFillTheGpuWithoutTinyPartitions) {
  EXPECT_EQ(decodeAttentionSplits(1, 256, 8, 132), 16);   // tiles would give 4
  EXPECT_EQ(decodeAttentionSplits(1, 1024, 8, 132), 16);  // 16 tiles
  EXPECT_EQ(decodeAttentionSplits(1, 8192, 8, 132), 64);  // 33 wanted, rounded up
  EXPECT_EQ(decodeAttentionSplits(2, 256, 8, 132), 16);
  EXPECT_EQ(decodeAttentionSplits(1, 10, 8, 132), 1);
  EXPECT_EQ(decodeAttentionSplits(64, 1024, 8, 132), 1);  // the batch fills the GPU
  EXPECT_EQ(decodeAttentionSplits(256, 256, 8, 132), 1);
}

TEST(CudaKernels, DecodeAttentionMatchesTheReferenceForEverySplitCount) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(5);
  const AttentionCase c({{1, 1}, {37, 1}, {700, 1}, {1500, 1}}, rng);
  DeviceVector<Bf16> key(c.key.bits), value(c.value.bits), qkv(c.qkv.bits);
  DeviceVector<std::int32_t> start(c.queryStart), len(c.queryLen), context(c.contextLen),
      tables(c.blockTables), seqs(std::vector<std::int32_t>{0, 1, 2, 3});
  DeviceVector<unsigned> counters(std::vector<unsigned>(4 * static_cast<std::size_t>(c.kvHeads), 0u));
  const SeqTable table{start.get(), len.get(), context.get(), tables.get(), c.stride};
  const LayerKvCache cache{key.get(), value.get(), c.blockSize, c.kvHeads, c.numBlocks};
  const std::vector<double> expected = c.reference({0, 1, 2, 3});
  // 32 twice: the merge left the counters at zero. 12: the merge's batches of 8 splits, the second part
  // full. Some runs pass no list (the sequences 0..3 in order, as the list here says).
  for (const auto& [splits, list] : {std::pair{1, true}, std::pair{4, false}, std::pair{8, true},
                                     std::pair{12, false}, std::pair{32, true}, std::pair{32, false}}) {
    DeviceVector<float> partials(
        std::vector<float>(static_cast<std::size_t>(decodeAttentionPartialFloats(4, c.heads, splits)), NAN));
    DeviceVector<Bf16> out(std::vector<Bf16>(4 * static_cast<std::size_t>(c.heads) * kHeadDim, 0xffff));
    decodeAttention(out.get(), qkv.get(), c.qkvStride(), table, list ? seqs.get() : nullptr, 4, c.heads,
                    cache, splits, partials.get(), counters.get(), DecodeRope{}, splits == 32, nullptr);
    EXPECT_LT(relativeError(widen(out.read()), expected), 1e-2) << splits << " splits, list " << list;
  }
  for (const unsigned count : counters.read())
    EXPECT_EQ(count, 0u);
}

TEST(CudaKernels, DecodeAttentionWithRopeNormsRotatesAndCachesTheNewToken) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(8);
  // Five query heads per KV head (qwen3-14b's grouping), contexts ending inside and at the edge of a tile.
  AttentionCase c({{1, 1}, {64, 1}, {65, 1}, {1000, 1}}, rng);
  c.heads = 10;
  c.qkv = randomBf16(4 * static_cast<std::size_t>(c.qkvStride()), rng, -2.0f, 2.0f);
  const RandomBf16 qNorm = randomBf16(kHeadDim, rng, 0.5f, 1.5f),
                   kNorm = randomBf16(kHeadDim, rng, 0.5f, 1.5f);
  const int maxPositions = 1024;
  DeviceVector<float> cosines(std::vector<float>(maxPositions * kHeadDim / 2)),
      sines(std::vector<float>(maxPositions * kHeadDim / 2));
  fillRopeTable(cosines.get(), sines.get(), maxPositions, kHeadDim, 1e6, nullptr);
  DeviceVector<Bf16> dQNorm(qNorm.bits), dKNorm(kNorm.bits);
  DeviceVector<std::int32_t> start(c.queryStart), len(c.queryLen), context(c.contextLen),
      tables(c.blockTables), seqs(std::vector<std::int32_t>{0, 1, 2, 3});
  DeviceVector<unsigned> counters(std::vector<unsigned>(4 * static_cast<std::size_t>(c.kvHeads), 0u));
  const SeqTable table{start.get(), len.get(), context.get(), tables.get(), c.stride};

  // The reference: q and the new k normed and rotated, the new k and v in their cache slots.
  AttentionCase ref = c;
  std::vector<std::size_t> newSlots;  // element offsets of each (sequence, KV head)'s new row
  for (int s = 0; s < 4; ++s) {
    const int position = c.contextLen[static_cast<std::size_t>(s)] - 1;
    double* row = ref.qkv.values.data() + static_cast<std::size_t>(s) * c.qkvStride();
    for (int h = 0; h < c.heads; ++h) {
      const std::vector<double> rotated = normRopeReference(row + h * kHeadDim, qNorm.values, position);
      std::copy(rotated.begin(), rotated.end(), row + h * kHeadDim);
    }
    const std::size_t block = static_cast<std::size_t>(
        c.blockTables[static_cast<std::size_t>(s * c.stride + position / c.blockSize)]);
    for (int h = 0; h < c.kvHeads; ++h) {
      double* k = row + (c.heads + h) * kHeadDim;
      const std::vector<double> rotated = normRopeReference(k, kNorm.values, position);
      std::copy(rotated.begin(), rotated.end(), k);
      const std::size_t at = ((block * c.kvHeads + static_cast<std::size_t>(h)) * c.blockSize +
                              static_cast<std::size_t>(position % c.blockSize)) *
                             kHeadDim;
      newSlots.push_back(at);
      for (int d = 0; d < kHeadDim; ++d) {
        ref.key.values[at + d] = fromBf16(toBf16(static_cast<float>(k[d])));
        ref.value.values[at + d] = row[(c.heads + c.kvHeads + h) * kHeadDim + d];
      }
    }
  }
  const std::vector<double> expected = ref.reference({0, 1, 2, 3});
  for (const int splits : {1, 2, 16}) {
    DeviceVector<Bf16> key(c.key.bits), value(c.value.bits), qkv(c.qkv.bits);  // fresh: no new rows yet
    const LayerKvCache cache{key.get(), value.get(), c.blockSize, c.kvHeads, c.numBlocks};
    DeviceVector<float> partials(
        std::vector<float>(static_cast<std::size_t>(decodeAttentionPartialFloats(4, c.heads, splits)), NAN));
    DeviceVector<Bf16> out(std::vector<Bf16>(4 * static_cast<std::size_t>(c.heads) * kHeadDim, 0xffff));
    decodeAttention(out.get(), qkv.get(), c.qkvStride(), table, splits == 16 ? nullptr : seqs.get(), 4,
                    c.heads, cache, splits, partials.get(), counters.get(),
                    DecodeRope{dQNorm.get(), dKNorm.get(), cosines.get(), sines.get(), 1e-6f}, splits == 2,
                    nullptr);
    EXPECT_LT(relativeError(widen(out.read()), expected), 1e-2) << splits << " splits";
    const std::vector<double> k = widen(key.read()), v = widen(value.read());
    std::vector<double> got, want;
    for (const std::size_t at : newSlots) {
      got.insert(got.end(), k.begin() + static_cast<std::ptrdiff_t>(at),
                 k.begin() + static_cast<std::ptrdiff_t>(at + kHeadDim));
      got.insert(got.end(), v.begin() + static_cast<std::ptrdiff_t>(at),
                 v.begin() + static_cast<std::ptrdiff_t>(at + kHeadDim));
      want.insert(want.end(), ref.key.values.begin() + static_cast<std::ptrdiff_t>(at),
                  ref.key.values.begin() + static_cast<std::ptrdiff_t>(at + kHeadDim));
      want.insert(want.end(), ref.value.values.begin() + static_cast<std::ptrdiff_t>(at),
                  ref.value.values.begin() + static_cast<std::ptrdiff_t>(at + kHeadDim));
    }
    EXPECT_LT(relativeError(got, want), 5e-3) << splits << " splits";
  }
}

// The kernel's edges: every query-head grouping it is built for (1-8 heads a KV head, padded to
// 16 rows), contexts that end inside a warp's 16 keys, at a warp's or a tile's edge and past three tiles
// in flight, and splits of 16-key partitions where only the first warp of a block has keys.
TEST(CudaKernels, DecodeAttentionHandlesEveryGroupingAndEdge) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(21);
  const std::vector<std::pair<int, int>> seqs{{1, 1},  {16, 1},  {17, 1},  {63, 1},
                                              {64, 1}, {193, 1}, {2500, 1}};
  const int count = static_cast<int>(seqs.size());
  for (const int group : {1, 3, 4, 8}) {
    AttentionCase c(seqs, rng);
    c.heads = group * c.kvHeads;
    c.qkv = randomBf16(static_cast<std::size_t>(count) * c.qkvStride(), rng, -3.0f, 3.0f);
    DeviceVector<Bf16> key(c.key.bits), value(c.value.bits), qkv(c.qkv.bits);
    std::vector<std::int32_t> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), 0);
    DeviceVector<std::int32_t> start(c.queryStart), len(c.queryLen), context(c.contextLen),
        tables(c.blockTables), list(order);
    DeviceVector<unsigned> counters(std::vector<unsigned>(static_cast<std::size_t>(count * c.kvHeads), 0u));
    const SeqTable table{start.get(), len.get(), context.get(), tables.get(), c.stride};
    const LayerKvCache cache{key.get(), value.get(), c.blockSize, c.kvHeads, c.numBlocks};
    const std::vector<double> expected = c.reference(order);
    for (const int splits : {1, 3, 16, 64}) {
      DeviceVector<float> partials(std::vector<float>(
          static_cast<std::size_t>(decodeAttentionPartialFloats(count, c.heads, splits)), NAN));
      DeviceVector<Bf16> out(std::vector<Bf16>(static_cast<std::size_t>(count * c.heads) * kHeadDim, 0xffff));
      decodeAttention(out.get(), qkv.get(), c.qkvStride(), table, list.get(), count, c.heads, cache, splits,
                      partials.get(), counters.get(), DecodeRope{}, false, nullptr);
      EXPECT_LT(relativeError(widen(out.read()), expected), 1e-2)
          << group << " heads a KV head, " << splits << " splits";
    }
    for (const unsigned left : counters.read())
      EXPECT_EQ(left, 0u);
  }
}

// One prefill launch over every sequence of the case with the named kernel: the output rows in order.
std::vector<double> runPrefill(const AttentionCase& c, PrefillKernel kernel) {
  DeviceVector<Bf16> key(c.key.bits), value(c.value.bits), qkv(c.qkv.bits);
  std::vector<std::int32_t> order(c.queryLen.size());
  std::iota(order.begin(), order.end(), 0);
  DeviceVector<std::int32_t> start(c.queryStart), len(c.queryLen), context(c.contextLen),
      tables(c.blockTables), seqs(order);
  const SeqTable table{start.get(), len.get(), context.get(), tables.get(), c.stride};
  const LayerKvCache cache{key.get(), value.get(), c.blockSize, c.kvHeads, c.numBlocks};
  const int rows = std::accumulate(c.queryLen.begin(), c.queryLen.end(), 0);
  const int longest = *std::max_element(c.queryLen.begin(), c.queryLen.end());
  DeviceVector<Bf16> out(std::vector<Bf16>(static_cast<std::size_t>(rows) * c.heads * kHeadDim, 0xffff));
  prefillAttention(out.get(), qkv.get(), c.qkvStride(), table, seqs.get(), static_cast<int>(order.size()),
                   longest, c.heads, cache, nullptr, kernel);
  return widen(out.read());
}

// The kernels this machine runs: the portable one always, the Hopper one on a compute capability 9.0 GPU.
std::vector<PrefillKernel> prefillKernels(const AttentionCase& c) {
  std::vector<PrefillKernel> kernels{PrefillKernel::Portable};
  const LayerKvCache layout{nullptr, nullptr, c.blockSize, c.kvHeads, c.numBlocks};
  if (hopperPrefillAvailable(layout)) kernels.push_back(PrefillKernel::Hopper);
  return kernels;
}

const char* kernelName(PrefillKernel kernel) {
  return kernel == PrefillKernel::Hopper ? "Hopper kernel" : "portable kernel";
}

TEST(CudaKernels, PrefillAttentionIsCausalOverTheCachedPrefixAndTheChunk) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(6);
  // (context, new tokens): a whole prompt, a chunk after a cached prefix, a chunk shorter than a tile.
  const AttentionCase c({{150, 150}, {300, 100}, {90, 7}}, rng);
  const std::vector<double> expected = c.reference({0, 1, 2});
  for (const PrefillKernel kernel : prefillKernels(c))
    EXPECT_LT(relativeError(runPrefill(c, kernel), expected), 1e-2) << kernelName(kernel);
}

// Both kernels over the shapes a server meets: every query-head grouping of the Qwen3 sizes (1, 4, 5 and
// 8 query heads a KV head), cache blocks of 16, 32, 64 and 256 tokens, lengths that end inside a tile or a
// block, chunks after cached prefixes, one token, 1 to 64 sequences in one launch.
TEST(CudaKernels, PrefillAttentionKernelsMatchTheReferenceOnEveryShape) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(61);
  struct Shape {
    std::vector<std::pair<int, int>> seqs;
    int heads, kvHeads, blockSize;
  };
  std::vector<std::pair<int, int>> many;  // 64 sequences: short prompts and chunks of every length
  for (int i = 0; i < 64; ++i)
    many.push_back({3 + 11 * i, 1 + (7 * i) % (3 + 11 * i)});
  const std::vector<Shape> shapes{
      {{{1, 1}, {129, 129}, {640, 513}, {200, 65}}, 8, 2, 16},
      {{{257, 257}, {1000, 300}}, 10, 2, 32},
      {{{700, 700}, {513, 200}}, 2, 2, 256},
      {{{385, 385}, {90, 90}}, 8, 1, 64},
      {many, 4, 1, 16},
  };
  for (const Shape& shape : shapes) {
    const AttentionCase c(shape.seqs, rng, shape.heads, shape.kvHeads, shape.blockSize);
    std::vector<int> all(shape.seqs.size());
    std::iota(all.begin(), all.end(), 0);
    const std::vector<double> expected = c.reference(all);
    std::vector<std::vector<double>> outputs;
    for (const PrefillKernel kernel : prefillKernels(c)) {
      outputs.push_back(runPrefill(c, kernel));
      EXPECT_LT(relativeError(outputs.back(), expected), 1e-2)
          << kernelName(kernel) << ": " << shape.heads << " heads over " << shape.kvHeads << ", blocks of "
          << shape.blockSize << ", " << shape.seqs.size() << " sequences";
    }
    if (outputs.size() == 2) {  // the two kernels round differently, but only at bf16's last places
      EXPECT_LT(relativeError(outputs[1], outputs[0]), 1e-2)
          << shape.heads << " heads over " << shape.kvHeads;
    }
  }
}

// A chunk deep into a long context (a prefix-cache hit of 33,000 tokens) and a whole 4,100-token prompt:
// many tiles, the running maximum moving late.
TEST(CudaKernels, PrefillAttentionKernelsMatchTheReferenceOverLongContexts) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(62);
  const AttentionCase c({{33000, 130}, {4100, 4100}}, rng, 4, 1, 16);
  const std::vector<double> expected = c.reference({0, 1});
  for (const PrefillKernel kernel : prefillKernels(c))
    EXPECT_LT(relativeError(runPrefill(c, kernel), expected), 1e-2) << kernelName(kernel);
}

TEST(CudaKernels, SamplingFollowsTheSoftmaxWithinTopKAndTopP) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(7);
  const int vocab = 5000, draws = 2000;
  std::vector<float> row(vocab);
  std::normal_distribution<float> pick(0.0f, 2.0f);
  for (float& v : row)
    v = pick(rng);
  std::vector<float> logits;
  for (int i = 0; i < draws; ++i)
    logits.insert(logits.end(), row.begin(), row.end());
  DeviceVector<float> dLogits(logits);
  std::vector<float> uniform(draws);
  for (int i = 0; i < draws; ++i)
    uniform[static_cast<std::size_t>(i)] = (static_cast<float>(i) + 0.5f) / draws;  // evenly spread draws
  DeviceVector<float> dUniform(uniform);

  std::vector<int> order(vocab);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return row[a] > row[b]; });
  auto run = [&](float temperature, float topP, int topK) {
    DeviceVector<float> t(std::vector<float>(draws, temperature)), p(std::vector<float>(draws, topP));
    DeviceVector<std::int32_t> k(std::vector<std::int32_t>(draws, topK)),
        tokens(std::vector<std::int32_t>(draws, -1));
    sampleTokens(tokens.get(), dLogits.get(), draws, vocab,
                 SampleParams{t.get(), p.get(), k.get(), dUniform.get()}, nullptr);
    return tokens.read();
  };

  for (const std::int32_t token : run(0.0f, 1.0f, 0))
    EXPECT_EQ(token, order[0]);  // greedy
  // Top-k 20 at temperature 1: only the 20 largest, each about as often as its renormalised probability.
  const std::vector<std::int32_t> topK = run(1.0f, 1.0f, 20);
  double mass = 0.0;
  for (int i = 0; i < 20; ++i)
    mass += std::exp(row[order[i]] - row[order[0]]);
  for (int i = 0; i < 20; ++i) {
    const double expected = std::exp(row[order[i]] - row[order[0]]) / mass * draws;
    const auto seen = std::count(topK.begin(), topK.end(), order[i]);
    EXPECT_NEAR(static_cast<double>(seen), expected, 2.0) << "token rank " << i;
  }
  EXPECT_EQ(std::count_if(topK.begin(), topK.end(),
                          [&](std::int32_t t) {
                            return std::find(order.begin(), order.begin() + 20, t) == order.begin() + 20;
                          }),
            0);
  // Top-p 0.5: the smallest set of largest tokens holding half the mass.
  double total = 0.0;
  for (const float v : row)
    total += std::exp(v - row[order[0]]);
  int kept = 0;
  for (double acc = 0.0; acc < 0.5 * total; ++kept)
    acc += std::exp(row[order[kept]] - row[order[0]]);
  const std::vector<std::int32_t> topP = run(1.0f, 0.5f, 0);
  for (const std::int32_t t : topP)
    EXPECT_NE(std::find(order.begin(), order.begin() + kept, t), order.begin() + kept) << "token " << t;
  EXPECT_GT(std::set<std::int32_t>(topP.begin(), topP.end()).size(), 1u);
}

TEST(CudaKernels, FillDummyDrawsMakeDummyWeightsValues) {
  SKIP_WITHOUT_GPU();
  ModelConfig config = *findModelPreset("qwen3-tiny");
  const Weights weights = makeDummyWeights(config, 99);
  const std::vector<WeightTensorSpec> specs = weightTensorSpecs(config);
  const WeightTensorSpec& embedding = specs.front();  // several 2^20 chunks
  const DummyTensorDraw draw = dummyTensorDraw(embedding, 99);
  DeviceVector<Bf16> out(std::vector<Bf16>(weights.embedTokens.size()));
  fillDummy(out.get(), static_cast<std::int64_t>(weights.embedTokens.size()), draw.chunkBase, draw.center,
            draw.halfWidth, nullptr);
  const std::vector<Bf16> bits = out.read();
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < bits.size(); ++i)
    mismatches += bits[i] != toBf16(weights.embedTokens[i]) ? 1 : 0;
  EXPECT_EQ(mismatches, 0u);
}

}  // namespace
}  // namespace ayar::engine::cuda
