#include "core/study/load_plan.h"

#include <cmath>
#include <cstdio>
#include <utility>

#include "core/study/profile_spec.h"

namespace ayar {
namespace {

std::string formatRate(double rate) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", rate);
  return text;
}

// A rate as a load's label writes it, in each language: "2.5" and "2,5".
MessageArgument rateArgument(double rate) {
  std::string english = formatRate(rate), turkish = english;
  for (char& c : turkish) {
    if (c == '.') c = ',';
  }
  return {english, turkish};
}

}  // namespace

std::vector<LoadPlan> loadPlans(const ProfileSpec& profile, std::size_t count) {
  std::vector<LoadPlan> plans;
  switch (profile.loadMode) {
    case LoadMode::Rate:
      if (!profile.rampUpStrategy.empty()) {
        plans.emplace_back(Message{MessageText::LoadRampUp,
                                   {profile.rampUpStrategy, std::to_string(profile.rampUpStartRps),
                                    std::to_string(profile.rampUpEndRps)}},
                           ArrivalSchedule::rampUp(count, profile.rampUpStrategy, profile.rampUpStartRps,
                                                   profile.rampUpEndRps, profile.burstiness, profile.seed),
                           ProfileSpec::kInfinity);
        break;
      }
      plans.emplace_back(
          std::isinf(profile.requestRate)
              ? Message{MessageText::LoadAllAtOnce, {}}
              : Message{MessageText::LoadRate, {rateArgument(profile.requestRate)}},
          ArrivalSchedule::atRate(count, profile.requestRate, profile.burstiness, profile.seed),
          profile.requestRate);
      break;
    case LoadMode::Concurrent:
      plans.emplace_back(Message{MessageText::LoadConcurrent, {std::to_string(profile.concurrency)}},
                         ArrivalSchedule::concurrent(count, profile.concurrency), ProfileSpec::kInfinity);
      break;
    case LoadMode::Throughput:
      plans.emplace_back(Message{MessageText::LoadThroughput, {}}, ArrivalSchedule::throughput(count),
                         ProfileSpec::kInfinity);
      break;
    case LoadMode::Sweep:
      plans.emplace_back(Message{MessageText::LoadSynchronous, {}}, ArrivalSchedule::concurrent(count, 1),
                         ProfileSpec::kInfinity);
      plans.emplace_back(Message{MessageText::LoadThroughput, {}}, ArrivalSchedule::throughput(count),
                         ProfileSpec::kInfinity);
      break;
  }

  return plans;
}

std::vector<LoadPlan> sweepPlans(const ProfileSpec& profile, std::size_t count, double low, double high) {
  std::vector<LoadPlan> plans;
  for (double rate : sweepRates(low, high, profile.sweepPoints))
    plans.emplace_back(Message{MessageText::LoadRate, {rateArgument(rate)}},
                       ArrivalSchedule::constantRate(count, rate), rate);
  return plans;
}

}  // namespace ayar
