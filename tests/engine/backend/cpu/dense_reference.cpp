#include "tests/engine/backend/cpu/dense_reference.h"

#include <cmath>
#include <random>

namespace ayar::engine::reference {

namespace {

using Matrix = std::vector<std::vector<double>>;  // [row][column]

// out[j] = sum_i W[j][i] * in[i] for a Hugging Face weight stored row-major as [outFeatures][inFeatures].
std::vector<double> linear(const std::vector<float>& weight, const std::vector<double>& in, int outFeatures) {
  const std::size_t inFeatures = in.size();
  std::vector<double> out(static_cast<std::size_t>(outFeatures), 0.0);
  for (std::size_t j = 0; j < out.size(); ++j) {
    for (std::size_t i = 0; i < inFeatures; ++i)
      out[j] += weight[j * inFeatures + i] * in[i];
  }
  return out;
}

std::vector<double> rmsNorm(const std::vector<double>& x, const float* weight, double eps) {
  double meanSquare = 0.0;
  for (const double v : x)
    meanSquare += v * v;
  meanSquare /= static_cast<double>(x.size());
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = x[i] / std::sqrt(meanSquare + eps) * weight[i];
  return out;
}

// Normalises, then rotates, each head of `heads` (heads * headDim values) in place.
void normAndRotate(std::vector<double>& heads, const std::vector<float>& norm, int headDim, int position,
                   const ModelConfig& c) {
  const int count = static_cast<int>(heads.size()) / headDim;
  for (int h = 0; h < count; ++h) {
    std::vector<double> head(heads.begin() + h * headDim, heads.begin() + (h + 1) * headDim);
    head = rmsNorm(head, norm.data(), c.rmsNormEps);
    // rotate_half: out = x * cos + concat(-x2, x1) * sin, with one frequency per pair (i, i + headDim/2).
    std::vector<double> rotated(headDim);
    for (int i = 0; i < headDim; ++i) {
      const int pair = i % (headDim / 2);
      const double frequency = 1.0 / std::pow(c.ropeTheta, 2.0 * pair / headDim);
      const double angle = position * frequency;
      const double partner = i < headDim / 2 ? -head[i + headDim / 2] : head[i - headDim / 2];
      rotated[i] = head[i] * std::cos(angle) + partner * std::sin(angle);
    }
    std::copy(rotated.begin(), rotated.end(), heads.begin() + h * headDim);
  }
}

}  // namespace

ModelConfig smallTestConfig(bool tied) {
  ModelConfig c;
  c.name = "test-small";
  c.hiddenSize = 64;
  c.intermediateSize = 128;
  c.numLayers = 2;
  c.numHeads = 4;
  c.numKvHeads = 2;
  c.headDim = 32;
  c.vocabSize = 300;
  c.tieWordEmbeddings = tied;
  return c;
}

Weights randomTestWeights(const ModelConfig& config, std::uint32_t seed) {
  Weights weights;
  std::mt19937 rng(seed);
  for (WeightTensorRef& ref : weightTensors(weights, config)) {
    if (ref.shape.size() == 1) {
      std::uniform_real_distribution<float> nearOne(0.8f, 1.2f);
      for (float& v : *ref.values)
        v = nearOne(rng);
    } else {
      std::normal_distribution<float> normal(0.0f, 1.0f / std::sqrt(static_cast<float>(ref.shape[1])));
      for (float& v : *ref.values)
        v = normal(rng);
    }
  }
  return weights;
}

std::vector<std::vector<float>> denseLogits(const ModelConfig& c, const Weights& weights,
                                            const std::vector<std::int32_t>& tokens) {
  const int n = static_cast<int>(tokens.size());
  const int hidden = c.hiddenSize;
  const int headDim = c.headDim;
  const int group = c.numHeads / c.numKvHeads;

  Matrix x(n, std::vector<double>(hidden));
  for (int p = 0; p < n; ++p) {
    for (int i = 0; i < hidden; ++i)
      x[p][i] = weights.embedTokens[static_cast<std::size_t>(tokens[p]) * hidden + i];
  }

  for (const LayerWeights& layer : weights.layers) {
    Matrix q(n), k(n), v(n);
    for (int p = 0; p < n; ++p) {
      const std::vector<double> h = rmsNorm(x[p], layer.inputLayernorm.data(), c.rmsNormEps);
      q[p] = linear(layer.qProj, h, c.numHeads * headDim);
      k[p] = linear(layer.kProj, h, c.numKvHeads * headDim);
      v[p] = linear(layer.vProj, h, c.numKvHeads * headDim);
      normAndRotate(q[p], layer.qNorm, headDim, p, c);
      normAndRotate(k[p], layer.kNorm, headDim, p, c);
    }
    for (int p = 0; p < n; ++p) {
      std::vector<double> attended(static_cast<std::size_t>(c.numHeads) * headDim, 0.0);
      for (int h = 0; h < c.numHeads; ++h) {
        const int kv = h / group;
        std::vector<double> weightsOverPast(p + 1);
        double largest = -1e300;
        for (int j = 0; j <= p; ++j) {
          double score = 0.0;
          for (int d = 0; d < headDim; ++d)
            score += q[p][h * headDim + d] * k[j][kv * headDim + d];
          weightsOverPast[j] = score / std::sqrt(static_cast<double>(headDim));
          largest = std::max(largest, weightsOverPast[j]);
        }
        double total = 0.0;
        for (double& w : weightsOverPast)
          total += (w = std::exp(w - largest));
        for (int j = 0; j <= p; ++j) {
          for (int d = 0; d < headDim; ++d) {
            attended[h * headDim + d] += weightsOverPast[j] / total * v[j][kv * headDim + d];
          }
        }
      }
      const std::vector<double> out = linear(layer.oProj, attended, hidden);
      for (int i = 0; i < hidden; ++i)
        x[p][i] += out[i];
    }
    for (int p = 0; p < n; ++p) {
      const std::vector<double> h = rmsNorm(x[p], layer.postAttentionLayernorm.data(), c.rmsNormEps);
      std::vector<double> gate = linear(layer.gateProj, h, c.intermediateSize);
      const std::vector<double> up = linear(layer.upProj, h, c.intermediateSize);
      for (int i = 0; i < c.intermediateSize; ++i)
        gate[i] = gate[i] / (1.0 + std::exp(-gate[i])) * up[i];
      const std::vector<double> down = linear(layer.downProj, gate, hidden);
      for (int i = 0; i < hidden; ++i)
        x[p][i] += down[i];
    }
  }

  const std::vector<float>& head = weights.lmHead.empty() ? weights.embedTokens : weights.lmHead;
  std::vector<std::vector<float>> logits(n);
  for (int p = 0; p < n; ++p) {
    const std::vector<double> logitsP =
        linear(head, rmsNorm(x[p], weights.finalNorm.data(), c.rmsNormEps), c.vocabSize);
    logits[p].assign(logitsP.begin(), logitsP.end());
  }
  return logits;
}

}  // namespace ayar::engine::reference
