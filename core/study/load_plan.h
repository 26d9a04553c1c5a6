#pragma once

// What a run sends: one load test, or a sweep's several (its synchronous and throughput runs first,
// then the rates between them). Each plan has the label it is shown and stored by.

#include <cstddef>
#include <string>
#include <vector>

#include "core/load/arrival_schedule.h"
#include "core/report/message_text.h"

namespace ayar {

struct ProfileSpec;

// One load test of a run.
struct LoadPlan {
  LoadPlan(Message label_, ArrivalSchedule schedule_, double requestRate_)
      : label(std::move(label_)),
        title(label.in(ReportLanguage::English)),
        schedule(std::move(schedule_)),
        requestRate(requestRate_) {}
  Message label;
  std::string title;  // the label in English, as the store and the result file keep it
  ArrivalSchedule schedule;
  double requestRate;  // for the result file: inf when all at once
};

// What to run: one load test, or a sweep's first two (its rates follow from them: sweepPlans).
std::vector<LoadPlan> loadPlans(const ProfileSpec& profile, std::size_t count);

// A sweep's rates, once its synchronous and throughput runs have shown the range (requests a second
// of each).
std::vector<LoadPlan> sweepPlans(const ProfileSpec& profile, std::size_t count, double low, double high);

}  // namespace ayar
