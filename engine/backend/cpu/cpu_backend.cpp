// The float32 reference forward pass of a Qwen3 dense model over a paged KV cache.
//
// One step takes a batch of sequences, each contributing either a prefill chunk or one decode token.
// All new tokens of the batch are laid out as rows of one activation matrix, so every projection is one
// matmul over the whole batch; only attention looks at sequences separately, through their block tables.
//
//   x = embed(tokens)
//   per layer:  h = rmsnorm(x);  q, k, v = h Wq, h Wk, h Wv;  q, k = rmsnorm per head (q_norm, k_norm);
//               q, k = rope(q, k);  cache[k, v];  x += attention(q, cache) Wo
//               h = rmsnorm(x);  x += (silu(h Wgate) * (h Wup)) Wdown
//   logits = rmsnorm(x) Wlm_head, only for the last token of sequences that sample

#include "engine/backend/cpu/cpu_backend.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "engine/backend/cpu/cpu_kernels.h"
#include "engine/model/fp8.h"

namespace ayar::engine {

namespace {

void rmsnorm(float* out, const float* x, const float* weight, int n, double eps) {
  float sumSquares = 0.0f;
  for (int i = 0; i < n; ++i)
    sumSquares += x[i] * x[i];
  const float scale = static_cast<float>(1.0 / std::sqrt(sumSquares / n + eps));
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * scale * weight[i];
}

// NeoX-style rotary embedding over the whole head: element i pairs with element i + headDim/2.
void applyRope(float* head, const float* cosines, const float* sines, int headDim) {
  const int half = headDim / 2;
  for (int i = 0; i < half; ++i) {
    const float x1 = head[i];
    const float x2 = head[i + half];
    head[i] = x1 * cosines[i] - x2 * sines[i];
    head[i + half] = x2 * cosines[i] + x1 * sines[i];
  }
}

float silu(float x) {
  return x / (1.0f + std::exp(-x));
}

}  // namespace

CpuBackend::CpuBackend(const ModelConfig& config, std::shared_ptr<const Weights> weights, std::uint64_t seed,
                       int numThreads, CpuPrecision precision)
    : m_config(config),
      m_precision(precision),
      m_weights(std::move(weights)),
      m_sampler(seed),
      m_pool(numThreads) {
  for (int code = 0; code < 256; ++code)
    m_e4m3Values.push_back(e4m3ToFloat(static_cast<std::uint8_t>(code)));
  assert(m_weights);
  assert(m_weights->layers.size() == static_cast<std::size_t>(config.numLayers));
  assert(m_weights->embedTokens.size() == static_cast<std::size_t>(config.vocabSize) * config.hiddenSize);
  assert(m_weights->outputProjection().size() == m_weights->embedTokens.size());
}

std::size_t CpuBackend::kvBytesPerBlock(int blockSize) const {
  return static_cast<std::size_t>(blockSize) *
         static_cast<std::size_t>(m_config.kvBytesPerToken(m_precision.fp8KvCache ? 1 : sizeof(float)));
}

void CpuBackend::allocateKvCache(int numBlocks, int blockSize) {
  assert(numBlocks > 0 && blockSize > 0);
  m_numBlocks = numBlocks;
  m_blockSize = blockSize;
  const std::size_t elements = static_cast<std::size_t>(m_config.numLayers) * numBlocks * blockSize *
                               m_config.numKvHeads * m_config.headDim;
  if (m_precision.fp8KvCache) {
    m_keyCodes.assign(elements, 0);
    m_valueCodes.assign(elements, 0);
  } else {
    m_keyCache.assign(elements, 0.0f);
    m_valueCache.assign(elements, 0.0f);
  }
}

std::size_t CpuBackend::cacheOffset(int layer, std::int32_t block, int slot) const {
  const std::size_t row = (static_cast<std::size_t>(layer) * m_numBlocks + block) * m_blockSize + slot;
  return row * m_config.numKvHeads * m_config.headDim;
}

void CpuBackend::storeKeyValue(int layer, std::int32_t block, int slot, const float* key,
                               const float* value) {
  const std::size_t at = cacheOffset(layer, block, slot);
  const int kvDim = m_config.numKvHeads * m_config.headDim;
  if (!m_precision.fp8KvCache) {
    std::copy_n(key, kvDim, m_keyCache.data() + at);
    std::copy_n(value, kvDim, m_valueCache.data() + at);
    return;
  }
  for (int i = 0; i < kvDim; ++i) {  // the scale is 1: the codes are the values rounded
    m_keyCodes[at + static_cast<std::size_t>(i)] = floatToE4m3(key[i]);
    m_valueCodes[at + static_cast<std::size_t>(i)] = floatToE4m3(value[i]);
  }
}

const float* CpuBackend::cachedRow(bool value, std::size_t offset, float* scratch) const {
  if (!m_precision.fp8KvCache) return (value ? m_valueCache : m_keyCache).data() + offset;
  const std::uint8_t* codes = (value ? m_valueCodes : m_keyCodes).data() + offset;
  for (int i = 0; i < m_config.headDim; ++i)
    scratch[i] = m_e4m3Values[codes[i]];
  return scratch;
}

const float* CpuBackend::linearInput(const std::vector<float>& x, std::int64_t tokens, int width) {
  if (m_precision.fp8ActivationGroup < 0) return x.data();
  m_linearInput.assign(x.begin(), x.begin() + tokens * width);
  if (m_precision.fp8ActivationGroup == 0) {
    quantizeRowsFp8(m_linearInput, tokens, width);
  } else {
    quantizeGroupsFp8(m_linearInput, tokens, width, m_precision.fp8ActivationGroup);
  }
  return m_linearInput.data();
}

// A malformed batch would write outside the cache, so it is checked in every build. Token ids can come
// from a client; everything else is the scheduler's promise.
void CpuBackend::checkBatch(std::span<const SeqStep> batch) const {
  if (m_numBlocks == 0) throw std::logic_error("CpuBackend::step before allocateKvCache");
  for (const SeqStep& seq : batch) {
    for (const std::int32_t token : seq.tokens) {
      if (token < 0 || token >= m_config.vocabSize) {
        throw Error("token id " + std::to_string(token) + " is outside the vocabulary of " + m_config.name +
                    " (0.." + std::to_string(m_config.vocabSize - 1) + ")");
      }
    }
    const std::int64_t end = std::int64_t{seq.position} + static_cast<std::int64_t>(seq.tokens.size());
    const std::int64_t blocksNeeded = (end + m_blockSize - 1) / m_blockSize;
    if (seq.tokens.empty() || seq.position < 0 ||
        static_cast<std::int64_t>(seq.blockTable.size()) < blocksNeeded || (seq.sample && !seq.sampling)) {
      throw std::logic_error("malformed SeqStep for sequence " + std::to_string(seq.seqId));
    }
    for (std::int64_t b = 0; b < blocksNeeded; ++b) {
      if (seq.blockTable[static_cast<std::size_t>(b)] < 0 ||
          seq.blockTable[static_cast<std::size_t>(b)] >= m_numBlocks) {
        throw std::logic_error("block id out of range for sequence " + std::to_string(seq.seqId));
      }
    }
  }
}

void CpuBackend::step(std::span<const SeqStep> batch, StepOutput& out) {
  checkBatch(batch);
  out.sampled.clear();
  out.releaseAt.clear();
  m_logits.clear();
  if (batch.empty()) return;
  prepareRows(batch);
  embed(batch);
  for (int layer = 0; layer < m_config.numLayers; ++layer) {
    attentionBlock(layer, batch);
    mlpBlock(layer);
  }
  sampleLastRows(batch, out);
}

namespace {

float* rowOf(std::vector<float>& m, std::int64_t t, int width) {
  return m.data() + t * width;
}

}  // namespace

// One row per new token of the step, the activations sized for them, and each row's rotary angles
// (shared by all heads and layers).
void CpuBackend::prepareRows(std::span<const SeqStep> batch) {
  const ModelConfig& c = m_config;
  m_rows.clear();
  for (int s = 0; s < static_cast<int>(batch.size()); ++s) {
    for (std::size_t i = 0; i < batch[s].tokens.size(); ++i) {
      m_rows.push_back({s, batch[s].position + static_cast<std::int32_t>(i)});
    }
  }
  const auto tokens = static_cast<std::int64_t>(m_rows.size());
  const int qDim = c.numHeads * c.headDim;
  const int kvDim = c.numKvHeads * c.headDim;
  m_residual.resize(tokens * c.hiddenSize);
  m_normed.resize(tokens * c.hiddenSize);
  m_query.resize(tokens * qDim);
  m_key.resize(tokens * kvDim);
  m_value.resize(tokens * kvDim);
  m_attention.resize(tokens * qDim);
  m_projected.resize(tokens * c.hiddenSize);
  m_gate.resize(tokens * c.intermediateSize);
  m_up.resize(tokens * c.intermediateSize);

  const int half = c.headDim / 2;
  m_cosines.resize(tokens * half);
  m_sines.resize(tokens * half);
  for (std::int64_t t = 0; t < tokens; ++t) {
    for (int i = 0; i < half; ++i) {
      const double inverseFrequency = std::pow(c.ropeTheta, -2.0 * i / c.headDim);
      const double angle = m_rows[t].position * inverseFrequency;
      m_cosines[t * half + i] = static_cast<float>(std::cos(angle));
      m_sines[t * half + i] = static_cast<float>(std::sin(angle));
    }
  }
}

void CpuBackend::embed(std::span<const SeqStep> batch) {
  const int hidden = m_config.hiddenSize;
  for (std::int64_t t = 0; t < static_cast<std::int64_t>(m_rows.size()); ++t) {
    const TokenRow& row = m_rows[t];
    const std::int32_t token = batch[row.seq].tokens[row.position - batch[row.seq].position];
    std::copy_n(m_weights->embedTokens.data() + static_cast<std::int64_t>(token) * hidden, hidden,
                rowOf(m_residual, t, hidden));
  }
}

// Norm, q/k/v, q/k norm and RoPE, the new K and V into the paged cache, attention, o projection and the
// residual add.
void CpuBackend::attentionBlock(int layer, std::span<const SeqStep> batch) {
  const ModelConfig& c = m_config;
  const LayerWeights& lw = m_weights->layers[layer];
  const int hidden = c.hiddenSize;
  const int headDim = c.headDim;
  const int qDim = c.numHeads * headDim;
  const int kvDim = c.numKvHeads * headDim;
  const int half = headDim / 2;
  const auto tokens = static_cast<std::int64_t>(m_rows.size());

  for (std::int64_t t = 0; t < tokens; ++t) {
    rmsnorm(rowOf(m_normed, t, hidden), rowOf(m_residual, t, hidden), lw.inputLayernorm.data(), hidden,
            c.rmsNormEps);
  }
  const float* normed = linearInput(m_normed, tokens, hidden);
  matmul(m_query.data(), normed, lw.qProj.data(), tokens, hidden, qDim, m_pool);
  matmul(m_key.data(), normed, lw.kProj.data(), tokens, hidden, kvDim, m_pool);
  matmul(m_value.data(), normed, lw.vProj.data(), tokens, hidden, kvDim, m_pool);

  for (std::int64_t t = 0; t < tokens; ++t) {
    const float* cosT = m_cosines.data() + t * half;
    const float* sinT = m_sines.data() + t * half;
    for (int h = 0; h < c.numHeads; ++h) {
      float* q = rowOf(m_query, t, qDim) + h * headDim;
      rmsnorm(q, q, lw.qNorm.data(), headDim, c.rmsNormEps);
      applyRope(q, cosT, sinT, headDim);
    }
    for (int h = 0; h < c.numKvHeads; ++h) {
      float* k = rowOf(m_key, t, kvDim) + h * headDim;
      rmsnorm(k, k, lw.kNorm.data(), headDim, c.rmsNormEps);
      applyRope(k, cosT, sinT, headDim);
    }
    // Into the paged cache: position p lives in block blockTable[p / blockSize], slot p % blockSize.
    const SeqStep& seq = batch[m_rows[t].seq];
    const std::int32_t block = seq.blockTable[m_rows[t].position / m_blockSize];
    const int slot = m_rows[t].position % m_blockSize;
    storeKeyValue(layer, block, slot, rowOf(m_key, t, kvDim), rowOf(m_value, t, kvDim));
  }

  attend(layer, batch);
  matmul(m_projected.data(), linearInput(m_attention, tokens, qDim), lw.oProj.data(), tokens, qDim, hidden,
         m_pool);
  for (std::int64_t i = 0; i < tokens * hidden; ++i)
    m_residual[i] += m_projected[i];
}

// Causal attention: the row at position p attends to positions 0..p of its own sequence, all of which
// are in the cache now (earlier steps, or this step's rows just written). Heads are independent.
void CpuBackend::attend(int layer, std::span<const SeqStep> batch) {
  const ModelConfig& c = m_config;
  const int headDim = c.headDim;
  const int qDim = c.numHeads * headDim;
  const int headsPerKvHead = c.numHeads / c.numKvHeads;
  const float attentionScale = 1.0f / std::sqrt(static_cast<float>(headDim));
  const auto tokens = static_cast<std::int64_t>(m_rows.size());
  std::int64_t longestContext = 1;
  for (const TokenRow& row : m_rows)
    longestContext = std::max<std::int64_t>(longestContext, row.position + 1);
  const std::int64_t minHeadsPerThread = std::max<std::int64_t>(1, 16384 / (longestContext * headDim));
  m_pool.parallelFor(tokens * c.numHeads, minHeadsPerThread, [&](std::int64_t begin, std::int64_t end) {
    std::vector<float> scores;
    std::vector<float> scratch(static_cast<std::size_t>(headDim));  // an FP8 cache row, decoded
    for (std::int64_t item = begin; item < end; ++item) {
      const std::int64_t t = item / c.numHeads;
      const int h = static_cast<int>(item % c.numHeads);
      const int kvHead = h / headsPerKvHead;
      const SeqStep& seq = batch[m_rows[t].seq];
      const int context = m_rows[t].position + 1;
      const float* q = rowOf(m_query, t, qDim) + h * headDim;

      scores.resize(context);
      float maxScore = -INFINITY;
      for (int j = 0; j < context; ++j) {
        const float* k = cachedRow(
            false, cacheOffset(layer, seq.blockTable[j / m_blockSize], j % m_blockSize) + kvHead * headDim,
            scratch.data());
        scores[j] = dotProduct(q, k, headDim) * attentionScale;
        maxScore = std::max(maxScore, scores[j]);
      }
      float sum = 0.0f;
      for (int j = 0; j < context; ++j) {
        scores[j] = std::exp(scores[j] - maxScore);
        sum += scores[j];
      }
      float* o = rowOf(m_attention, t, qDim) + h * headDim;
      std::fill_n(o, headDim, 0.0f);
      for (int j = 0; j < context; ++j) {
        const float* v = cachedRow(
            true, cacheOffset(layer, seq.blockTable[j / m_blockSize], j % m_blockSize) + kvHead * headDim,
            scratch.data());
        addScaled(o, scores[j] / sum, v, headDim);
      }
    }
  });
}

void CpuBackend::mlpBlock(int layer) {
  const ModelConfig& c = m_config;
  const LayerWeights& lw = m_weights->layers[layer];
  const int hidden = c.hiddenSize;
  const auto tokens = static_cast<std::int64_t>(m_rows.size());
  for (std::int64_t t = 0; t < tokens; ++t) {
    rmsnorm(rowOf(m_normed, t, hidden), rowOf(m_residual, t, hidden), lw.postAttentionLayernorm.data(),
            hidden, c.rmsNormEps);
  }
  const float* normed = linearInput(m_normed, tokens, hidden);
  matmul(m_gate.data(), normed, lw.gateProj.data(), tokens, hidden, c.intermediateSize, m_pool);
  matmul(m_up.data(), normed, lw.upProj.data(), tokens, hidden, c.intermediateSize, m_pool);
  for (std::int64_t i = 0; i < tokens * c.intermediateSize; ++i)
    m_gate[i] = silu(m_gate[i]) * m_up[i];
  matmul(m_projected.data(), linearInput(m_gate, tokens, c.intermediateSize), lw.downProj.data(), tokens,
         c.intermediateSize, hidden, m_pool);
  for (std::int64_t i = 0; i < tokens * hidden; ++i)
    m_residual[i] += m_projected[i];
}

// Final norm and lm_head, only for the last row of each sequence that samples.
void CpuBackend::sampleLastRows(std::span<const SeqStep> batch, StepOutput& out) {
  const ModelConfig& c = m_config;
  const int hidden = c.hiddenSize;
  std::vector<int> sampling;  // batch indices
  std::int64_t lastRow = -1;
  m_sampledHidden.clear();
  for (int s = 0; s < static_cast<int>(batch.size()); ++s) {
    lastRow += static_cast<std::int64_t>(batch[s].tokens.size());
    if (!batch[s].sample) continue;
    sampling.push_back(s);
    m_sampledHidden.resize(m_sampledHidden.size() + hidden);
    rmsnorm(m_sampledHidden.data() + m_sampledHidden.size() - hidden, rowOf(m_residual, lastRow, hidden),
            m_weights->finalNorm.data(), hidden, c.rmsNormEps);
  }
  const auto sampled = static_cast<std::int64_t>(sampling.size());
  m_logits.resize(sampled * c.vocabSize);
  if (sampled > 0) {
    matmul(m_logits.data(), m_sampledHidden.data(), m_weights->outputProjection().data(), sampled, hidden,
           c.vocabSize, m_pool);
  }
  for (std::int64_t i = 0; i < sampled; ++i) {
    const SeqStep& seq = batch[sampling[i]];
    const std::span<const float> logits(m_logits.data() + i * c.vocabSize, c.vocabSize);
    out.sampled.push_back(m_sampler.sample(logits, *seq.sampling, seq.generatedSoFar));
  }
}

std::unique_ptr<Backend> makeCpuBackend(const ModelConfig& config, std::shared_ptr<const Weights> weights,
                                        std::uint64_t seed, CpuPrecision precision) {
  return std::make_unique<CpuBackend>(config, std::move(weights), seed, 0, precision);
}

}  // namespace ayar::engine
