// bench_cuda_backend: the CUDA backend's speed on this machine's GPU, against the memory-bandwidth floor.
//
//   bench_cuda_backend [--quick] [--batch1] [--profile] [--json FILE]   (--help says what they do)
//
// Prints a table, then the same figures as one JSON object (also written to FILE):
//   - device-to-device copy bandwidth (bytes read + written), the ceiling every floor below uses;
//   - batch-1 decode ms/token for qwen3-8b and qwen3-14b (CUDA graphs; eager for 8b; without and with
//     programmatic launches everywhere), with the floor = (weights read per step + KV read) / copy
//     bandwidth, and the fraction of the floor reached;
//   - the bf16 matrix-product peak (cuBLAS, 8192 x 8192 x 8192 on drawn values), the other ceiling;
//   - decode step time at batch 8-256 (qwen3-8b, 512-token contexts) against the step's floor,
//     max(bytes / copy bandwidth, FLOPs / matrix-product peak), and the host's share of a decode step at
//     batch 1-256 (wall time against the device time of CudaBackendTuning::timeSteps);
//   - prefill tokens/s for one 2k and one 8k prompt (qwen3-8b, the whole prompt in one step) and one 32k
//     prompt in chunks of 8,192 tokens; prefill attention at 2k, 8k and 32k, both kernels, on drawn values;
//   - one row per kernel at qwen3-8b's decode shapes, with the bytes it must move and its GB/s (the GEMMs
//     at 64-256 rows with their TFLOP/s and the fraction of their own floor, max(weight bytes / copy
//     bandwidth, FLOPs / peak)).
// Weights are the seeded dummy weights, drawn on the GPU. Exits 1 without a usable GPU.

#include <cublas_v2.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "engine/backend/cuda/cuda_backend.h"
#include "engine/backend/cuda/cuda_kernels.h"

namespace {

using namespace ayar::engine;
using Clock = std::chrono::steady_clock;

constexpr int kBlockSize = 16;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Sequences driven straight through the backend, as the scheduler would, with greedy sampling.
struct Driver {
  CudaBackend& backend;
  int numBlocks;
  int nextBlock = 0;
  SamplingParams greedy{.temperature = 0.0f};
  struct Seq {
    std::vector<std::int32_t> tokens;
    std::vector<std::int32_t> blocks;
    int cached = 0;
  };
  std::vector<Seq> seqs{};

  void reset() {
    seqs.clear();
    nextBlock = 0;
  }
  void ensureBlocks(Seq& s, int tokens) {
    while (static_cast<int>(s.blocks.size()) * kBlockSize < tokens) {
      if (nextBlock >= numBlocks) throw std::runtime_error("bench: KV pool too small");
      s.blocks.push_back(nextBlock++);
    }
  }
  // Adds `count` sequences with prompts of `length` and prefills them, up to `chunk` tokens a step.
  void addAndPrefill(int count, int length, int chunk) {
    const std::size_t first = seqs.size();
    for (int i = 0; i < count; ++i) {
      Seq s;
      for (int t = 0; t < length; ++t)
        s.tokens.push_back((1000 + 7919 * (t + 131 * static_cast<int>(seqs.size()))) % 150000);
      seqs.push_back(std::move(s));
    }
    for (;;) {
      std::vector<SeqStep> batch;
      std::vector<std::size_t> owners;
      int budget = chunk;
      for (std::size_t j = first; j < seqs.size() && budget > 0; ++j) {
        Seq& s = seqs[j];
        const int n = std::min(budget, length - s.cached);
        if (n <= 0) continue;
        ensureBlocks(s, s.cached + n);
        SeqStep step;
        step.tokens = std::span<const std::int32_t>(s.tokens).subspan(static_cast<std::size_t>(s.cached),
                                                                      static_cast<std::size_t>(n));
        step.position = s.cached;
        step.blockTable = s.blocks;
        step.sample = s.cached + n == length;
        step.sampling = &greedy;
        batch.push_back(step);
        owners.push_back(j);
        budget -= n;
      }
      if (batch.empty()) return;
      StepOutput out;
      backend.step(batch, out);
      std::size_t sampled = 0;
      for (std::size_t e = 0; e < batch.size(); ++e) {
        Seq& s = seqs[owners[e]];
        s.cached += static_cast<int>(batch[e].tokens.size());
        if (batch[e].sample) s.tokens.push_back(out.sampled.at(sampled++));
      }
    }
  }
  // One decode step over every sequence; returns its wall time in ms.
  double decodeStep() {
    std::vector<SeqStep> batch;
    for (Seq& s : seqs) {
      ensureBlocks(s, s.cached + 1);
      SeqStep step;
      step.tokens = std::span<const std::int32_t>(s.tokens).subspan(static_cast<std::size_t>(s.cached), 1);
      step.position = s.cached;
      step.blockTable = s.blocks;
      step.sample = true;
      step.sampling = &greedy;
      batch.push_back(step);
    }
    StepOutput out;
    const auto start = Clock::now();
    backend.step(batch, out);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    for (std::size_t i = 0; i < seqs.size(); ++i) {
      seqs[i].cached += 1;
      seqs[i].tokens.push_back(out.sampled.at(i));
    }
    return ms;
  }
  // The median time of `timed` decode steps, after `warmUp` untimed ones.
  double medianStepMs(int warmUp, int timed) {
    for (int i = 0; i < warmUp; ++i)
      decodeStep();
    std::vector<double> times;
    for (int i = 0; i < timed; ++i)
      times.push_back(decodeStep());
    return median(times);
  }
  int meanContext() const {
    std::int64_t total = 0;
    for (const Seq& s : seqs)
      total += s.cached;
    return seqs.empty() ? 0 : static_cast<int>(total / static_cast<std::int64_t>(seqs.size()));
  }
};

// Bytes one decode step must read: every weight but the embedding table (one row of it), plus the KV
// cache of every sequence.
double decodeBytes(const ModelConfig& c, int batch, int context) {
  const double weights = static_cast<double>(c.parameterCount()) * 2.0 -
                         (c.tieWordEmbeddings ? 0.0 : static_cast<double>(c.vocabSize) * c.hiddenSize * 2.0);
  return weights + static_cast<double>(batch) * context * static_cast<double>(c.kvBytesPerToken(2));
}

// FLOPs of one decode step: the linear layers for every sequence's token, and attention's two products
// over each sequence's context.
double decodeFlops(const ModelConfig& c, int batch, int context) {
  return 2.0 * static_cast<double>(c.linearMacsPerToken()) * batch +
         4.0 * batch * static_cast<double>(context) * c.numHeads * c.headDim * c.numLayers;
}

cudaStream_t benchStream = nullptr;

// Times fn (enqueueing GPU work on benchStream) as the decode graphs run it: `inner` calls captured in one
// CUDA graph, so that launch overhead (large on a virtualised host) stays out; the median of `repeats`
// replays, divided by `inner`.
template <typename F>
double timeKernel(F fn, int repeats = 20, int inner = 20) {
  fn();  // once outside the graph: one-time set-up (attributes, cuBLAS' choices) and launch errors
  if (cudaStreamSynchronize(benchStream) != cudaSuccess) throw std::runtime_error("bench: kernel failed");
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaStreamBeginCapture(benchStream, cudaStreamCaptureModeThreadLocal);
  for (int i = 0; i < inner; ++i)
    fn();
  cudaStreamEndCapture(benchStream, &graph);
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess)
    throw std::runtime_error("bench: graph capture failed");
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int i = 0; i < 2; ++i)
    cudaGraphLaunch(exec, benchStream);
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    cudaEventRecord(start, benchStream);
    cudaGraphLaunch(exec, benchStream);
    cudaEventRecord(stop, benchStream);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms / inner);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return median(times);
}

template <typename T>
T* deviceAlloc(std::int64_t count, int fill = 0) {
  void* p = nullptr;
  if (cudaMalloc(&p, static_cast<std::size_t>(count) * sizeof(T)) != cudaSuccess)
    throw std::runtime_error("cudaMalloc");
  cudaMemset(p, fill, static_cast<std::size_t>(count) * sizeof(T));
  return static_cast<T*>(p);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, batch1Only = false, profileStep = false;
  std::string jsonPath;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--batch1") {
      batch1Only = true;
    } else if (arg == "--profile") {
      profileStep = true;
    } else if (arg == "--json" && i + 1 < argc) {
      jsonPath = argv[++i];
    } else {
      std::fprintf(
          stderr,
          "usage: bench_cuda_backend [--quick] [--batch1] [--profile] [--json FILE]\n"
          "  --quick    fewer timed steps\n"
          "  --batch1   the kernel rows and batch-1 decode alone, for comparing builds\n"
          "  --profile  one qwen3-8b batch-1 decode step (eager) between cudaProfilerStart and\n"
          "             cudaProfilerStop, nothing else: for a profiler started with profiling off\n");
      return 2;
    }
  }
  const CudaDeviceInfo device = probeCudaDevice();
  if (!device.usable) {
    std::fprintf(stderr, "bench_cuda_backend: no usable GPU (%s)\n", device.problem.c_str());
    return 1;
  }
  cudaStreamCreateWithFlags(&benchStream, cudaStreamNonBlocking);
  if (profileStep) {
    CudaBackend backend(*findModelPreset("qwen3-8b"), nullptr, 1, {.enforceEager = true, .seed = 1});
    const int numBlocks = 64;
    backend.allocateKvCache(numBlocks, kBlockSize);
    Driver driver{backend, numBlocks};
    driver.addAndPrefill(1, 128, 8192);
    for (int i = 0; i < 3; ++i)
      driver.decodeStep();
    cudaProfilerStart();
    const double ms = driver.decodeStep();
    cudaProfilerStop();
    std::printf("qwen3-8b batch-1 decode step (eager, profiled): %.3f ms\n", ms);
    return 0;
  }
  nlohmann::json result;
  result["device"] = device.name;
  std::printf("device: %s, %d SMs, %.1f GiB\n", device.name.c_str(), device.multiprocessors,
              static_cast<double>(device.totalBytes) / (1 << 30));

  const double copyBandwidth = measureCopyBandwidth(std::int64_t{2} << 30, 20);
  result["copy_bandwidth_GBps"] = copyBandwidth / 1e9;
  std::printf("copy bandwidth (read + write): %.0f GB/s\n", copyBandwidth / 1e9);
  // The bf16 matrix-product peak: a large cuBLAS product on drawn values (tensor-core power, and so the
  // clock, depends on the data; constant inputs would flatter it).
  double matmulPeak = 0.0;
  {
    const int n = 8192;
    auto* a = deviceAlloc<cuda::Bf16>(std::int64_t{n} * n);
    auto* b = deviceAlloc<cuda::Bf16>(std::int64_t{n} * n);
    auto* d = deviceAlloc<cuda::Bf16>(std::int64_t{n} * n);
    cuda::fillDummy(a, std::int64_t{n} * n, 1, 0.0f, 1.0f, benchStream);
    cuda::fillDummy(b, std::int64_t{n} * n, 2, 0.0f, 1.0f, benchStream);
    cublasHandle_t blas = nullptr;
    cublasCreate(&blas);
    cublasSetStream(blas, benchStream);
    void* workspace = deviceAlloc<std::uint8_t>(std::int64_t{32} << 20);
    cublasSetWorkspace(blas, workspace, std::size_t{32} << 20);
    const float alpha = 1.0f, beta = 0.0f;
    const double ms = timeKernel(
        [&] {
          cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16BF, n, b, CUDA_R_16BF, n,
                       &beta, d, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        },
        5, 5);
    matmulPeak = 2.0 * n * n * static_cast<double>(n) / (ms * 1e-3);
    cublasDestroy(blas);
    cudaFree(workspace);
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
  }
  result["matmul_peak_TFLOPs"] = matmulPeak / 1e12;
  std::printf("bf16 matrix-product peak (cuBLAS, 8192^3): %.0f TFLOP/s\n\n", matmulPeak / 1e12);

  // Kernel rows at qwen3-8b decode shapes.
  {
    const ModelConfig c = *findModelPreset("qwen3-8b");
    const int hidden = c.hiddenSize, inter = c.intermediateSize;
    const int qkvDim = (c.numHeads + 2 * c.numKvHeads) * c.headDim;
    nlohmann::json rows = nlohmann::json::array();
    std::printf("%-44s %10s %10s %8s\n", "kernel (qwen3-8b shapes)", "us", "GB/s", "of copy");
    auto row = [&](const std::string& name, double ms, double bytes) {
      const double gbps = bytes / (ms * 1e-3) / 1e9;
      std::printf("%-44s %10.1f %10.0f %7.0f%%\n", name.c_str(), ms * 1e3, gbps,
                  100.0 * gbps * 1e9 / copyBandwidth);
      rows.push_back({{"kernel", name}, {"us", ms * 1e3}, {"GBps", gbps}});
    };
    using cuda::Bf16;
    Bf16* w = deviceAlloc<Bf16>(std::int64_t{c.vocabSize} * hidden, 0x3c);
    Bf16* x = deviceAlloc<Bf16>(std::int64_t{256} * inter * 2, 0x3c);
    Bf16* y = deviceAlloc<Bf16>(std::int64_t{256} * inter * 2);
    float* yf = deviceAlloc<float>(std::int64_t{256} * c.vocabSize);
    cublasHandle_t blas = nullptr;
    cublasCreate(&blas);
    cublasSetStream(blas, benchStream);
    void* blasWorkspace = deviceAlloc<std::uint8_t>(std::int64_t{32} << 20);
    cublasSetWorkspace(blas, blasWorkspace, std::size_t{32} << 20);  // no allocation while capturing
    // cublasGemm: a cuBLAS GEMM as the backend calls it (float or bf16 out). gemmRow prints one with its
    // TFLOP/s and the fraction of its own floor: the weights streamed once at copy bandwidth, or the
    // FLOPs at the measured peak.
    auto cublasGemm = [&](auto* out, const Bf16* in, const Bf16* weights, int m, int n, int k) {
      const float alpha = 1.0f, beta = 0.0f;
      const cudaDataType_t outType =
          std::is_same_v<std::remove_pointer_t<decltype(out)>, float> ? CUDA_R_32F : CUDA_R_16BF;
      cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, weights, CUDA_R_16BF, k, in, CUDA_R_16BF,
                   k, &beta, out, outType, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    auto gemmRow = [&](const std::string& name, double ms, int m, int n, int k) {
      const double flops = 2.0 * m * static_cast<double>(n) * k;
      const double floorMs = std::max(2.0 * n * k / copyBandwidth, flops / matmulPeak) * 1e3;
      std::printf("%-44s %10.1f %10.0f %7.0f%% (TFLOP/s, of floor)\n", name.c_str(), ms * 1e3,
                  flops / (ms * 1e-3) / 1e12, 100.0 * floorMs / ms);
      rows.push_back({{"kernel", name},
                      {"us", ms * 1e3},
                      {"TFLOPs", flops / (ms * 1e-3) / 1e12},
                      {"fraction_of_floor", floorMs / ms}});
    };
    float* residual = deviceAlloc<float>(std::int64_t{256} * hidden);
    auto* slots = deviceAlloc<double>(4, 0x3c);  // sums of squares: any positive value
    for (const auto& [label, n, k] : {std::tuple{"qkv 6144x4096", qkvDim, hidden},
                                      std::tuple{"o 4096x4096", hidden, c.numHeads * c.headDim},
                                      std::tuple{"gate_up 24576x4096", 2 * inter, hidden},
                                      std::tuple{"down 4096x12288", hidden, inter}}) {
      for (const int m : {1, 2, 4, 8}) {
        const double ms = timeKernel([&] { cuda::gemv(y, x, w, m, n, k, benchStream); });
        row(std::string("gemv M=") + std::to_string(m) + " " + label, ms, 2.0 * n * k);
      }
      for (const int m : {1, 2}) {
        // The normed forms the backend runs at 1-2 rows (see cuda::gemvNormed), each on its own layer shape;
        // with "pdl" each launch is a programmatic dependent of the one before it (it streams its weights
        // while that one finishes).
        for (const cuda::Launch overlap : {cuda::Launch::Plain, cuda::Launch::Dependent}) {
          const std::string shape =
              " M=" + std::to_string(m) + (overlap != cuda::Launch::Plain ? " pdl " : " ") + label;
          if (n == qkvDim) {
            const double ms =
                timeKernel([&] { cuda::gemvNormed(y, x, slots, 1e-6f, w, m, n, k, overlap, benchStream); });
            row("gemv normed" + shape, ms, 2.0 * n * k);
          } else if (n == 2 * inter) {
            const double ms = timeKernel(
                [&] { cuda::gemvNormedSiluMul(y, x, slots, 1e-6f, w, m, inter, k, overlap, benchStream); });
            row("gemv normed+silu" + shape, ms, 2.0 * n * k);
          } else {
            const cuda::NormedRows out{residual, y, slots};
            const double ms = timeKernel(
                [&] { cuda::gemvAddResidualNormed(out, slots + 2, x, x, w, m, n, k, overlap, benchStream); });
            row("gemv+residual+norm" + shape, ms, 2.0 * n * k);
          }
        }
      }
      for (const int m : {1, 4, 8, 16}) {
        const double ms = timeKernel([&] { cublasGemm(y, x, w, m, n, k); });
        row(std::string("cublas M=") + std::to_string(m) + " " + label, ms, 2.0 * n * k);
      }
      for (const int m : {64, 128, 256}) {
        const double ms = timeKernel([&] { cublasGemm(y, x, w, m, n, k); });
        gemmRow(std::string("cublas M=") + std::to_string(m) + " " + label, ms, m, n, k);
      }
    }
    {
      // qwen3-14b's layer shapes at one row: the plain GEMV and the decode path's normed forms as dependents.
      const ModelConfig big = *findModelPreset("qwen3-14b");
      const int bigQkv = (big.numHeads + 2 * big.numKvHeads) * big.headDim, bigQ = big.numHeads * big.headDim;
      const cuda::NormedRows out{residual, y, slots};
      for (const auto& [label, n, k] :
           {std::tuple{"qkv 7168x5120", bigQkv, big.hiddenSize},
            std::tuple{"o 5120x5120", big.hiddenSize, bigQ},
            std::tuple{"gate_up 34816x5120", 2 * big.intermediateSize, big.hiddenSize},
            std::tuple{"down 5120x17408", big.hiddenSize, big.intermediateSize}}) {
        const std::string shape = std::string(" M=1 ") + label + " (14b)";
        row("gemv" + shape, timeKernel([&] { cuda::gemv(y, x, w, 1, n, k, benchStream); }), 2.0 * n * k);
        const cuda::Launch dependent = cuda::Launch::Dependent;
        double ms = 0.0;
        if (n == bigQkv) {
          ms = timeKernel([&] { cuda::gemvNormed(y, x, slots, 1e-6f, w, 1, n, k, dependent, benchStream); });
        } else if (n == 2 * big.intermediateSize) {
          ms = timeKernel([&] {
            cuda::gemvNormedSiluMul(y, x, slots, 1e-6f, w, 1, big.intermediateSize, k, dependent,
                                    benchStream);
          });
        } else {
          ms = timeKernel(
              [&] { cuda::gemvAddResidualNormed(out, slots + 2, x, x, w, 1, n, k, dependent, benchStream); });
        }
        row("gemv normed pdl" + shape, ms, 2.0 * n * k);
      }
    }
    {
      const double ms = timeKernel([&] { cuda::gemv(yf, x, w, 1, c.vocabSize, hidden, benchStream); });
      row("gemv M=1 lm_head 151936x4096 (f32 out)", ms, 2.0 * c.vocabSize * hidden);
      const double normedMs = timeKernel([&] {
        cuda::gemvNormed(yf, x, slots, nullptr, 1e-6f, w, 1, c.vocabSize, hidden, cuda::Launch::Dependent,
                         benchStream);
      });
      row("gemv normed M=1 pdl lm_head (f32 out)", normedMs, 2.0 * c.vocabSize * hidden);
      for (const int m : {64, 256}) {
        const double gemmMs = timeKernel([&] { cublasGemm(yf, x, w, m, c.vocabSize, hidden); });
        gemmRow("cublas M=" + std::to_string(m) + " lm_head (f32 out)", gemmMs, m, c.vocabSize, hidden);
      }
    }
    // Attention over a paged cache of 16-token blocks (pages in order; the kernels only follow the table).
    {
      const int kvDim = c.numKvHeads * c.headDim;
      const int maxTokens = 256 * 512;
      const int blocks = maxTokens / kBlockSize;
      Bf16* keys = deviceAlloc<Bf16>(std::int64_t{blocks} * kBlockSize * kvDim, 0x3c);
      Bf16* values = deviceAlloc<Bf16>(std::int64_t{blocks} * kBlockSize * kvDim, 0x3b);
      Bf16* q = deviceAlloc<Bf16>(std::int64_t{32768} * qkvDim, 0x3c);
      Bf16* o = deviceAlloc<Bf16>(std::int64_t{32768} * c.numHeads * c.headDim);
      // Drawn values, as for the matrix-product peak: the tensor cores draw less power on constant
      // inputs and the clocks stay higher than on real scores, so a compute-bound kernel would read fast.
      cuda::fillDummy(keys, std::int64_t{blocks} * kBlockSize * kvDim, 11, 0.0f, 1.0f, benchStream);
      cuda::fillDummy(values, std::int64_t{blocks} * kBlockSize * kvDim, 12, 0.0f, 1.0f, benchStream);
      cuda::fillDummy(q, std::int64_t{32768} * qkvDim, 13, 0.0f, 1.0f, benchStream);
      const cuda::LayerKvCache cache{keys, values, kBlockSize, c.numKvHeads, blocks};
      float* ropeCos = deviceAlloc<float>(std::int64_t{maxTokens} * c.headDim / 2);
      float* ropeSin = deviceAlloc<float>(std::int64_t{maxTokens} * c.headDim / 2);
      cuda::fillRopeTable(ropeCos, ropeSin, maxTokens, c.headDim, c.ropeTheta, benchStream);
      for (const auto& [count, context] :
           {std::pair{1, 256}, std::pair{1, 1024}, std::pair{1, 8192}, std::pair{8, 4096},
            std::pair{64, 1024}, std::pair{128, 512}, std::pair{256, 256}, std::pair{256, 512}}) {
        const int perSeq = (context + kBlockSize - 1) / kBlockSize;
        std::vector<std::int32_t> host;  // queryStart, queryLen, contextLen, the list, the tables
        for (int i = 0; i < count; ++i)
          host.push_back(i);
        for (int i = 0; i < count; ++i)
          host.push_back(1);
        for (int i = 0; i < count; ++i)
          host.push_back(context);
        for (int i = 0; i < count; ++i)
          host.push_back(i);
        for (int i = 0; i < count; ++i)
          for (int b = 0; b < perSeq; ++b)
            host.push_back((i * perSeq + b) % blocks);
        std::int32_t* d = deviceAlloc<std::int32_t>(static_cast<std::int64_t>(host.size()));
        cudaMemcpy(d, host.data(), host.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice);
        const cuda::SeqTable table{d, d + count, d + 2 * count, d + 4 * count, perSeq};
        const int splits = cuda::decodeAttentionSplits(count, context, c.numKvHeads, device.multiprocessors);
        float* partials = deviceAlloc<float>(cuda::decodeAttentionPartialFloats(count, c.numHeads, splits));
        auto* counters = deviceAlloc<unsigned>(std::int64_t{count} * c.numKvHeads);
        for (const bool withRope : {false, true}) {
          // With rope the kernel also norms and rotates q and the new k and writes k and v to the cache.
          const cuda::DecodeRope rope =
              withRope ? cuda::DecodeRope{x, x, ropeCos, ropeSin, 1e-6f} : cuda::DecodeRope{};
          const double ms = timeKernel([&] {
            cuda::decodeAttention(o, q, qkvDim, table, d + 3 * count, count, c.numHeads, cache, splits,
                                  partials, counters, rope, false, benchStream);
          });
          row("decode attention " + std::string(withRope ? "+rope " : "") + std::to_string(count) + " x " +
                  std::to_string(context) + " keys, " + std::to_string(splits) + " splits",
              ms, 2.0 * 2.0 * count * context * kvDim);
        }
        if (count == 1 && context == 256) {
          // The batch-1 decode path's attention at other split counts than the backend's choice.
          for (const int other : {1, 2, 4, 8}) {
            float* more = deviceAlloc<float>(cuda::decodeAttentionPartialFloats(1, c.numHeads, other));
            const cuda::DecodeRope rope{x, x, ropeCos, ropeSin, 1e-6f};
            const double ms = timeKernel([&] {
              cuda::decodeAttention(o, q, qkvDim, table, d + 3, 1, c.numHeads, cache, other, more, counters,
                                    rope, false, benchStream);
            });
            row("decode attention +rope 1 x 256 keys, " + std::to_string(other) + " splits", ms,
                2.0 * 2.0 * context * kvDim);
            cudaFree(more);
          }
          // The batch-1 decode path's attention (with rope) and the o GEMV after it, as a pair, the GEMV
          // launched plainly and as a programmatic dependent. Each of a graph's 20 pairs reads its own copy
          // of the weights, so none is in L2 from the one before. The bytes are the o weights'.
          const ModelConfig big = *findModelPreset("qwen3-14b");
          const cuda::DecodeRope rope{x, x, ropeCos, ropeSin, 1e-6f};
          const cuda::NormedRows out{residual, y, slots};
          for (const auto& [label, n, k] :
               {std::tuple{"8b o 4096x4096", hidden, c.numHeads * c.headDim},
                std::tuple{"14b o 5120x5120", big.hiddenSize, big.numHeads * big.headDim}}) {
            for (const cuda::Launch launch : {cuda::Launch::Plain, cuda::Launch::Dependent}) {
              int call = 0;
              const double ms = timeKernel([&] {
                const Bf16* slice = w + std::int64_t{32 << 20} * (call++ % 16);
                cuda::decodeAttention(o, q, qkvDim, table, d + 3, 1, c.numHeads, cache, splits, partials,
                                      counters, rope, false, benchStream);
                cuda::gemvAddResidualNormed(out, slots + 2, x, o, slice, 1, n, k, launch, benchStream);
              });
              row(std::string("attention 1x256 + ") + label + (launch == cuda::Launch::Plain ? "" : ", pdl"),
                  ms, 2.0 * n * k);
            }
          }
        }
        cudaFree(partials);
        cudaFree(counters);
        cudaFree(d);
      }
      // Prefill attention, both kernels where the Hopper one runs, on qwen3-8b's heads (32 over 8 KV heads)
      // and at 8k on qwen3-14b's (40 over 8: five query heads share a K/V tile).
      const bool hopper = cuda::hopperPrefillAvailable(cache);
      for (const auto& [length, heads] : {std::pair{2048, c.numHeads}, std::pair{8192, c.numHeads},
                                          std::pair{32768, c.numHeads}, std::pair{8192, 40}}) {
        const int perSeq = length / kBlockSize;
        std::vector<std::int32_t> host{0, length, length, 0};
        for (int b = 0; b < perSeq; ++b)
          host.push_back(b);
        std::int32_t* d = deviceAlloc<std::int32_t>(static_cast<std::int64_t>(host.size()));
        cudaMemcpy(d, host.data(), host.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice);
        const cuda::SeqTable table{d, d + 1, d + 2, d + 4, perSeq};
        const int stride = (heads + 2 * c.numKvHeads) * c.headDim;
        for (const cuda::PrefillKernel kernel :
             {cuda::PrefillKernel::Portable, cuda::PrefillKernel::Hopper}) {
          if (kernel == cuda::PrefillKernel::Hopper && !hopper) continue;
          const double ms = timeKernel(
              [&] {
                cuda::prefillAttention(o, q, stride, table, d + 3, 1, length, heads, cache, benchStream,
                                       kernel);
              },
              length > 8192 ? 3 : 5, length > 8192 ? 2 : 4);
          const double tflops = 4.0 * length * (length + 1) / 2.0 * heads * c.headDim / (ms * 1e-3) / 1e12;
          const std::string name = std::string("prefill attention ") +
                                   (kernel == cuda::PrefillKernel::Hopper ? "hopper " : "portable ") +
                                   std::to_string(length) + (heads == c.numHeads ? "" : " 14b heads") +
                                   " (TFLOP/s)";
          std::printf("%-44s %10.1f %10.1f\n", name.c_str(), ms * 1e3, tflops);
          rows.push_back({{"kernel", name}, {"us", ms * 1e3}, {"TFLOPs", tflops}});
        }
        cudaFree(d);
      }
      cudaFree(keys);
      cudaFree(values);
      cudaFree(ropeCos);
      cudaFree(ropeSin);
      cudaFree(q);
      cudaFree(o);
    }
    {
      const double ms =
          timeKernel([&] { cuda::addRmsNorm(y, residual, x, x, nullptr, 256, hidden, 1e-6f, benchStream); });
      row("addRmsNorm 256 rows", ms, 256.0 * hidden * (4 + 4 + 2 + 2));
    }
    {
      const double ms = timeKernel([&] { cuda::siluMul(y, x, 256, inter, benchStream); });
      row("siluMul 256 rows", ms, 256.0 * inter * 6);
    }
    cudaFree(w);
    cudaFree(x);
    cudaFree(y);
    cudaFree(yf);
    cublasDestroy(blas);
    cudaFree(blasWorkspace);
    cudaFree(residual);
    cudaFree(slots);
    result["kernels"] = rows;
    std::printf("\n");
  }

  // Whole-model figures.
  nlohmann::json decode1 = nlohmann::json::array();
  nlohmann::json batches = nlohmann::json::array();
  nlohmann::json prefill = nlohmann::json::array();
  nlohmann::json shortPrefill = nlohmann::json::array();
  nlohmann::json warmUps = nlohmann::json::array();
  nlohmann::json hostShares = nlohmann::json::array();
  std::printf("%-56s %12s %12s %10s\n", "decode batch 1 (prompt 128)", "ms/token", "floor ms", "of floor");
  for (const std::string name : {"qwen3-8b", "qwen3-14b"}) {
    const ModelConfig c = *findModelPreset(name);
    // Variants: the default (CUDA graphs, the GEMVs that follow a GEMV as programmatic dependents), eager,
    // no programmatic dependents, every launch of the decode path a programmatic dependent of the one
    // before, (qwen3-8b, for the short prompts) the default without row buckets, and (qwen3-8b) the
    // default with device timing for the host's share of a step.
    struct Variant {
      const char* label;
      CudaBackendOptions options;
      bool only8b;
    };
    const CudaBackendOptions defaults{.seed = 1};
    auto with = [&](auto change) {
      CudaBackendOptions o = defaults;
      change(o);
      return o;
    };
    // Decode steps at larger batches, 512-token contexts, against the step's floor: its bytes at copy
    // bandwidth or its FLOPs at the matrix-product peak, whichever takes longer.
    auto batchSteps = [&](Driver& driver, const char* label) {
      for (const int batch : {8, 32, 64, 128, 256}) {
        driver.reset();
        driver.addAndPrefill(batch, 512, 16384);
        const double stepMs = driver.medianStepMs(3, quick ? 8 : 32);
        const double bytesMs = decodeBytes(c, batch, driver.meanContext()) / copyBandwidth * 1e3;
        const double flopsMs = decodeFlops(c, batch, driver.meanContext()) / matmulPeak * 1e3;
        const double floorMs = std::max(bytesMs, flopsMs);
        batches.push_back({{"model", name},
                           {"variant", label},
                           {"batch", batch},
                           {"step_ms", stepMs},
                           {"tokens_per_s", batch / stepMs * 1e3},
                           {"bytes_floor_ms", bytesMs},
                           {"flops_floor_ms", flopsMs},
                           {"floor_ms", floorMs},
                           {"fraction_of_floor", floorMs / stepMs}});
      }
    };
    const std::vector<Variant> variants{
        {"CUDA graphs", defaults, false},
        {"eager", with([](auto& o) { o.enforceEager = true; }), true},
        {"no row buckets", with([](auto& o) { o.tuning.bucketRows = false; }), true},
        {"no PDL", with([](auto& o) { o.tuning.overlap = DecodeOverlap::None; }), false},
        {"PDL everywhere", with([](auto& o) { o.tuning.overlap = DecodeOverlap::All; }), false},
        {"host share", with([](auto& o) { o.tuning.timeSteps = true; }), true},
    };
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const Variant& variant = variants[v];
      const bool isDefault = v == 0, eager = variant.options.enforceEager,
                 noBuckets = !variant.options.tuning.bucketRows;
      const bool hostShare = variant.options.tuning.timeSteps;
      if (variant.only8b && name != "qwen3-8b") continue;
      if (batch1Only && (eager || noBuckets || hostShare)) continue;
      CudaBackend backend(c, nullptr, 1, variant.options);
      const int numBlocks = 20000;  // 320,000 tokens: 256 sequences of 512 and more
      backend.allocateKvCache(numBlocks, kBlockSize);
      if (isDefault && !batch1Only) {
        const auto start = Clock::now();
        backend.warmUp(8192, 256);  // as the engine does at start
        warmUps.push_back(
            {{"model", name}, {"seconds", std::chrono::duration<double>(Clock::now() - start).count()}});
      }
      Driver driver{backend, numBlocks};
      if (hostShare) {
        // A decode step's wall time (packing, transfers, launch, waiting) against its device time: what
        // the host adds to each step, the most that preparing step n + 1 during step n could take off.
        for (const int batch : {1, 8, 32, 128, 256}) {
          driver.reset();
          driver.addAndPrefill(batch, batch == 1 ? 128 : 512, 16384);
          for (int i = 0; i < 3; ++i)
            driver.decodeStep();
          std::vector<double> walls, devices, hosts;
          for (int i = 0; i < (quick ? 8 : 32); ++i) {
            walls.push_back(driver.decodeStep());
            devices.push_back(backend.lastStepDeviceMs());
            hosts.push_back(walls.back() - devices.back());
          }
          hostShares.push_back({{"model", name},
                                {"batch", batch},
                                {"wall_ms", median(walls)},
                                {"device_ms", median(devices)},
                                {"host_ms", median(hosts)}});
        }
        continue;
      }
      driver.addAndPrefill(1, 128, 8192);
      const double ms = driver.medianStepMs(5, quick ? 32 : 128);
      const double floorMs = decodeBytes(c, 1, driver.meanContext()) / copyBandwidth * 1e3;
      const std::string label = name + " (" + variant.label + ")";
      std::printf("%-56s %12.3f %12.3f %9.1f%%\n", label.c_str(), ms, floorMs, 100.0 * floorMs / ms);
      decode1.push_back({{"model", name},
                         {"variant", variant.label},
                         {"graphs", !eager},
                         {"ms_per_token", ms},
                         {"floor_ms", floorMs},
                         {"fraction_of_floor", floorMs / ms}});

      // Short prompts as a chat load brings them, each length new to the process, then the same length
      // again; then a new length and a seen one each after 0.6 s of idleness. With row buckets and the
      // warm-up (the default) and without.
      if (batch1Only) continue;
      if (name == "qwen3-8b" && (isDefault || noBuckets)) {
        auto prefillMs = [&](int length) {
          driver.reset();
          const auto start = Clock::now();
          driver.addAndPrefill(1, length, 8192);
          return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        };
        for (const int length : {37, 61, 93, 131, 177, 203, 251, 317}) {
          const double first = prefillMs(length);
          const double again = prefillMs(length);
          shortPrefill.push_back(
              {{"buckets", isDefault}, {"prompt_tokens", length}, {"first_ms", first}, {"again_ms", again}});
        }
        for (const int length : {149, 149}) {
          std::this_thread::sleep_for(std::chrono::milliseconds(600));
          shortPrefill.push_back(
              {{"buckets", isDefault}, {"prompt_tokens", length}, {"after_idle_ms", prefillMs(length)}});
        }
      }
      if (name == "qwen3-8b" && isDefault) {
        batchSteps(driver, "CUDA graphs");
        // Prefill of one sequence: 2k and 8k in one step, 32k in the engine's default chunks of 8,192
        // tokens (--max-num-batched-tokens), each chunk attending to the ones before it in the cache.
        for (const auto& [length, chunk] :
             {std::pair{2048, 2048}, std::pair{8192, 8192}, std::pair{32768, 8192}}) {
          std::vector<double> rates;
          for (int r = 0; r < 3; ++r) {
            driver.reset();
            const auto start = Clock::now();
            driver.addAndPrefill(1, length, chunk);
            const double s = std::chrono::duration<double>(Clock::now() - start).count();
            rates.push_back(length / s);
          }
          const double rate = median(rates);
          prefill.push_back(
              {{"model", name}, {"prompt_tokens", length}, {"chunk_tokens", chunk}, {"tokens_per_s", rate}});
        }
      }
    }
  }
  std::printf("\n%-40s %6s %10s %10s %10s %10s %9s\n", "decode step, qwen3-8b, context ~512", "batch",
              "step ms", "tok/s", "bytes ms", "FLOPs ms", "of floor");
  for (const auto& b : batches) {
    std::printf("  %-38s %6d %10.3f %10.0f %10.3f %10.3f %8.1f%%\n", b["variant"].get<std::string>().c_str(),
                b["batch"].get<int>(), b["step_ms"].get<double>(), b["tokens_per_s"].get<double>(),
                b["bytes_floor_ms"].get<double>(), b["flops_floor_ms"].get<double>(),
                100.0 * b["fraction_of_floor"].get<double>());
  }
  std::printf("\n%-40s %12s %12s %12s %12s %9s\n", "decode step, qwen3-8b, host share", "batch", "wall ms",
              "device ms", "host ms", "of wall");
  for (const auto& h : hostShares) {
    const double wall = h["wall_ms"].get<double>(), hostMs = h["host_ms"].get<double>();
    std::printf("%-40s %12d %12.3f %12.3f %12.3f %8.1f%%\n", "", h["batch"].get<int>(), wall,
                h["device_ms"].get<double>(), hostMs, 100.0 * hostMs / wall);
  }
  std::printf("\n%-40s %12s %12s %12s\n", "prefill, qwen3-8b, one prompt", "tokens", "chunk", "tok/s");
  for (const auto& p : prefill)
    std::printf("%-40s %12d %12d %12.0f\n", "", p["prompt_tokens"].get<int>(), p["chunk_tokens"].get<int>(),
                p["tokens_per_s"].get<double>());

  std::printf("\n%-40s %12s %12s %12s\n", "short prompt, qwen3-8b, one step", "tokens", "first ms",
              "again ms");
  for (const auto& p : shortPrefill) {
    const char* label = p["buckets"].get<bool>() ? "  row buckets + warm-up" : "  no row buckets";
    if (p.contains("after_idle_ms")) {
      std::printf("%-40s %12d %25.2f (after 0.6 s idle)\n", label, p["prompt_tokens"].get<int>(),
                  p["after_idle_ms"].get<double>());
    } else {
      std::printf("%-40s %12d %12.2f %12.2f\n", label, p["prompt_tokens"].get<int>(),
                  p["first_ms"].get<double>(), p["again_ms"].get<double>());
    }
  }
  for (const auto& w : warmUps)
    std::printf("warm-up (8,192 tokens, 256 sequences), %s: %.2f s\n", w["model"].get<std::string>().c_str(),
                w["seconds"].get<double>());
  result["warm_up"] = warmUps;
  result["short_prefill"] = shortPrefill;
  result["decode_batch1"] = decode1;
  result["decode_batches"] = batches;
  result["host_share"] = hostShares;
  result["prefill"] = prefill;
  const std::string text = result.dump(2);
  std::printf("\nJSON %s\n", result.dump().c_str());
  if (!jsonPath.empty()) std::ofstream(jsonPath) << text << "\n";
  return 0;
}
