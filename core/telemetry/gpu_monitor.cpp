#include "core/telemetry/gpu_monitor.h"

#include <dlfcn.h>

namespace ayar {

namespace {

// The few NVML declarations Ayar uses (nvml.h's ABI, stable since driver 3xx), so that the build
// needs no CUDA headers.
using NvmlReturn = int;
using NvmlDevice = void*;
struct NvmlUtilization {
  unsigned int gpu;
  unsigned int memory;
};
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
constexpr NvmlReturn kNvmlSuccess = 0;

template <typename Fn>
Fn symbol(void* library, const char* name) {
  return reinterpret_cast<Fn>(dlsym(library, name));
}

}  // namespace

struct GpuMonitor::Api {
  void* library = nullptr;
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  NvmlReturn (*count)(unsigned int*) = nullptr;
  NvmlReturn (*handle)(unsigned int, NvmlDevice*) = nullptr;
  NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;
  NvmlReturn (*memory)(NvmlDevice, NvmlMemory*) = nullptr;
  NvmlReturn (*power)(NvmlDevice, unsigned int*) = nullptr;
  std::vector<NvmlDevice> devices;
};

GpuMonitor::GpuMonitor() {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    m_reason = "libnvidia-ml.so.1 not found (no NVIDIA driver on this machine)";
    return;
  }
  auto api = std::make_unique<Api>();
  api->library = library;
  api->init = symbol<decltype(api->init)>(library, "nvmlInit_v2");
  api->shutdown = symbol<decltype(api->shutdown)>(library, "nvmlShutdown");
  api->count = symbol<decltype(api->count)>(library, "nvmlDeviceGetCount_v2");
  api->handle = symbol<decltype(api->handle)>(library, "nvmlDeviceGetHandleByIndex_v2");
  api->utilization = symbol<decltype(api->utilization)>(library, "nvmlDeviceGetUtilizationRates");
  api->memory = symbol<decltype(api->memory)>(library, "nvmlDeviceGetMemoryInfo");
  api->power = symbol<decltype(api->power)>(library, "nvmlDeviceGetPowerUsage");
  if (!api->init || !api->shutdown || !api->count || !api->handle || !api->utilization || !api->memory ||
      !api->power) {
    m_reason = "libnvidia-ml.so.1 lacks a function Ayar needs (driver too old)";
    dlclose(library);
    return;
  }
  if (api->init() != kNvmlSuccess) {
    m_reason = "NVML did not start (driver not loaded)";
    dlclose(library);
    return;
  }
  unsigned int n = 0;
  if (api->count(&n) == kNvmlSuccess) {
    for (unsigned int i = 0; i < n; ++i) {
      NvmlDevice device = nullptr;
      if (api->handle(i, &device) == kNvmlSuccess) api->devices.push_back(device);
    }
  }
  m_api = std::move(api);
}

GpuMonitor::~GpuMonitor() {
  if (m_api) {
    m_api->shutdown();
    dlclose(m_api->library);
  }
}

bool GpuMonitor::available() const {
  return m_api && !m_api->devices.empty();
}

int GpuMonitor::deviceCount() const {
  return m_api ? static_cast<int>(m_api->devices.size()) : 0;
}

std::vector<Sample> GpuMonitor::sample(double tS) const {
  std::vector<Sample> out;
  if (!m_api) return out;
  for (std::size_t i = 0; i < m_api->devices.size(); ++i) {
    const std::string prefix = "gpu" + std::to_string(i) + ".";
    NvmlUtilization utilization{};
    if (m_api->utilization(m_api->devices[i], &utilization) == kNvmlSuccess)
      out.push_back({tS, prefix + "utilization", static_cast<double>(utilization.gpu)});
    NvmlMemory memory{};
    if (m_api->memory(m_api->devices[i], &memory) == kNvmlSuccess)
      out.push_back(
          {tS, prefix + "memory_used", static_cast<double>(memory.used) / (1024.0 * 1024.0 * 1024.0)});
    unsigned int milliwatts = 0;
    if (m_api->power(m_api->devices[i], &milliwatts) == kNvmlSuccess)
      out.push_back({tS, prefix + "power", milliwatts / 1000.0});
  }
  return out;
}

}  // namespace ayar
