#pragma once

// What the CUDA backend's host files share: CUDA and cuBLAS error checks, cuBLAS opened at run time, and
// a device allocation that frees itself. Host code only.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "core/error.h"

namespace ayar::engine::cuda_support {

inline void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess)
    throw Error(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(error));
}

// cuBLAS, opened when the first CUDA backend is made: a program that links this library but runs on the
// CPU or the sim never maps it (cuBLAS and cuBLASLt are large libraries).
struct Cublas {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) setStream = nullptr;
  decltype(&cublasSetWorkspace_v2) setWorkspace = nullptr;
  cublasStatus_t (*gemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                           const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                           cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  decltype(&cublasGetStatusString) statusString = nullptr;

  // Throws ayar::Error when the library or one of its functions is missing.
  static const Cublas& get() {
    static const Cublas api = [] {
      const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
      void* library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!library) {
        throw Error("--device cuda needs " + name + " (cuBLAS " + std::to_string(CUBLAS_VER_MAJOR) +
                    ", part of the CUDA Toolkit): " + dlerror() +
                    "; install it or add its folder to LD_LIBRARY_PATH");
      }
      Cublas a;
      auto load = [&](auto& function, const char* symbol) {
        function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, symbol));
        if (!function)
          throw Error(name + " lacks " + symbol + ": install cuBLAS " + std::to_string(CUBLAS_VER_MAJOR));
      };
      load(a.create, "cublasCreate_v2");
      load(a.destroy, "cublasDestroy_v2");
      load(a.setStream, "cublasSetStream_v2");
      load(a.setWorkspace, "cublasSetWorkspace_v2");
      load(a.gemmEx, "cublasGemmEx");
      load(a.statusString, "cublasGetStatusString");
      return a;
    }();
    return api;
  }
};

inline void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw Error(std::string("cuBLAS: ") + what + " failed: " + Cublas::get().statusString(status));
  }
}

// A device allocation that frees itself.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::int64_t count) { resize(count); }
  ~DeviceArray() { release(); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& other) noexcept : m_data(other.m_data), m_count(other.m_count) {
    other.m_data = nullptr;
    other.m_count = 0;
  }
  DeviceArray& operator=(DeviceArray&&) = delete;

  void resize(std::int64_t count) {
    release();
    if (count <= 0) return;
    void* p = nullptr;
    const cudaError_t error = cudaMalloc(&p, static_cast<std::size_t>(count) * sizeof(T));
    if (error != cudaSuccess) {
      throw Error("CUDA: allocating " + std::to_string(static_cast<std::size_t>(count) * sizeof(T) >> 20) +
                  " MiB on the GPU failed (" + cudaGetErrorString(error) +
                  "): lower --gpu-memory-utilization, --max-num-batched-tokens or --max-num-seqs");
    }
    m_data = static_cast<T*>(p);
    m_count = count;
  }
  T* get() const { return m_data; }
  std::int64_t size() const { return m_count; }

 private:
  void release() {
    if (m_data) cudaFree(m_data);
    m_data = nullptr;
    m_count = 0;
  }
  T* m_data = nullptr;
  std::int64_t m_count = 0;
};

}  // namespace ayar::engine::cuda_support
