// Ayar draws what numpy and vLLM's `vllm bench serve` draw for the same seed. The expected values
// come from tests/vllm/make_reference_draws.py, which runs numpy itself (see that script).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/dataset/numpy_random.h"
#include "core/dataset/random_dataset.h"
#include "tests/core/dataset/dataset_fixture.h"

namespace ayar {
namespace {

const nlohmann::json& reference() {
  static const nlohmann::json json = [] {
    std::ifstream in(std::string(AYAR_VLLM_REFERENCE_DIR) + "/reference_draws.json");
    return nlohmann::json::parse(in);
  }();
  return json;
}

TEST(NumpyDraws, SeedSequenceGivesNumpysStateWords) {
  for (const auto& c : reference()["seed_sequence"]) {
    SCOPED_TRACE(c["entropy"].dump());
    EXPECT_EQ(seedSequenceState(c["entropy"].get<std::uint64_t>(), 8),
              c["words"].get<std::vector<std::uint32_t>>());
  }
}

TEST(NumpyDraws, Pcg64GivesNumpysRawStream) {
  for (const auto& c : reference()["pcg64"]) {
    NumpyGenerator random(c["seed"].get<std::uint64_t>());
    for (const auto& expected : c["next64"])
      EXPECT_EQ(random.next64(), expected.get<std::uint64_t>());
  }
}

// Every branch of Generator.integers: a range of 0, 32-bit Lemire draws that use both halves of a
// 64-bit output across calls, the full 32-bit range, 64-bit Lemire draws, negative bounds.
TEST(NumpyDraws, IntegersGiveNumpysValuesCallAfterCall) {
  for (const auto& c : reference()["integers"]) {
    SCOPED_TRACE(c["seed"].dump());
    NumpyGenerator random(c["seed"].get<std::uint64_t>());
    const auto& calls = c["calls"];
    for (std::size_t i = 0; i < calls.size(); ++i) {
      SCOPED_TRACE(calls[i].dump());
      EXPECT_EQ(random.integers(calls[i][0].get<std::int64_t>(), calls[i][1].get<std::int64_t>(),
                                calls[i][2].get<std::size_t>()),
                c["values"][i].get<std::vector<std::int64_t>>());
    }
  }
}

TEST(NumpyDraws, LegacyGammaGivesNumpysValuesToTheLastBit) {
  for (const auto& c : reference()["legacy_gamma"]) {
    SCOPED_TRACE(c["seed"].dump() + " shape " + c["shape"].dump());
    NumpyLegacyRandom random(c["seed"].get<std::uint32_t>());
    for (const auto& expected : c["values"])
      ASSERT_EQ(random.gamma(c["shape"].get<double>(), c["scale"].get<double>()), expected.get<double>());
  }
  NumpyLegacyRandom random(reference()["legacy_uniform"]["seed"].get<std::uint32_t>());
  for (const auto& expected : reference()["legacy_uniform"]["values"])
    EXPECT_EQ(random.uniform(), expected.get<double>());
}

using VllmRandomDataset = test::DatasetTest;

// The prompts, lengths and output lengths of vLLM's random dataset for the same seed, including a
// prompt whose re-encoding came up short and was padded with drawn tokens, and a shared prefix.
TEST_F(VllmRandomDataset, GivesVllmsPromptsForTheSameSeed) {
  ASSERT_EQ(tokenizer().modelVocabSize(), 151643u);  // transformers' vocab_size for Qwen3
  bool padded = false;
  for (const auto& c : reference()["random_dataset"]) {
    SCOPED_TRACE("seed " + c["seed"].dump() + ", input " + c["input_len"].dump());
    RandomDatasetOptions options;
    options.numPrompts = c["num_prompts"].get<int>();
    options.inputLen = c["input_len"].get<int>();
    options.outputLen = c["output_len"].get<int>();
    options.rangeRatio = c["range_ratio"].get<double>();
    options.prefixLen = c["prefix_len"].get<int>();
    options.seed = c["seed"].get<std::uint64_t>();
    const std::vector<SampleRequest> requests = generateRandomDataset(tokenizer(), options);
    ASSERT_EQ(requests.size(), c["prompts"].size());
    for (std::size_t i = 0; i < requests.size(); ++i) {
      SCOPED_TRACE(i);
      const auto& expected = c["prompts"][i];
      EXPECT_EQ(requests[i].prompt, expected["prompt"].get<std::string>());
      EXPECT_EQ(requests[i].promptTokens, expected["prompt_len"].get<int>());
      EXPECT_EQ(requests[i].expectedOutputTokens, expected["expected_output_len"].get<int>());
      expectExactTokens(requests[i]);
      padded |= expected["padding_drawn"].get<int>() > 0;
    }
  }
  EXPECT_TRUE(padded) << "the reference should hold a prompt that needed padding";
}

}  // namespace
}  // namespace ayar
