// The hand-written half of bench/gpu/run.sh: bench/gpu/loops.cpp's cases as
// a CUDA programmer writes them for every visible GPU (same data, same order,
// same results; the case list is in loops.cpp):
// - host arrays page-locked once at start-up (cudaHostRegister, untimed), and
//   device buffers allocated once (untimed), as a program that owns its data does;
// - each GPU's share of the iterations in two halves on two non-blocking
//   streams, so one half's copies overlap the other half's kernel;
// - Jacobi's halo rows pulled from the neighbouring GPUs over NVLink
//   (cudaMemcpyPeerAsync), ordered by events, with no host wait in the sweeps;
// - the dot product reduced per thread, then per GPU half in a second small
//   kernel, and on the host across halves.
// Kernels are grid-stride loops over a __host__ __device__ body, which is
// also their host twin for the CUDA stand-in (test/standin/README.md) when
// built with -DGPU_AUTOPAR_STANDIN_HOOK.
// Usage: bench_gpu_reference count
//        bench_gpu_reference SAXPY_N DOT_N JACOBI_N SWEEPS MATMUL_N REPS
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "common.h"

#ifdef GPU_AUTOPAR_STANDIN_HOOK
#include <gpu_autopar_standin/hook.h>
#define TWIN(kernel, body) gpu_autopar::register_standin_twin<&body>(&kernel)
#else
#define TWIN(kernel, body) ((void)0)
#endif

namespace {

using clock_type = std::chrono::steady_clock;
using u64 = std::uint64_t;

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "bench_gpu_reference: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

using bench_gpu::serial_sweeps;
using bench_gpu::timed;

void report(const char *name, double seconds, double checksum) {
  std::printf("case=%s wall_s=%.6f checksum=%.9g\n", name, seconds, checksum);
}

template <class T> double sum_of(const std::vector<T> &v) {
  double s = 0;
  for (T x : v)
    s += double(x);
  return s;
}

// ---- kernels: body(t, threads, args...) is one thread's work ---------------

__host__ __device__ void saxpy_body(u64 t, u64 threads, float *y, const float *x, float a, long n) {
  for (long i = long(t); i < n; i += long(threads))
    y[i] = a * x[i] + y[i];
}
__global__ void saxpy_kernel(float *y, const float *x, float a, long n) {
  saxpy_body(blockIdx.x * u64(blockDim.x) + threadIdx.x, u64(gridDim.x) * blockDim.x, y, x, a, n);
}

__host__ __device__ void dot_body(u64 t, u64 threads, const float *x, const float *y, long n, double *partial) {
  double acc = 0;
  for (long i = long(t); i < n; i += long(threads))
    acc += double(x[i]) * double(y[i]);
  partial[t] = acc;
}
__global__ void dot_kernel(const float *x, const float *y, long n, double *partial) {
  dot_body(blockIdx.x * u64(blockDim.x) + threadIdx.x, u64(gridDim.x) * blockDim.x, x, y, n, partial);
}

__host__ __device__ void sum_body(u64 t, u64 threads, const double *partial, long n, double *out) {
  double acc = 0;
  for (long i = long(t); i < n; i += long(threads))
    acc += partial[i];
  out[t] = acc;
}
__global__ void sum_kernel(const double *partial, long n, double *out) {
  sum_body(blockIdx.x * u64(blockDim.x) + threadIdx.x, u64(gridDim.x) * blockDim.x, partial, n, out);
}

// Rows [1, rows-1) of a block of `rows` grid rows (the first and last are
// halos or the grid's edge), columns [1, n-1).
__host__ __device__ void stencil_body(u64 t, u64 threads, double *b, const double *a, long rows, int n) {
  const long cells = (rows - 2) * (n - 2);
  for (long k = long(t); k < cells; k += long(threads)) {
    const long i = 1 + k / (n - 2), j = 1 + k % (n - 2);
    b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
  }
}
__global__ void stencil_kernel(double *b, const double *a, long rows, int n) {
  stencil_body(blockIdx.x * u64(blockDim.x) + threadIdx.x, u64(gridDim.x) * blockDim.x, b, a, rows, n);
}

__host__ __device__ void copy_body(u64 t, u64 threads, double *a, const double *b, long rows, int n) {
  const long cells = (rows - 2) * (n - 2);
  for (long k = long(t); k < cells; k += long(threads)) {
    const long i = 1 + k / (n - 2), j = 1 + k % (n - 2);
    a[i * n + j] = b[i * n + j];
  }
}
__global__ void copy_kernel(double *a, const double *b, long rows, int n) {
  copy_body(blockIdx.x * u64(blockDim.x) + threadIdx.x, u64(gridDim.x) * blockDim.x, a, b, rows, n);
}

// Rows [0, rows) of C = A B, with A's rows and all of B on the device.
__host__ __device__ void matmul_body(u64 t, u64 threads, double *c, const double *a, const double *b, long rows, int n) {
  for (long k = long(t); k < rows * n; k += long(threads)) {
    const long i = k / n, j = k % n;
    double acc = 0;
    for (int m = 0; m < n; ++m)
      acc += a[i * n + m] * b[long(m) * n + j];
    c[k] = acc;
  }
}
__global__ void matmul_kernel(double *c, const double *a, const double *b, long rows, int n) {
  matmul_body(blockIdx.x * u64(blockDim.x) + threadIdx.x, u64(gridDim.x) * blockDim.x, c, a, b, rows, n);
}

constexpr int kBlock = 256;
// The dot product's first pass: one thread per kDotPerThread elements (2^28 floats on 8 GPUs: 4096
// blocks a half), so its partial sums stay 1/64 of the input at every size (the stand-in's byte scale,
// bench/README.md, then stands for the full size exactly).
constexpr long kDotPerThread = 64;
unsigned dot_blocks(long n) { return unsigned((n + kDotPerThread * kBlock - 1) / (kDotPerThread * kBlock)); }

unsigned blocks_for(long n) {
  const long b = (n + kBlock - 1) / kBlock;
  return unsigned(b < 65536 ? (b > 0 ? b : 1) : 65536); // grid-stride beyond that
}

// [lo, hi) of n split evenly in `parts`.
struct range {
  long lo, hi;
  long size() const { return hi - lo; }
};
range part(long n, int parts, int k) { return {n * k / parts, n * (k + 1) / parts}; }

// Two streams per GPU; piece p = 2 * GPU + half.
struct gpus {
  int count;
  std::vector<cudaStream_t> streams;
  explicit gpus(int n) : count(n), streams(2 * n) {
    for (int d = 0; d < n; ++d) {
      check(cudaSetDevice(d), "cudaSetDevice");
      for (int h = 0; h < 2; ++h)
        check(cudaStreamCreateWithFlags(&streams[2 * d + h], cudaStreamNonBlocking), "cudaStreamCreate");
      for (int peer : {d - 1, d + 1}) // Jacobi's neighbours
        if (peer >= 0 && peer < n)
          check(cudaDeviceEnablePeerAccess(peer, 0), "cudaDeviceEnablePeerAccess");
    }
  }
  ~gpus() {
    for (int d = 0; d < count; ++d) {
      check(cudaSetDevice(d), "cudaSetDevice");
      for (int h = 0; h < 2; ++h)
        check(cudaStreamDestroy(streams[2 * d + h]), "cudaStreamDestroy");
    }
  }
  void sync() const {
    for (int d = 0; d < count; ++d) {
      check(cudaSetDevice(d), "cudaSetDevice");
      for (int h = 0; h < 2; ++h)
        check(cudaStreamSynchronize(streams[2 * d + h]), "cudaStreamSynchronize");
    }
  }
};

template <class T> T *device_alloc(long count) {
  void *p = nullptr;
  check(cudaMalloc(&p, std::size_t(count > 0 ? count : 1) * sizeof(T)), "cudaMalloc");
  return static_cast<T *>(p);
}

template <class T> void pin(std::vector<T> &v) { check(cudaHostRegister(v.data(), v.size() * sizeof(T), 0), "cudaHostRegister"); }
template <class T> void unpin(std::vector<T> &v) { check(cudaHostUnregister(v.data()), "cudaHostUnregister"); }

void h2d(void *dst, const void *src, std::size_t bytes, cudaStream_t s) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync H2D");
}
void d2h(void *dst, const void *src, std::size_t bytes, cudaStream_t s) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync D2H");
}

void run_saxpy_and_dot(const gpus &g, long n, long dn, int reps) {
  std::vector<float> x(n), y(n);
  for (long k = 0; k < n; ++k) {
    x[k] = 1.0f + float(k % 17);
    y[k] = 0.5f * float(k % 5);
  }
  pin(x);
  pin(y);
  const float a = 0.5f;
  const int pieces = 2 * g.count;
  std::vector<float *> dx(pieces), dy(pieces);
  std::vector<double *> partial(pieces), sums(pieces);
  std::vector<std::vector<double>> host_sums(pieces, std::vector<double>(kBlock));
  for (int p = 0; p < pieces; ++p) {
    check(cudaSetDevice(p / 2), "cudaSetDevice");
    dx[p] = device_alloc<float>(part(n, pieces, p).size());
    dy[p] = device_alloc<float>(part(n, pieces, p).size());
    partial[p] = device_alloc<double>(long(dot_blocks(part(dn, pieces, p).size()) + 1) * kBlock);
    sums[p] = device_alloc<double>(kBlock);
    check(cudaHostRegister(host_sums[p].data(), kBlock * sizeof(double), 0), "cudaHostRegister");
  }
  auto copy_in = [&](const std::vector<float> &from, std::vector<float *> &to, long count) {
    for (int p = 0; p < pieces; ++p) {
      const range r = part(count, pieces, p);
      check(cudaSetDevice(p / 2), "cudaSetDevice");
      h2d(to[p], &from[r.lo], r.size() * sizeof(float), g.streams[p]);
    }
  };
  auto kernels = [&](int times) {
    for (int p = 0; p < pieces; ++p) {
      const range r = part(n, pieces, p);
      check(cudaSetDevice(p / 2), "cudaSetDevice");
      for (int k = 0; k < times; ++k)
        saxpy_kernel<<<blocks_for(r.size()), kBlock, 0, g.streams[p]>>>(dy[p], dx[p], a, r.size());
    }
  };
  auto copy_out = [&] {
    for (int p = 0; p < pieces; ++p) {
      const range r = part(n, pieces, p);
      check(cudaSetDevice(p / 2), "cudaSetDevice");
      d2h(&y[r.lo], dy[p], r.size() * sizeof(float), g.streams[p]);
    }
  };
  // One saxpy: each piece copies in, runs and copies out on its stream.
  auto oneshot = [&] {
    for (int p = 0; p < pieces; ++p) {
      const range r = part(n, pieces, p);
      check(cudaSetDevice(p / 2), "cudaSetDevice");
      h2d(dx[p], &x[r.lo], r.size() * sizeof(float), g.streams[p]);
      h2d(dy[p], &y[r.lo], r.size() * sizeof(float), g.streams[p]);
      saxpy_kernel<<<blocks_for(r.size()), kBlock, 0, g.streams[p]>>>(dy[p], dx[p], a, r.size());
      d2h(&y[r.lo], dy[p], r.size() * sizeof(float), g.streams[p]);
    }
    g.sync();
  };
  oneshot(); // warm-up
  timed one("saxpy_oneshot");
  oneshot();
  report("saxpy_oneshot", one.end(), sum_of(y));

  // The warm-up region of loops.cpp (its buffers are allocated already).
  copy_in(x, dx, n);
  copy_in(y, dy, n);
  kernels(1);
  copy_out();
  g.sync();
  timed region("saxpy_region");
  copy_in(x, dx, n);
  copy_in(y, dy, n);
  kernels(reps);
  copy_out();
  g.sync();
  report("saxpy_region", region.end(), sum_of(y));

  if (dn > 0) {
    for (long k = 0; k < dn; ++k) {
      x[k] = float(k % 13) - 6.0f;
      y[k] = 0.25f * float(k % 7);
    }
    double got = 0;
    timed d("dot_region");
    copy_in(x, dx, dn);
    copy_in(y, dy, dn);
    for (int r = 0; r < reps; ++r) {
      for (int p = 0; p < pieces; ++p) {
        const range q = part(dn, pieces, p);
        check(cudaSetDevice(p / 2), "cudaSetDevice");
        const unsigned blocks = dot_blocks(q.size()) > 0 ? dot_blocks(q.size()) : 1;
        dot_kernel<<<blocks, kBlock, 0, g.streams[p]>>>(dx[p], dy[p], q.size(), partial[p]);
        sum_kernel<<<1, kBlock, 0, g.streams[p]>>>(partial[p], long(blocks) * kBlock, sums[p]);
        d2h(host_sums[p].data(), sums[p], kBlock * sizeof(double), g.streams[p]);
      }
      g.sync();
      for (const auto &s : host_sums)
        got += sum_of(s);
    }
    report("dot_region", d.end(), got);
  }

  for (int p = 0; p < pieces; ++p) {
    check(cudaSetDevice(p / 2), "cudaSetDevice");
    check(cudaFree(dx[p]), "cudaFree");
    check(cudaFree(dy[p]), "cudaFree");
    check(cudaFree(partial[p]), "cudaFree");
    check(cudaFree(sums[p]), "cudaFree");
    check(cudaHostUnregister(host_sums[p].data()), "cudaHostUnregister");
  }
  unpin(x);
  unpin(y);
}

// Each GPU holds its share of the interior rows plus one row above and below
// (a halo, or the grid's edge row), for both grids. Everything of a GPU runs
// on its first stream (the copies in share one copy engine anyway, and the
// copies out write host memory the copies in read); the two kernels of a sweep run there; its halos are then pulled from its
// neighbours once their sweep is done, and its next sweep starts once its
// neighbours have pulled their halos from it.
void run_jacobi(const gpus &g, const char *name, std::vector<double> &a, std::vector<double> &b, int n, int sweeps) {
  const int G = g.count;
  const long interior = n - 2;
  std::vector<range> own(G); // grid rows each GPU computes
  std::vector<double *> da(G), db(G);
  std::vector<cudaEvent_t> swept(G), pulled(G);
  for (int d = 0; d < G; ++d) {
    const range s = part(interior, G, d);
    own[d] = {1 + s.lo, 1 + s.hi};
    check(cudaSetDevice(d), "cudaSetDevice");
    da[d] = device_alloc<double>((own[d].size() + 2) * n);
    db[d] = device_alloc<double>((own[d].size() + 2) * n);
    check(cudaEventCreateWithFlags(&swept[d], cudaEventDisableTiming), "cudaEventCreate");
    check(cudaEventCreateWithFlags(&pulled[d], cudaEventDisableTiming), "cudaEventCreate");
  }
  timed t(name);
  // In: each block with its halo rows (a's halos are read; b's edge rows are b's own).
  for (int d = 0; d < G; ++d) {
    const long first = own[d].lo - 1, bytes = (own[d].size() + 2) * n * sizeof(double);
    check(cudaSetDevice(d), "cudaSetDevice");
    h2d(da[d], &a[first * n], bytes, g.streams[2 * d]);
    h2d(db[d], &b[first * n], bytes, g.streams[2 * d]);
  }
  for (int s = 0; s < sweeps; ++s) {
    for (int d = 0; d < G; ++d) {
      const long rows = own[d].size() + 2, cells = own[d].size() * (n - 2);
      cudaStream_t st = g.streams[2 * d];
      check(cudaSetDevice(d), "cudaSetDevice");
      if (s > 0)
        for (int peer : {d - 1, d + 1})
          if (peer >= 0 && peer < G)
            check(cudaStreamWaitEvent(st, pulled[peer], 0), "cudaStreamWaitEvent");
      stencil_kernel<<<blocks_for(cells), kBlock, 0, st>>>(db[d], da[d], rows, n);
      copy_kernel<<<blocks_for(cells), kBlock, 0, st>>>(da[d], db[d], rows, n);
      check(cudaEventRecord(swept[d], st), "cudaEventRecord");
    }
    if (s + 1 == sweeps)
      break; // the last sweep's halos are nobody's input
    for (int d = 0; d < G; ++d) {
      cudaStream_t st = g.streams[2 * d];
      const long rows = own[d].size() + 2;
      check(cudaSetDevice(d), "cudaSetDevice");
      if (d > 0) { // the upper neighbour's last row into this block's first
        check(cudaStreamWaitEvent(st, swept[d - 1], 0), "cudaStreamWaitEvent");
        check(cudaMemcpyPeerAsync(da[d], d, da[d - 1] + (own[d - 1].size()) * n, d - 1, n * sizeof(double), st),
              "cudaMemcpyPeerAsync");
      }
      if (d + 1 < G) { // the lower neighbour's first row into this block's last
        check(cudaStreamWaitEvent(st, swept[d + 1], 0), "cudaStreamWaitEvent");
        check(cudaMemcpyPeerAsync(da[d] + (rows - 1) * n, d, da[d + 1] + n, d + 1, n * sizeof(double), st),
              "cudaMemcpyPeerAsync");
      }
      check(cudaEventRecord(pulled[d], st), "cudaEventRecord");
    }
  }
  // Out: each GPU's own rows of both grids, once every GPU has swept (a
  // block's copy in read its neighbours' edge rows from the same host grids).
  g.sync();
  for (int d = 0; d < G; ++d) {
    const long bytes = own[d].size() * n * sizeof(double);
    check(cudaSetDevice(d), "cudaSetDevice");
    d2h(&a[own[d].lo * n], da[d] + n, bytes, g.streams[2 * d]);
    d2h(&b[own[d].lo * n], db[d] + n, bytes, g.streams[2 * d]);
  }
  g.sync();
  report(name, t.end(), sum_of(a));
  for (int d = 0; d < G; ++d) {
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaFree(da[d]), "cudaFree");
    check(cudaFree(db[d]), "cudaFree");
    check(cudaEventDestroy(swept[d]), "cudaEventDestroy");
    check(cudaEventDestroy(pulled[d]), "cudaEventDestroy");
  }
}

// Each GPU computes its share of C's rows in two halves on its two streams:
// B whole (once, on the first stream), each half's rows of A, the kernel,
// the half's rows of C back.
void run_matmul(const gpus &g, int n) {
  const long total = long(n) * n;
  std::vector<double> a(total), b(total), c(total);
  for (long k = 0; k < total; ++k) {
    a[k] = double(k % 7) - 3.0;
    b[k] = double(k % 5) - 2.0;
  }
  pin(a);
  pin(b);
  pin(c);
  const int pieces = 2 * g.count;
  std::vector<double *> da(pieces), dc(pieces), db(g.count);
  std::vector<cudaEvent_t> have_b(g.count);
  for (int p = 0; p < pieces; ++p) {
    check(cudaSetDevice(p / 2), "cudaSetDevice");
    da[p] = device_alloc<double>(part(n, pieces, p).size() * n);
    dc[p] = device_alloc<double>(part(n, pieces, p).size() * n);
    if (p % 2 == 0) {
      db[p / 2] = device_alloc<double>(total);
      check(cudaEventCreateWithFlags(&have_b[p / 2], cudaEventDisableTiming), "cudaEventCreate");
    }
  }
  auto multiply = [&] {
    for (int p = 0; p < pieces; ++p) {
      const range r = part(n, pieces, p);
      const int d = p / 2;
      check(cudaSetDevice(d), "cudaSetDevice");
      if (p % 2 == 0) {
        h2d(db[d], b.data(), total * sizeof(double), g.streams[p]);
        check(cudaEventRecord(have_b[d], g.streams[p]), "cudaEventRecord");
      }
      h2d(da[p], &a[r.lo * n], r.size() * n * sizeof(double), g.streams[p]);
      check(cudaStreamWaitEvent(g.streams[p], have_b[d], 0), "cudaStreamWaitEvent");
      matmul_kernel<<<blocks_for(r.size() * n), kBlock, 0, g.streams[p]>>>(dc[p], da[p], db[d], r.size(), n);
      d2h(&c[r.lo * n], dc[p], r.size() * n * sizeof(double), g.streams[p]);
    }
    g.sync();
  };
  multiply(); // warm-up
  timed t("matmul");
  multiply();
  report("matmul", t.end(), sum_of(c));
  for (int p = 0; p < pieces; ++p) {
    check(cudaSetDevice(p / 2), "cudaSetDevice");
    check(cudaFree(da[p]), "cudaFree");
    check(cudaFree(dc[p]), "cudaFree");
    if (p % 2 == 0) {
      check(cudaFree(db[p / 2]), "cudaFree");
      check(cudaEventDestroy(have_b[p / 2]), "cudaEventDestroy");
    }
  }
  unpin(a);
  unpin(b);
  unpin(c);
}

} // namespace

int main(int argc, char **argv) {
  int gpu_count = 0;
  if (cudaGetDeviceCount(&gpu_count) != cudaSuccess)
    gpu_count = 0; // no driver (35) or no device (100)
  if (argc == 2 && !std::strcmp(argv[1], "count")) {
    std::printf("%d\n", gpu_count);
    return 0;
  }
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s count | SAXPY_N DOT_N JACOBI_N SWEEPS MATMUL_N REPS\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[1]), dn = std::atol(argv[2]);
  const int jn = std::atoi(argv[3]), sweeps = std::atoi(argv[4]), mn = std::atoi(argv[5]), reps = std::atoi(argv[6]);
  // A size of 0 leaves its cases out (bench/gpu/run.sh runs the 1-D cases and
  // the 2-D ones in separate processes: the stand-in's byte scale is per process).
  if (n < 0 || dn < 0 || dn > n || (jn != 0 && jn < 3) || sweeps < 1 || mn < 0 || reps < 1) {
    std::fprintf(stderr, "%s: sizes must be 0 or positive, DOT_N at most SAXPY_N, JACOBI_N 0 or at least 3\n", argv[0]);
    return 2;
  }
  if (gpu_count == 0) {
    std::fprintf(stderr, "%s: no GPU visible to the CUDA runtime\n", argv[0]);
    return 1;
  }
  TWIN(saxpy_kernel, saxpy_body);
  TWIN(dot_kernel, dot_body);
  TWIN(sum_kernel, sum_body);
  TWIN(stencil_kernel, stencil_body);
  TWIN(copy_kernel, copy_body);
  TWIN(matmul_kernel, matmul_body);
  {
    gpus g(gpu_count);
    if (n > 0)
      run_saxpy_and_dot(g, n, dn, reps);
    // The same grids as loops.cpp, after its warm-up region's two sweeps; the
    // collapse(2) case is the same hand-written code (the 2-D index is the
    // kernel's, not a split of the loop).
    if (jn > 0) {
      const long total = long(jn) * jn;
      std::vector<double> a(total), b(total);
      for (long k = 0; k < total; ++k)
        a[k] = b[k] = double(k % 1000) / 7.0;
      serial_sweeps(a, b, jn, 2);
      pin(a);
      pin(b);
      run_jacobi(g, "jacobi_rows", a, b, jn, sweeps);
      run_jacobi(g, "jacobi_collapse", a, b, jn, sweeps);
      unpin(a);
      unpin(b);
    }
    if (mn > 0)
      run_matmul(g, mn);
  }
  return 0;
}
