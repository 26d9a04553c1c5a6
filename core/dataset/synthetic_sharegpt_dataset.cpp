#include "core/dataset/synthetic_sharegpt_dataset.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

constexpr double kMinLen = 3.5;           // rounds to ShareGPT's minimum of 4 tokens
constexpr double kMaxPromptLen = 1024.5;  // rounds to 1024
constexpr int kMaxTotalLen = 2048;

double normalCdf(double z) {
  return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

// Acklam's rational approximation, polished with one Halley step to near double precision.
double normalQuantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                                 1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                 6.680131188771972e+01, -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                 -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                 3.754408661907416e+00};
  p = std::clamp(p, 1e-300, 1.0 - 1e-16);
  constexpr double low = 0.02425;
  double x = 0.0;
  if (p < low) {
    const double q = std::sqrt(-2.0 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  } else if (p <= 1.0 - low) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
  } else {
    const double q = std::sqrt(-2.0 * std::log(1.0 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  }
  const double e = normalCdf(x) - p;
  const double u = e * std::sqrt(2.0 * std::numbers::pi) * std::exp(x * x / 2.0);
  return x - u / (1.0 + x * u / 2.0);
}

// A log-normal distribution truncated to [low, high].
struct TruncatedLogNormal {
  double mu;
  double sigma;
  double low;
  double high;

  double cdfZ(double x) const { return normalCdf((std::log(x) - mu) / sigma); }
  double mean() const {
    const double mass = cdfZ(high) - cdfZ(low);
    if (mass <= 0.0) return std::log(low) > mu ? low : high;  // all mass beyond one end
    const double s2 = sigma * sigma;
    const double partial =
        normalCdf((std::log(high) - mu - s2) / sigma) - normalCdf((std::log(low) - mu - s2) / sigma);
    return std::exp(mu + s2 / 2.0) * partial / mass;
  }
  // The value at quantile u in (0, 1) of the truncated distribution.
  double quantile(double u) const {
    const double pLow = cdfZ(low);
    const double pHigh = cdfZ(high);
    const double x = std::exp(mu + sigma * normalQuantile(pLow + u * (pHigh - pLow)));
    return std::clamp(x, low, high);
  }
};

int roundedLength(double x) {
  return static_cast<int>(std::lround(x));
}

// The mu whose truncated mean is `target`; `meanOf(mu)` increases with mu.
template <typename MeanOf>
double solveMu(double target, MeanOf meanOf) {
  double lo = -10.0, hi = 20.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2.0;
    (meanOf(mid) < target ? lo : hi) = mid;
  }
  return (lo + hi) / 2.0;
}

// One draw from each of n equal slices of [0, 1), in seeded random order.
std::vector<double> stratifiedUniforms(std::size_t n, SeededRandom& random) {
  std::vector<std::size_t> slices(n);
  for (std::size_t i = 0; i < n; ++i)
    slices[i] = i;
  random.shuffle(slices);
  std::vector<double> u(n);
  for (std::size_t i = 0; i < n; ++i)
    u[i] = (static_cast<double>(slices[i]) + random.uniform()) / static_cast<double>(n);
  return u;
}

}  // namespace

std::vector<SampleRequest> generateSyntheticShareGptDataset(const PromptVocabulary& vocabulary,
                                                            const SyntheticShareGptOptions& options) {
  if (options.numPrompts < 1) {
    throw MessageError({MessageText::SyntheticNumPrompts, {std::to_string(options.numPrompts)}});
  }
  if (!(options.meanInputTokens >= 8.0 && options.meanInputTokens <= 900.0)) {
    throw MessageError(
        {MessageText::SyntheticMeanInput, {decimalArgument(std::to_string(options.meanInputTokens))}});
  }
  if (!(options.meanOutputTokens >= 8.0 && options.meanOutputTokens <= 900.0)) {
    throw MessageError(
        {MessageText::SyntheticMeanOutput, {decimalArgument(std::to_string(options.meanOutputTokens))}});
  }
  if (!(options.inputSigma > 0.05 && options.inputSigma < 4.0) ||
      !(options.outputSigma > 0.05 && options.outputSigma < 4.0)) {
    throw MessageError({MessageText::SyntheticSigma, {}});
  }
  if (options.outputLen && *options.outputLen < 1) {
    throw MessageError({MessageText::SyntheticOutputLen, {std::to_string(*options.outputLen)}});
  }

  TruncatedLogNormal input{0.0, options.inputSigma, kMinLen, kMaxPromptLen};
  input.mu = solveMu(options.meanInputTokens, [&](double mu) {
    TruncatedLogNormal d = input;
    d.mu = mu;
    return d.mean();
  });
  // The output's upper bound depends on the prompt (prompt + output <= 2048): average the truncated
  // mean over the prompt distribution's quantiles.
  constexpr int kGrid = 256;
  std::vector<int> gridPrompts(kGrid);
  for (int k = 0; k < kGrid; ++k)
    gridPrompts[k] = roundedLength(input.quantile((k + 0.5) / kGrid));
  const auto outputFor = [&](double mu, int promptTokens) {
    return TruncatedLogNormal{mu, options.outputSigma, kMinLen, kMaxTotalLen - promptTokens + 0.5};
  };
  const double outputMu = solveMu(options.meanOutputTokens, [&](double mu) {
    double sum = 0.0;
    for (int prompt : gridPrompts)
      sum += outputFor(mu, prompt).mean();
    return sum / kGrid;
  });

  SeededRandom random(options.seed);
  const auto n = static_cast<std::size_t>(options.numPrompts);
  const std::vector<double> inputU = stratifiedUniforms(n, random);
  const std::vector<double> outputU = stratifiedUniforms(n, random);
  std::vector<SampleRequest> requests(n);
  for (std::size_t i = 0; i < n; ++i) {
    SampleRequest& request = requests[i];
    const int promptTokens = std::clamp(roundedLength(input.quantile(inputU[i])), 4, 1024);
    request.expectedOutputTokens =
        options.outputLen ? *options.outputLen
                          : std::clamp(roundedLength(outputFor(outputMu, promptTokens).quantile(outputU[i])),
                                       4, kMaxTotalLen - promptTokens);
    request.promptTokenIds = vocabulary.englishText(promptTokens, random, true);
    request.prompt = vocabulary.render(request.promptTokenIds);
    request.promptTokens = promptTokens;
  }
  return requests;
}

}  // namespace ayar
