#pragma once

#include <cstdint>

namespace ayar::engine {

class WorkerPool;

// The inner loops of the CPU backend, written so that the compiler vectorises them (and, on x86-64,
// compiled for AVX2 as well as the baseline).

// sum_i a[i] * b[i]
float dotProduct(const float* a, const float* b, std::int64_t n);

// y[i] += scale * x[i]
void addScaled(float* y, float scale, const float* x, std::int64_t n);

// y[t, o] = sum_i x[t, i] * w[o, i] for t < tokens and o < outFeatures: the tokens' activations
// ([tokens, inFeatures], row-major) times a Hugging Face weight ([outFeatures, inFeatures]). The output
// rows are split over the pool's threads. Every y[t, o] is summed in the same order whatever the number
// of tokens or threads, so a token's result does not depend on the rest of its batch: a request that is
// recomputed (after preemption, or in other chunks) gets the same logits bit for bit.
void matmul(float* y, const float* x, const float* w, std::int64_t tokens, std::int64_t inFeatures,
            std::int64_t outFeatures, WorkerPool& pool);

}  // namespace ayar::engine
