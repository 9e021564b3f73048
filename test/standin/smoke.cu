// The stand-in's own test program: one scenario per command-line argument,
// each a correct use of the CUDA runtime or one particular misuse that the
// stand-in must report (smoke_check.py runs them and reads the log).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <gpu_autopar_standin/hook.h>

// The work of one thread, shared by the kernel and its host twin.
__host__ __device__ void scale_thread(unsigned long long t, unsigned long long, int* p, int n, int factor) {
  if (t < (unsigned long long)n)
    p[t] *= factor;
}

__global__ void scale(int* p, int n, int factor) { scale_thread(blockIdx.x * blockDim.x + threadIdx.x, 0, p, n, factor); }

__global__ void no_twin(int* p) { p[0] = 1; }

// The same work, in code that does not report its loads and stores to the
// stand-in (built with -fsanitize=kernel-address, this program reports them:
// CMakeLists.txt): what it reads is then taken to be the whole allocation.
#if defined(__CUDA_ARCH__)
#define UNREPORTED
#else
#define UNREPORTED __attribute__((no_sanitize_address))
#endif
__host__ __device__ UNREPORTED void scale_unreported_thread(unsigned long long t, unsigned long long, int* p, int n,
                                                            int factor) {
  if (t < (unsigned long long)n)
    p[t] *= factor;
}

__global__ void scale_unreported(int* p, int n, int factor) {
  scale_unreported_thread(blockIdx.x * blockDim.x + threadIdx.x, 0, p, n, factor);
}

// Copies n ints: reads src, writes dst.
__host__ __device__ void copy_thread(unsigned long long t, unsigned long long, const int* src, int* dst, int n) {
  if (t < (unsigned long long)n)
    dst[t] = src[t];
}

__global__ void copy(const int* src, int* dst, int n) { copy_thread(blockIdx.x * blockDim.x + threadIdx.x, 0, src, dst, n); }

static const bool twin_registered = gpu_autopar::register_standin_twin<&scale_thread>(&scale) &&
                                    gpu_autopar::register_standin_twin<&scale_unreported_thread>(&scale_unreported) &&
                                    gpu_autopar::register_standin_twin<&copy_thread>(&copy);

namespace {

const int n = 1000;

#define CHECK(call, expected)                                                                                     \
  do {                                                                                                          \
    cudaError_t e_ = (call);                                                                                    \
    if (e_ != (expected)) {                                                                                     \
      std::printf("%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_),       \
                  cudaGetErrorName(expected));                                                                  \
      return 1;                                                                                                 \
    }                                                                                                           \
  } while (0)

std::vector<int> iota() {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

// The right way, on every device: its own stream, copies and the launch on
// it, a wait before the results are read, everything released.
int clean() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count), cudaSuccess);
  long long total = 0;
  for (int d = 0; d < count; ++d) {
    CHECK(cudaSetDevice(d), cudaSuccess);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    int* p = nullptr;
    CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
    std::vector<int> v = iota();
    CHECK(cudaMemcpyAsync(p, v.data(), n * sizeof(int), cudaMemcpyHostToDevice, s), cudaSuccess);
    scale<<<(n + 255) / 256, 256, 0, s>>>(p, n, d + 2);
    CHECK(cudaGetLastError(), cudaSuccess);
    CHECK(cudaMemcpyAsync(v.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost, s), cudaSuccess);
    CHECK(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < n; ++i)
      total += v[i];
    CHECK(cudaFree(p), cudaSuccess);
    CHECK(cudaStreamDestroy(s), cudaSuccess);
  }
  std::printf("total=%lld\n", total);
  return 0;
}

// cudaMemcpy runs on the legacy default stream, which a non-blocking stream
// does not synchronise with: the copy back may read before the kernel wrote.
// A blocking stream is ordered with it.
int copy_launch_copy(unsigned flags) {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, flags), cudaSuccess);
  int* p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
  std::vector<int> v = iota();
  CHECK(cudaMemcpy(p, v.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  scale<<<(n + 255) / 256, 256, 0, s>>>(p, n, 2);
  CHECK(cudaMemcpy(v.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  std::printf("v[1]=%d\n", v[1]);
  CHECK(cudaStreamSynchronize(s), cudaSuccess);
  CHECK(cudaFree(p), cudaSuccess);
  CHECK(cudaStreamDestroy(s), cudaSuccess);
  return 0;
}

// Reading an asynchronous copy's destination before waiting for it.
int early_read() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  int* p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
  std::vector<int> v = iota(), w(n);
  CHECK(cudaMemcpyAsync(p, v.data(), n * sizeof(int), cudaMemcpyHostToDevice, s), cudaSuccess);
  CHECK(cudaMemcpyAsync(w.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost, s), cudaSuccess);
  std::printf("w[1]=%d\n", w[1]); // not there yet
  // Handing the destination to another copy before the wait is a host read the stand-in sees.
  CHECK(cudaMemcpy(p, w.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  CHECK(cudaStreamSynchronize(s), cudaSuccess);
  CHECK(cudaFree(p), cudaSuccess);
  CHECK(cudaStreamDestroy(s), cudaSuccess);
  return 0;
}

// A halo pull: device 0 copies device 1's upper half while device 1's next
// kernel scales its lower half, with nothing ordering the two. One
// allocation, but no byte both use: not a race (`overlap` elements of the
// copy reach into the kernel's half: a race).
int halo(int overlap) {
  const int half = n / 2;
  int *p0 = nullptr, *p1 = nullptr;
  cudaStream_t s0, s1;
  std::vector<int> v = iota();
  CHECK(cudaSetDevice(1), cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
  CHECK(cudaMalloc(&p1, n * sizeof(int)), cudaSuccess);
  CHECK(cudaMemcpyAsync(p1, v.data(), n * sizeof(int), cudaMemcpyHostToDevice, s1), cudaSuccess);
  CHECK(cudaStreamSynchronize(s1), cudaSuccess);
  CHECK(cudaSetDevice(0), cudaSuccess);
  CHECK(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking), cudaSuccess);
  CHECK(cudaMalloc(&p0, n * sizeof(int)), cudaSuccess);
  CHECK(cudaSetDevice(1), cudaSuccess);
  scale<<<(half + 255) / 256, 256, 0, s1>>>(p1, half, 3);
  CHECK(cudaSetDevice(0), cudaSuccess);
  CHECK(cudaMemcpyPeerAsync(p0 + half - overlap, 0, p1 + half - overlap, 1, (half + overlap) * sizeof(int), s0),
        cudaSuccess);
  CHECK(cudaMemcpyAsync(v.data(), p0, n * sizeof(int), cudaMemcpyDeviceToHost, s0), cudaSuccess);
  CHECK(cudaStreamSynchronize(s0), cudaSuccess);
  std::printf("v[n-1]=%d\n", v[n - 1]);
  CHECK(cudaFree(p0), cudaSuccess);
  CHECK(cudaStreamDestroy(s0), cudaSuccess);
  CHECK(cudaSetDevice(1), cudaSuccess);
  CHECK(cudaStreamSynchronize(s1), cudaSuccess);
  CHECK(cudaFree(p1), cudaSuccess);
  CHECK(cudaStreamDestroy(s1), cudaSuccess);
  return 0;
}

// Two kernels update one allocation in place from two streams that nothing
// orders (two GPUs on managed memory, or two streams of one GPU), each its
// own elements, all of them in one page: no byte both use, not a race. Where
// the second stream's next kernel reads the last element of the first's part
// (`overlap`), it is one; so it is where the kernels' code does not report
// what it reads (`reported` false: read allocation-wide, a race).
int in_place(bool managed, bool overlap, bool reported) {
  const int half = n / 2 + 3;
  const int other = managed ? 1 : 0;
  int *p = nullptr, *q = nullptr;
  cudaStream_t s0, s1;
  std::vector<int> v = iota();
  if (managed)
    CHECK(cudaMallocManaged(&p, n * sizeof(int)), cudaSuccess);
  else
    CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
  CHECK(cudaMemcpy(p, v.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  CHECK(cudaDeviceSynchronize(), cudaSuccess); // the copy may still be under way when cudaMemcpy returns
  CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking), cudaSuccess);
  CHECK(cudaSetDevice(other), cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
  CHECK(cudaMalloc(&q, sizeof(int)), cudaSuccess);
  CHECK(cudaSetDevice(0), cudaSuccess);
  if (reported)
    scale<<<(half + 255) / 256, 256, 0, s0>>>(p, half, 2);
  else
    scale_unreported<<<(half + 255) / 256, 256, 0, s0>>>(p, half, 2);
  CHECK(cudaSetDevice(other), cudaSuccess);
  if (reported)
    scale<<<(n - half + 255) / 256, 256, 0, s1>>>(p + half, n - half, 3);
  else
    scale_unreported<<<(n - half + 255) / 256, 256, 0, s1>>>(p + half, n - half, 3);
  if (overlap)
    copy<<<1, 32, 0, s1>>>(p + half - 1, q, 1);
  CHECK(cudaStreamSynchronize(s1), cudaSuccess);
  CHECK(cudaFree(q), cudaSuccess);
  CHECK(cudaStreamDestroy(s1), cudaSuccess);
  CHECK(cudaSetDevice(0), cudaSuccess);
  CHECK(cudaStreamSynchronize(s0), cudaSuccess);
  CHECK(cudaStreamDestroy(s0), cudaSuccess);
  CHECK(cudaMemcpy(v.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  CHECK(cudaFree(p), cudaSuccess);
  std::printf("v[0]=%d v[half-1]=%d v[half]=%d\n", v[0], v[half - 1], v[half]);
  return 0;
}

int wrong_device() {
  int* p = nullptr;
  CHECK(cudaSetDevice(1), cudaSuccess);
  CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
  CHECK(cudaSetDevice(0), cudaSuccess);
  scale<<<(n + 255) / 256, 256>>>(p, n, 2); // device 1's memory, device 0 current
  CHECK(cudaDeviceSynchronize(), cudaSuccess);
  CHECK(cudaFree(p), cudaSuccess);
  return 0;
}

int foreign_stream() {
  cudaStream_t s;
  CHECK(cudaSetDevice(1), cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  int* p = nullptr;
  CHECK(cudaSetDevice(0), cudaSuccess);
  CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
  scale<<<(n + 255) / 256, 256, 0, s>>>(p, n, 2); // device 1's stream, device 0 current
  CHECK(cudaGetLastError(), cudaErrorInvalidResourceHandle);
  CHECK(cudaFree(p), cudaSuccess);
  CHECK(cudaStreamDestroy(s), cudaSuccess);
  return 0;
}

int leak() {
  int* p = nullptr;
  CHECK(cudaMalloc(&p, 64), cudaSuccess);
  return 0;
}

int use_after_free() {
  int* p = nullptr;
  std::vector<int> v = iota();
  CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
  CHECK(cudaFree(p), cudaSuccess);
  CHECK(cudaMemcpy(v.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  scale<<<1, 32>>>(p, 32, 2);
  CHECK(cudaDeviceSynchronize(), cudaErrorIllegalAddress); // as a GPU would fault
  return 0;
}

// Out of memory is not sticky: the next call works, the last error clears.
int oom() {
  int* p = nullptr;
  CHECK(cudaMalloc(&p, 4096), cudaErrorMemoryAllocation);
  size_t free_bytes = 0, total = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  std::printf("free=%zu total=%zu\n", free_bytes, total);
  CHECK(cudaGetLastError(), cudaErrorMemoryAllocation);
  CHECK(cudaGetLastError(), cudaSuccess);
  CHECK(cudaMalloc(&p, 512), cudaSuccess);
  CHECK(cudaFree(p), cudaSuccess);
  return 0;
}

// An injected fault in the first launch poisons device 0's context for good;
// device 1 is unaffected.
int fault() {
  int* p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
  scale<<<(n + 255) / 256, 256>>>(p, n, 2);
  CHECK(cudaGetLastError(), cudaSuccess); // the launch itself succeeds
  CHECK(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  CHECK(cudaGetLastError(), cudaErrorIllegalAddress);
  CHECK(cudaGetLastError(), cudaErrorIllegalAddress); // sticky
  int* q = nullptr;
  CHECK(cudaMalloc(&q, 64), cudaErrorIllegalAddress);
  CHECK(cudaSetDevice(1), cudaSuccess);
  CHECK(cudaMalloc(&q, 64), cudaSuccess);
  CHECK(cudaFree(q), cudaSuccess);
  CHECK(cudaSetDevice(0), cudaSuccess);
  CHECK(cudaDeviceReset(), cudaSuccess); // releases p and clears the context
  CHECK(cudaMalloc(&q, 64), cudaSuccess);
  CHECK(cudaFree(q), cudaSuccess);
  std::printf("recovered\n");
  return 0;
}

int missing_twin() {
  int* p = nullptr;
  CHECK(cudaMalloc(&p, 64), cudaSuccess);
  no_twin<<<1, 1>>>(p);
  CHECK(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
  CHECK(cudaFree(p), cudaSuccess);
  return 0;
}

int unsynchronised() {
  int* p = nullptr;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  CHECK(cudaMalloc(&p, n * sizeof(int)), cudaSuccess);
  scale<<<(n + 255) / 256, 256, 0, s>>>(p, n, 2);
  return 0; // neither waited for nor freed
}

// Events time work as the timeline models it: two pinned copies of 1 MiB
// queued between two events on one stream take 2 us to issue the first, then
// 2 x (3 us + 1 MiB at 50 GB/s): 49.94 us, however long the host took.
int event_time() {
  const std::size_t bytes = std::size_t(1) << 20;
  std::vector<char> host(bytes, 1);
  char* d = nullptr;
  cudaStream_t s;
  cudaEvent_t a, b;
  float ms = -1;
  CHECK(cudaStreamCreate(&s), cudaSuccess);
  CHECK(cudaMalloc(&d, bytes), cudaSuccess);
  CHECK(cudaHostRegister(host.data(), bytes, cudaHostRegisterPortable), cudaSuccess);
  CHECK(cudaEventCreate(&a), cudaSuccess);
  CHECK(cudaEventCreate(&b), cudaSuccess);
  CHECK(cudaEventRecord(a, s), cudaSuccess);
  CHECK(cudaMemcpyAsync(d, host.data(), bytes, cudaMemcpyHostToDevice, s), cudaSuccess);
  CHECK(cudaMemcpyAsync(host.data(), d, bytes, cudaMemcpyDeviceToHost, s), cudaSuccess);
  CHECK(cudaEventRecord(b, s), cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, a, b), cudaErrorNotReady); // not reached until waited for
  CHECK(cudaEventSynchronize(b), cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
  std::printf("elapsed_us=%.2f\n", double(ms) * 1e3);
  CHECK(cudaEventDestroy(a), cudaSuccess);
  CHECK(cudaEventDestroy(b), cudaSuccess);
  CHECK(cudaHostUnregister(host.data()), cudaSuccess);
  CHECK(cudaFree(d), cudaSuccess);
  CHECK(cudaStreamDestroy(s), cudaSuccess);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (!twin_registered) {
    std::printf("not running against the stand-in\n");
    return 1;
  }
  if (what == "clean") return clean();
  if (what == "race") return copy_launch_copy(cudaStreamNonBlocking);
  if (what == "blocking-stream") return copy_launch_copy(cudaStreamDefault);
  if (what == "early-read") return early_read();
  if (what == "halo") return halo(0);
  if (what == "halo-race") return halo(1);
  if (what == "in-place") return in_place(false, false, true);
  if (what == "in-place-managed") return in_place(true, false, true);
  if (what == "in-place-race") return in_place(true, true, true);
  if (what == "in-place-unreported") return in_place(false, false, false);
  if (what == "wrong-device") return wrong_device();
  if (what == "foreign-stream") return foreign_stream();
  if (what == "leak") return leak();
  if (what == "use-after-free") return use_after_free();
  if (what == "oom") return oom();
  if (what == "fault") return fault();
  if (what == "missing-twin") return missing_twin();
  if (what == "unsynchronised") return unsynchronised();
  if (what == "event-time") return event_time();
  std::printf("unknown scenario '%s'\n", what.c_str());
  return 2;
}
