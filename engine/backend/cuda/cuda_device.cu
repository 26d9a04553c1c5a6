// Device 0 as the CUDA runtime reports it, and its device-to-device copy bandwidth (see cuda_backend.h).

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/backend/cuda/cuda_backend.h"
#include "engine/backend/cuda/cuda_support.h"

namespace ayar::engine {

using cuda_support::check;
using cuda_support::DeviceArray;

CudaDeviceInfo probeCudaDevice() {
  CudaDeviceInfo info;
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    info.problem = error == cudaErrorInsufficientDriver
                       ? "no NVIDIA driver is loaded, or it is older than this build's CUDA runtime"
                       : cudaGetErrorString(error);
    cudaGetLastError();  // clear it
    return info;
  }
  if (count == 0) {
    info.problem = "no CUDA device is visible";
    return info;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  info.name = prop.name;
  info.computeMajor = prop.major;
  info.computeMinor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  std::size_t freeBytes = 0, totalBytes = 0;
  check(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
  info.freeBytes = static_cast<std::int64_t>(freeBytes);
  info.totalBytes = static_cast<std::int64_t>(totalBytes);
  if (prop.major < 9) {
    info.problem = std::string(prop.name) + " has compute capability " + std::to_string(prop.major) + "." +
                   std::to_string(prop.minor) + "; this build's kernels need 9.0 (Hopper) or later";
    return info;
  }
  info.usable = true;
  return info;
}

double measureCopyBandwidth(std::int64_t bytes, int repeats) {
  DeviceArray<std::uint8_t> source(bytes), destination(bytes);
  check(cudaMemset(source.get(), 1, static_cast<std::size_t>(bytes)), "cudaMemset");
  cudaEvent_t start = nullptr, stop = nullptr;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<float> times;
  for (int i = 0; i < repeats + 2; ++i) {
    check(cudaEventRecord(start), "cudaEventRecord");
    check(cudaMemcpy(destination.get(), source.get(), static_cast<std::size_t>(bytes),
                     cudaMemcpyDeviceToDevice),
          "cudaMemcpy");
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    if (i >= 2) times.push_back(ms);  // two warm-ups
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  return 2.0 * static_cast<double>(bytes) / (median * 1e-3);
}

}  // namespace ayar::engine
