#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/store/run_types.h"

namespace ayar {

// The local NVIDIA GPUs' utilisation, memory and power through NVML, loaded at run time with dlopen
// so that machines without the driver run the same build: available() is then false and sample()
// returns nothing.
class GpuMonitor {
 public:
  GpuMonitor();
  ~GpuMonitor();
  GpuMonitor(const GpuMonitor&) = delete;
  GpuMonitor& operator=(const GpuMonitor&) = delete;

  bool available() const;
  int deviceCount() const;
  // Why NVML is not available ("libnvidia-ml.so.1 not found"), empty when it is.
  const std::string& unavailableReason() const { return m_reason; }
  // One sample per device and gauge at time tS: gpu<i>.utilization (%), gpu<i>.memory_used (GiB),
  // gpu<i>.power (W). Thread-safe (NVML is).
  std::vector<Sample> sample(double tS) const;

 private:
  struct Api;
  std::unique_ptr<Api> m_api;
  std::string m_reason;
};

}  // namespace ayar
