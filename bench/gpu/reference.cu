// The hand-written half of bench/gpu/run.sh: the loops of bench/gpu/loops.cpp
// as a CUDA programmer writes them for every visible GPU — the iterations
// split evenly, one stream per GPU, one thread per element (grid-stride),
// the dot product reduced per block in shared memory and once per GPU with
// an atomic, Jacobi's halo rows exchanged between neighbouring GPUs with
// cudaMemcpyPeerAsync. Timed as loops.cpp times the tool's loops:
//   copies_s   the loop with its copies from and to the host's (pageable)
//              arrays, after one untimed warm-up;
//   resident_s the loop alone, data already on the GPUs (mean of REPS).
// Usage: bench_gpu_reference count
//        bench_gpu_reference saxpy|jacobi|dot [SIZE] [REPS]
// `count` prints the number of GPUs the CUDA runtime sees (0 when it reports
// none: no driver, error 35, or no device, error 100).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "bench_gpu_reference: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int gpu_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

constexpr int kBlock = 256;

unsigned blocks_for(long n) {
  const long b = (n + kBlock - 1) / kBlock;
  return unsigned(b < 65536 ? (b > 0 ? b : 1) : 65536); // grid-stride beyond that
}

// Iterations [lo, hi) of the loop split evenly over `gpus`.
struct share {
  long lo, hi;
};
share share_of(long n, int gpus, int d) { return {n * d / gpus, n * (d + 1) / gpus}; }

void sync_all(int gpus, const std::vector<cudaStream_t> &s) {
  for (int d = 0; d < gpus; ++d) {
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaStreamSynchronize(s[d]), "cudaStreamSynchronize");
  }
}

__global__ void saxpy_kernel(float *__restrict__ y, const float *__restrict__ x, float a, long n) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x)
    y[i] = a * x[i] + y[i];
}

// Rows [1, rows-1) of a block of `rows` rows (its first and last are halos
// or the grid's edge), columns [1, n-1).
__global__ void stencil_kernel(double *__restrict__ b, const double *__restrict__ a, long rows, int n) {
  const long cells = (rows - 2) * (n - 2);
  for (long k = blockIdx.x * long(blockDim.x) + threadIdx.x; k < cells; k += long(gridDim.x) * blockDim.x) {
    const long i = 1 + k / (n - 2), j = 1 + k % (n - 2);
    b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
  }
}

__global__ void copy_kernel(double *__restrict__ a, const double *__restrict__ b, long rows, int n) {
  const long cells = (rows - 2) * (n - 2);
  for (long k = blockIdx.x * long(blockDim.x) + threadIdx.x; k < cells; k += long(gridDim.x) * blockDim.x) {
    const long i = 1 + k / (n - 2), j = 1 + k % (n - 2);
    a[i * n + j] = b[i * n + j];
  }
}

__global__ void dot_kernel(const float *__restrict__ x, const float *__restrict__ y, long n, double *sum) {
  __shared__ double part[kBlock];
  double acc = 0;
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x)
    acc += double(x[i]) * double(y[i]);
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int w = kBlock / 2; w > 0; w /= 2) {
    if (int(threadIdx.x) < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(sum, part[0]);
}

struct gpus_state {
  int count;
  std::vector<cudaStream_t> streams;
  explicit gpus_state(int n) : count(n), streams(n) {
    for (int d = 0; d < n; ++d) {
      check(cudaSetDevice(d), "cudaSetDevice");
      check(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking), "cudaStreamCreate");
    }
  }
};

void print(const char *loop, long size, int reps, double copies, double resident, double checksum) {
  std::printf("%s size=%ld reps=%d copies_s=%.6f resident_s=%.6f checksum=%.9g\n", loop, size, reps, copies,
              resident, checksum);
}

int run_saxpy(const gpus_state &g, long n, int reps) {
  std::vector<float> x(n), y(n);
  for (long k = 0; k < n; ++k) {
    x[k] = 1.0f + float(k % 17);
    y[k] = 0.5f * float(k % 5);
  }
  const float a = 0.5f;
  std::vector<float *> dx(g.count), dy(g.count);
  for (int d = 0; d < g.count; ++d) {
    const share s = share_of(n, g.count, d);
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaMalloc(&dx[d], (s.hi - s.lo) * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&dy[d], (s.hi - s.lo) * sizeof(float)), "cudaMalloc");
  }
  auto with_copies = [&] {
    for (int d = 0; d < g.count; ++d) {
      const share s = share_of(n, g.count, d);
      const long m = s.hi - s.lo;
      check(cudaSetDevice(d), "cudaSetDevice");
      check(cudaMemcpyAsync(dx[d], &x[s.lo], m * sizeof(float), cudaMemcpyHostToDevice, g.streams[d]), "H2D");
      check(cudaMemcpyAsync(dy[d], &y[s.lo], m * sizeof(float), cudaMemcpyHostToDevice, g.streams[d]), "H2D");
      saxpy_kernel<<<blocks_for(m), kBlock, 0, g.streams[d]>>>(dy[d], dx[d], a, m);
      check(cudaMemcpyAsync(&y[s.lo], dy[d], m * sizeof(float), cudaMemcpyDeviceToHost, g.streams[d]), "D2H");
    }
    sync_all(g.count, g.streams);
  };
  with_copies(); // warm-up
  auto t0 = clock_type::now();
  with_copies();
  const double copies = since(t0);
  with_copies(); // as loops.cpp's first loop in its region
  t0 = clock_type::now();
  for (int r = 0; r < reps; ++r)
    for (int d = 0; d < g.count; ++d) {
      const share s = share_of(n, g.count, d);
      check(cudaSetDevice(d), "cudaSetDevice");
      saxpy_kernel<<<blocks_for(s.hi - s.lo), kBlock, 0, g.streams[d]>>>(dy[d], dx[d], a, s.hi - s.lo);
    }
  sync_all(g.count, g.streams);
  const double resident = since(t0) / reps;
  for (int d = 0; d < g.count; ++d) {
    const share s = share_of(n, g.count, d);
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaMemcpy(&y[s.lo], dy[d], (s.hi - s.lo) * sizeof(float), cudaMemcpyDeviceToHost), "D2H");
    cudaFree(dx[d]);
    cudaFree(dy[d]);
  }
  double sum = 0;
  for (long k = 0; k < n; ++k)
    sum += y[k];
  print("saxpy", n, reps, copies, resident, sum);
  return 0;
}

// Each GPU holds its share of the interior rows plus one row above and below
// (a halo, or the grid's edge row), for both grids.
int run_jacobi(const gpus_state &g, int n, int reps) {
  const long total = long(n) * n;
  std::vector<double> a(total), b(total);
  for (long k = 0; k < total; ++k)
    a[k] = b[k] = double(k % 1000) / 7.0;
  const long interior = n - 2;
  std::vector<double *> da(g.count), db(g.count);
  std::vector<share> rows(g.count); // interior rows owned, as grid rows
  for (int d = 0; d < g.count; ++d) {
    const share s = share_of(interior, g.count, d);
    rows[d] = {1 + s.lo, 1 + s.hi};
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaMalloc(&da[d], (s.hi - s.lo + 2) * n * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&db[d], (s.hi - s.lo + 2) * n * sizeof(double)), "cudaMalloc");
  }
  auto block_rows = [&](int d) { return rows[d].hi - rows[d].lo + 2; };
  auto launch_sweep = [&](int d) {
    const long cells = (block_rows(d) - 2) * (n - 2);
    stencil_kernel<<<blocks_for(cells), kBlock, 0, g.streams[d]>>>(db[d], da[d], block_rows(d), n);
    copy_kernel<<<blocks_for(cells), kBlock, 0, g.streams[d]>>>(da[d], db[d], block_rows(d), n);
  };
  auto with_copies = [&] {
    for (int d = 0; d < g.count; ++d) {
      const long first = rows[d].lo - 1, bytes = block_rows(d) * n * sizeof(double);
      check(cudaSetDevice(d), "cudaSetDevice");
      check(cudaMemcpyAsync(da[d], &a[first * n], bytes, cudaMemcpyHostToDevice, g.streams[d]), "H2D");
      check(cudaMemcpyAsync(db[d], &b[first * n], bytes, cudaMemcpyHostToDevice, g.streams[d]), "H2D");
      launch_sweep(d);
      const long own = (rows[d].hi - rows[d].lo) * n * sizeof(double);
      check(cudaMemcpyAsync(&a[rows[d].lo * n], da[d] + n, own, cudaMemcpyDeviceToHost, g.streams[d]), "D2H");
      check(cudaMemcpyAsync(&b[rows[d].lo * n], db[d] + n, own, cudaMemcpyDeviceToHost, g.streams[d]), "D2H");
    }
    sync_all(g.count, g.streams);
  };
  // One resident sweep: neighbours first swap the rows next to their
  // boundary (each GPU's halos become its neighbours' newest rows), then
  // every GPU sweeps its own rows.
  auto resident_sweep = [&] {
    for (int d = 0; d + 1 < g.count; ++d) {
      const long last = block_rows(d) - 2; // d's last owned row, in its block
      check(cudaSetDevice(d), "cudaSetDevice");
      check(cudaMemcpyPeerAsync(da[d + 1], d + 1, da[d] + last * n, d, n * sizeof(double), g.streams[d]), "peer");
      check(cudaMemcpyPeerAsync(da[d] + (last + 1) * n, d, da[d + 1] + n, d + 1, n * sizeof(double), g.streams[d]),
            "peer");
    }
    sync_all(g.count, g.streams);
    for (int d = 0; d < g.count; ++d) {
      check(cudaSetDevice(d), "cudaSetDevice");
      launch_sweep(d);
    }
    sync_all(g.count, g.streams);
  };
  with_copies(); // warm-up
  auto t0 = clock_type::now();
  with_copies();
  const double copies = since(t0);
  with_copies(); // as loops.cpp's first loop in its region
  t0 = clock_type::now();
  for (int r = 0; r < reps; ++r)
    resident_sweep();
  const double resident = since(t0) / reps;
  for (int d = 0; d < g.count; ++d) {
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaMemcpy(&a[rows[d].lo * n], da[d] + n, (rows[d].hi - rows[d].lo) * n * sizeof(double),
                     cudaMemcpyDeviceToHost),
          "D2H");
    cudaFree(da[d]);
    cudaFree(db[d]);
  }
  double sum = 0;
  for (long k = 0; k < total; k += 97)
    sum += a[k];
  print("jacobi", n, reps, copies, resident, sum);
  return 0;
}

int run_dot(const gpus_state &g, long n, int reps) {
  std::vector<float> x(n), y(n);
  for (long k = 0; k < n; ++k) {
    x[k] = float(k % 13) - 6.0f;
    y[k] = 0.25f * float(k % 7);
  }
  std::vector<float *> dx(g.count), dy(g.count);
  std::vector<double *> dsum(g.count);
  std::vector<double> part(g.count);
  for (int d = 0; d < g.count; ++d) {
    const share s = share_of(n, g.count, d);
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaMalloc(&dx[d], (s.hi - s.lo) * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&dy[d], (s.hi - s.lo) * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&dsum[d], sizeof(double)), "cudaMalloc");
  }
  auto reduce = [&] {
    for (int d = 0; d < g.count; ++d) {
      const share s = share_of(n, g.count, d);
      check(cudaSetDevice(d), "cudaSetDevice");
      check(cudaMemsetAsync(dsum[d], 0, sizeof(double), g.streams[d]), "cudaMemset");
      dot_kernel<<<blocks_for(s.hi - s.lo), kBlock, 0, g.streams[d]>>>(dx[d], dy[d], s.hi - s.lo, dsum[d]);
      check(cudaMemcpyAsync(&part[d], dsum[d], sizeof(double), cudaMemcpyDeviceToHost, g.streams[d]), "D2H");
    }
    sync_all(g.count, g.streams);
    double sum = 0;
    for (double p : part)
      sum += p;
    return sum;
  };
  auto with_copies = [&] {
    for (int d = 0; d < g.count; ++d) {
      const share s = share_of(n, g.count, d);
      check(cudaSetDevice(d), "cudaSetDevice");
      check(cudaMemcpyAsync(dx[d], &x[s.lo], (s.hi - s.lo) * sizeof(float), cudaMemcpyHostToDevice, g.streams[d]),
            "H2D");
      check(cudaMemcpyAsync(dy[d], &y[s.lo], (s.hi - s.lo) * sizeof(float), cudaMemcpyHostToDevice, g.streams[d]),
            "H2D");
    }
    return reduce();
  };
  with_copies(); // warm-up
  auto t0 = clock_type::now();
  double got = with_copies();
  const double copies = since(t0);
  t0 = clock_type::now();
  for (int r = 0; r < reps; ++r)
    got = reduce();
  const double resident = since(t0) / reps;
  for (int d = 0; d < g.count; ++d) {
    check(cudaSetDevice(d), "cudaSetDevice");
    cudaFree(dx[d]);
    cudaFree(dy[d]);
    cudaFree(dsum[d]);
  }
  print("dot", n, reps, copies, resident, got);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && !std::strcmp(argv[1], "count")) {
    std::printf("%d\n", gpu_count());
    return 0;
  }
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: %s count | saxpy|jacobi|dot [SIZE] [REPS]\n", argv[0]);
    return 2;
  }
  const char *loop = argv[1];
  const long size = argc > 2 ? std::atol(argv[2]) : 0;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 20;
  const int gpus = gpu_count();
  if (gpus == 0) {
    std::fprintf(stderr, "%s: no GPU visible to the CUDA runtime\n", argv[0]);
    return 1;
  }
  if (size < 0 || reps < 1) {
    std::fprintf(stderr, "%s: SIZE must be positive and REPS at least 1\n", argv[0]);
    return 2;
  }
  gpus_state g(gpus);
  if (!std::strcmp(loop, "saxpy"))
    return run_saxpy(g, size ? size : 1L << 28, reps);
  if (!std::strcmp(loop, "jacobi"))
    return run_jacobi(g, size ? int(size) : 4096, reps);
  if (!std::strcmp(loop, "dot"))
    return run_dot(g, size ? size : 1L << 28, reps);
  std::fprintf(stderr, "%s: unknown loop '%s' (saxpy, jacobi or dot)\n", argv[0], loop);
  return 2;
}
