#include "core/telemetry/gpu_monitor.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ayar {
namespace {

// On a machine without the NVIDIA driver (CI, most laptops) the monitor says why and samples nothing;
// on a GPU host (the CUDA checks run this binary there too) every device gives its three gauges in
// their units and ranges. One of the two runs on any machine.
TEST(GpuMonitor, SamplesEveryLocalGpuOrSaysWhyItCannot) {
  const GpuMonitor monitor;
  if (!monitor.available()) {
    EXPECT_EQ(monitor.deviceCount(), 0);
    EXPECT_FALSE(monitor.unavailableReason().empty());
    EXPECT_TRUE(monitor.sample(1.0).empty());
    std::printf("NVML not available here: %s\n", monitor.unavailableReason().c_str());
    return;
  }
  ASSERT_GT(monitor.deviceCount(), 0);
  EXPECT_TRUE(monitor.unavailableReason().empty());
  const std::vector<Sample> samples = monitor.sample(2.5);
  std::map<std::string, double> byName;
  for (const Sample& s : samples) {
    EXPECT_DOUBLE_EQ(s.tS, 2.5);
    byName[s.name] = s.value;
  }
  for (int i = 0; i < monitor.deviceCount(); ++i) {
    const std::string prefix = "gpu" + std::to_string(i) + ".";
    ASSERT_TRUE(byName.contains(prefix + "utilization")) << prefix;
    ASSERT_TRUE(byName.contains(prefix + "memory_used")) << prefix;
    ASSERT_TRUE(byName.contains(prefix + "power")) << prefix;
    EXPECT_GE(byName[prefix + "utilization"], 0.0);
    EXPECT_LE(byName[prefix + "utilization"], 100.0);
    EXPECT_GT(byName[prefix + "memory_used"], 0.0);  // the driver's own reservation at least, GiB
    EXPECT_LT(byName[prefix + "memory_used"], 1024.0);
    EXPECT_GT(byName[prefix + "power"], 1.0);  // watts: an idle H100/H200 draws 50-100 W
    EXPECT_LT(byName[prefix + "power"], 2000.0);
    std::printf("%s utilization %.0f%%, memory %.2f GiB, power %.0f W\n", prefix.c_str(),
                byName[prefix + "utilization"], byName[prefix + "memory_used"], byName[prefix + "power"]);
  }
}

}  // namespace
}  // namespace ayar
