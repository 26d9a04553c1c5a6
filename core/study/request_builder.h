#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/load/load_runner.h"
#include "core/report/message_text.h"
#include "core/study/profile_spec.h"
#include "core/tokenizer/tokenizer.h"

namespace ayar {

// A profile's requests, ready for the load runner.
struct BuiltRequests {
  std::vector<LoadRequest> requests;
  std::string datasetName;  // what was really used: "synthetic-sharegpt" when ShareGPT fell back
  bool synthetic = false;   // the ShareGPT-like set stood in for a missing ShareGPT file
  // A line for the output and the result (empty when there is nothing to say); note is its English.
  Message noteText;
  std::string note;
  // vLLM sends ignore_eos with every request of its random dataset (on the OpenAI-compatible
  // backends, the only ones Ayar speaks), so that outputs run to the drawn length.
  bool forcesIgnoreEos = false;
};

// Builds the profile's dataset with its seed. A ShareGPT profile without --dataset-path uses the
// synthetic ShareGPT-like set and says so. Throws ayar::Error for a dataset that cannot be built.
BuiltRequests buildRequests(const ProfileSpec& profile, std::shared_ptr<const Tokenizer> tokenizer);

}  // namespace ayar
