// The runtime's CUDA path against the stand-in (README.md): task-mode bodies
// that mix their own CUDA calls with launches on the lease's stream, and
// kernel-mode loops under injected out-of-memory and faults. Written as the
// tool rewrites loops (docs/generated-code.md), so it needs no rewrite step.
// One scenario per command-line argument; cuda_path_check.py runs them.
#include <gpu_autopar/gpu_autopar.h>
#include <gpu_autopar_standin/hook.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace ga = gpu_autopar;

namespace {

__host__ __device__ void add_one_thread(unsigned long long t, unsigned long long threads, int* p, int n) {
  for (unsigned long long i = t; i < (unsigned long long)n; i += threads)
    p[i] += 1;
}
__global__ void add_one(int* p, int n) {
  add_one_thread(blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x, p, n);
}
const bool twin = ga::register_standin_twin<&add_one_thread>(&add_one);

const int kItems = 8, kLength = 4096;

// A library-style helper the body calls: its launch is not rewritten and
// goes to the default stream.
void add_one_on_default_stream(int* p, int n) { add_one<<<(n + 255) / 256, 256>>>(p, n); }

// cudaMemcpy in, a launch the tool moved onto the lease's stream (and, with
// `callee`, one in a called function on the default stream), cudaMemcpy out.
int task_mode(bool callee) {
  std::vector<std::vector<int>> data(kItems, std::vector<int>(kLength));
  for (int c = 0; c < kItems; ++c)
    for (int i = 0; i < kLength; ++i)
      data[c][i] = c * kLength + i;
  ga::task_loop(ga::loop_site{"cuda_path.cu", 1}, ga::iterations<int>(0, ga::less, kItems, 1), ga::options(),
                ga::reductions(), [&](int c) {
                  int* p = nullptr;
                  cudaMalloc(&p, kLength * sizeof(int));
                  cudaMemcpy(p, data[c].data(), kLength * sizeof(int), cudaMemcpyHostToDevice);
                  add_one<<<(kLength + 255) / 256, 256, 0, ::gpu_autopar::cuda_stream()>>>(p, kLength);
                  if (callee)
                    add_one_on_default_stream(p, kLength);
                  cudaMemcpy(data[c].data(), p, kLength * sizeof(int), cudaMemcpyDeviceToHost);
                  cudaFree(p);
                });
  long long wrong = 0;
  for (int c = 0; c < kItems; ++c)
    for (int i = 0; i < kLength; ++i)
      wrong += data[c][i] != c * kLength + i + (callee ? 2 : 1);
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// A kernel loop nested in a task body that made another GPU current (as a
// library call might): it must run on the lease's GPU, made current for it,
// and hand the body back its own current device.
int task_nested() {
  const int n = 1 << 12;
  std::vector<std::vector<double>> data(kItems, std::vector<double>(n));
  for (int c = 0; c < kItems; ++c)
    for (int i = 0; i < n; ++i)
      data[c][i] = c + i;
  int devices = 0;
  cudaGetDeviceCount(&devices);
  std::vector<int> restored(kItems, 0);
  ga::task_loop(ga::loop_site{"cuda_path.cu", 4}, ga::iterations<int>(0, ga::less, kItems, 1), ga::options(),
                ga::reductions(), [&](int c) {
                  int lease = 0, after = -1;
                  cudaGetDevice(&lease);
                  const int other = (lease + 1) % devices;
                  cudaSetDevice(other);
                  std::vector<double>& v = data[c];
                  ga::kernel_loop(ga::loop_site{"cuda_path.cu", 5}, ga::iterations<int>(0, ga::less, n, 1),
                                  ga::options(), ga::data(ga::tofrom(v, ga::affine(1, 0, 1))), ga::reductions(),
                                  [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(v)> v) { v[i] = 3 * v[i]; });
                  cudaGetDevice(&after);
                  restored[c] = after == other;
                });
  long long wrong = 0, kept = 0;
  for (int c = 0; c < kItems; ++c) {
    kept += restored[c];
    for (int i = 0; i < n; ++i)
      wrong += data[c][i] != 3.0 * (c + i);
  }
  std::printf("wrong=%lld restored=%lld/%d\n", wrong, kept, kItems);
  return 0;
}

// y = 2*x + y over n elements and the sum of the new y, twice (two loops):
// every result is checked against the serial loop.
int kernel_mode() {
  const int n = 1 << 16;
  std::vector<double> x(n), y(n), serial(n);
  for (int i = 0; i < n; ++i) {
    x[i] = i % 97;
    y[i] = serial[i] = i % 13;
  }
  // A loop that cannot go on (a GPU lost while a chunk's results landed in
  // y) throws loop_error: its message is the program's output.
  try {
  for (int round = 0; round < 2; ++round) {
    double sum = 0, serial_sum = 0;
    for (int i = 0; i < n; ++i) {
      serial[i] = 2 * x[i] + serial[i];
      serial_sum += serial[i];
    }
    ga::kernel_loop(ga::loop_site{"cuda_path.cu", unsigned(2 + round)}, ga::iterations<int>(0, ga::less, n, 1),
                    ga::options().schedule(ga::schedule_kind::dynamic, 4096),
                    ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::tofrom(y, ga::affine(1, 0, 1))),
                    ga::reductions(ga::reduce<ga::op::plus>(sum)),
                    [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(x)> x, ga::view<decltype(y)> y, double& sum) {
                      y[i] = 2 * x[i] + y[i];
                      sum += y[i];
                    });
    long long wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += y[i] != serial[i];
    std::printf("round %d: wrong=%lld sum=%s\n", round, wrong, sum == serial_sum ? "serial" : "different");
  }
  } catch (const ga::loop_error& e) {
    std::printf("%s\n", e.what());
  }
  return 0;
}

// y = a*x + y, `loops` times over 2^16 floats in chunks of 4096, without a
// reduction: the data path of a plain loop. Inside a data region (`region`)
// x and y stay on the GPUs; outside it every chunk copies its sections in
// and out. Every loop's result is checked against the serial loop.
int saxpy(bool region, int loops) {
  const int n = 1 << 16;
  std::vector<float> x(n), y(n), serial(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 97);
    y[i] = serial[i] = float(i % 13);
  }
  long long wrong = 0;
  auto run = [&] {
    for (int loop = 0; loop < loops; ++loop) {
      const float a = float(loop + 2);
      for (int i = 0; i < n; ++i)
        serial[i] = a * x[i] + serial[i];
      ga::kernel_loop(ga::loop_site{"cuda_path.cu", unsigned(10 + loop)}, ga::iterations<int>(0, ga::less, n, 1),
                      ga::options().schedule(ga::schedule_kind::static_, 4096),
                      ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::tofrom(y, ga::affine(1, 0, 1))),
                      ga::reductions(),
                      [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(x)> x, ga::view<decltype(y)> y) {
                        y[i] = a * x[i] + y[i];
                      });
    }
  };
  if (region) {
    ga::data_region r(ga::loop_site{"cuda_path.cu", 9},
                      {ga::section(ga::map_kind::to, x), ga::section(ga::map_kind::tofrom, y)});
    run();
  } else {
    run();
  }
  for (int i = 0; i < n; ++i)
    wrong += y[i] != serial[i];
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// Two threads run saxpy loops at once over one array x, each into its own
// y: the registration of x is shared, and neither thread's loops unpin it
// while the other's copies read it. Both results are checked against serial.
int two_threads(int loops) {
  const int n = 1 << 16;
  std::vector<float> x(n);
  std::vector<std::vector<float>> y(2, std::vector<float>(n)), serial(2, std::vector<float>(n));
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 97);
    y[0][i] = y[1][i] = serial[0][i] = serial[1][i] = float(i % 13);
  }
  auto work = [&](int t) {
    std::vector<float>& yt = y[t];
    for (int loop = 0; loop < loops; ++loop) {
      const float a = float(loop + t + 2);
      for (int i = 0; i < n; ++i)
        serial[t][i] = a * x[i] + serial[t][i];
      ga::kernel_loop(ga::loop_site{"cuda_path.cu", unsigned(30 + 10 * t + loop)},
                      ga::iterations<int>(0, ga::less, n, 1), ga::options().schedule(ga::schedule_kind::static_, 4096),
                      ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::tofrom(yt, ga::affine(1, 0, 1))), ga::reductions(),
                      [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(x)> x, ga::view<std::vector<float>> y) {
                        y[i] = a * x[i] + y[i];
                      });
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  long long wrong = 0;
  for (int t = 0; t < 2; ++t)
    for (int i = 0; i < n; ++i)
      wrong += y[t][i] != serial[t][i];
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// y[p[i]] += x[i] over a permutation: chunks' sections of y overlap (the
// whole array), so each chunk copies y in as a snapshot and writes back only
// what changed (compare and copy back), through staging. Checked against serial.
int scatter() {
  const int n = 1 << 15;
  std::vector<double> x(n), y(n), serial(n);
  std::vector<int> p(n);
  for (int i = 0; i < n; ++i) {
    x[i] = i % 31;
    y[i] = serial[i] = i % 7;
    p[i] = int((i * 7919LL) % n); // 7919 is prime, so coprime with n: a permutation
  }
  for (int i = 0; i < n; ++i)
    serial[p[i]] += x[i];
  ga::kernel_loop(ga::loop_site{"cuda_path.cu", 50}, ga::iterations<int>(0, ga::less, n, 1),
                  ga::options().schedule(ga::schedule_kind::dynamic, 4096),
                  ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::to(p, ga::affine(1, 0, 1)), ga::tofrom(y, ga::whole())),
                  ga::reductions(),
                  [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(x)> x, ga::view<decltype(p)> p, ga::view<decltype(y)> y) {
                    y[p[i]] += x[i];
                  });
  long long wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += y[i] != serial[i];
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// An XSBench-style lookup: every iteration reads anywhere in a large table
// (a `to` map of the whole table) and writes its own element; the loop runs
// in many small chunks per GPU. Checked against serial.
int lookup() {
  const int entries = 1 << 16, n = 1 << 16;
  std::vector<double> table(entries), out(n), serial(n);
  std::vector<int> key(n);
  for (int e = 0; e < entries; ++e)
    table[e] = e % 1009;
  for (int i = 0; i < n; ++i) {
    key[i] = int((i * 40503LL) % entries);
    serial[i] = table[key[i]] + table[(key[i] + 7) % entries];
  }
  for (int loop = 0; loop < 2; ++loop)
    ga::kernel_loop(ga::loop_site{"cuda_path.cu", unsigned(60 + loop)}, ga::iterations<int>(0, ga::less, n, 1),
                    ga::options().schedule(ga::schedule_kind::dynamic, 2048),
                    ga::data(ga::to(table, ga::whole()), ga::to(key, ga::affine(1, 0, 1)),
                             ga::from(out, ga::affine(1, 0, 1))),
                    ga::reductions(),
                    [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(table)> table, ga::view<decltype(key)> key,
                                       ga::view<decltype(out)> out) {
                      out[i] = table[key[i]] + table[(key[i] + 7) % entries];
                    });
  long long wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != serial[i];
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// Jacobi-style sweeps over the rows of two grids inside a data region: each
// GPU keeps its rows, and what it reads of its neighbours' rows (halo rows)
// comes from the neighbour, directly where the GPUs can copy between them.
// Checked against the serial sweeps.
int stencil_region() {
  const int rows = 257, m = 128, sweeps = 4;
  std::vector<double> a(rows * m), b(rows * m);
  for (int k = 0; k < rows * m; ++k)
    a[k] = b[k] = double(k % 101);
  std::vector<double> ra = a, rb = b;
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 1; i < rows - 1; ++i)
      for (int j = 0; j < m; ++j)
        rb[i * m + j] = (ra[(i - 1) * m + j] + ra[i * m + j] + ra[(i + 1) * m + j]) / 3.0;
    std::swap(ra, rb);
  }
  {
    ga::data_region r(ga::loop_site{"cuda_path.cu", 20},
                      {ga::section(ga::map_kind::tofrom, a), ga::section(ga::map_kind::tofrom, b)});
    for (int s = 0; s < sweeps; ++s) {
      ga::kernel_loop(ga::loop_site{"cuda_path.cu", unsigned(21 + s)}, ga::iterations<int>(1, ga::less, rows - 1, 1),
                      ga::options().schedule(ga::schedule_kind::static_, 32),
                      ga::data(ga::from(b, ga::affine(m, 0, m)), ga::to(a, ga::affine(m, -m, 3 * m))),
                      ga::reductions(),
                      [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(b)> b, ga::view<decltype(a)> a) {
                        for (int j = 0; j < m; ++j)
                          b[i * m + j] = (a[(i - 1) * m + j] + a[i * m + j] + a[(i + 1) * m + j]) / 3.0;
                      });
      std::swap(a, b); // the vectors swap buffers: both stay mapped
    }
  }
  long long wrong = 0;
  for (int k = 0; k < rows * m; ++k)
    wrong += (a[k] != ra[k]) + (b[k] != rb[k]);
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// Three saxpy loops in a data region on 2 GPUs, one chunk per GPU and loop
// (the region's affinity schedule), while GPU_AUTOPAR_STANDIN_FAULT_LAUNCH=1@K
// makes GPU 1's K-th launch fault: its context is lost. The loops go on on
// GPU 0 from the newest copies left; where those were on GPU 1 only (y after
// loop 1, without `update host`), the loop throws loop_error naming them,
// printed here. `update`: `update host(y)` after each loop, so nothing is lost.
int region_fault(bool update) {
  const int n = 1 << 16;
  std::vector<float> x(n), y(n), serial(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 97);
    y[i] = serial[i] = float(i % 13);
  }
  try {
    ga::data_region r(ga::loop_site{"cuda_path.cu", 70},
                      {ga::section(ga::map_kind::to, x, "x"), ga::section(ga::map_kind::tofrom, y, "y")});
    for (int loop = 0; loop < 3; ++loop) {
      const float a = float(loop + 2);
      for (int i = 0; i < n; ++i)
        serial[i] = a * x[i] + serial[i];
      ga::kernel_loop(ga::loop_site{"cuda_path.cu", unsigned(71 + loop)}, ga::iterations<int>(0, ga::less, n, 1),
                      ga::options(), ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::tofrom(y, ga::affine(1, 0, 1))),
                      ga::reductions(), [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(x)> x, ga::view<decltype(y)> y) {
                        y[i] = a * x[i] + y[i];
                      });
      if (update)
        ga::update_host(y);
    }
  } catch (const ga::loop_error& e) {
    std::printf("%s\n", e.what());
    return 0;
  }
  long long wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += y[i] != serial[i];
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// Two kernel loops over memory the program allocated itself on GPU 1: y
// (cudaMalloc, or cudaMallocManaged with `managed`) is used in place, never
// copied between host and device; x is copied in. Device memory runs on its
// own GPU only; managed memory on every GPU. Checked against serial (the
// program reads y back itself). Where GPU 1 is not among the runtime's
// devices (GPU_AUTOPAR_DEVICES=cuda:0), the loop says why it cannot run.
int device_pointer(bool managed) {
  const int n = 1 << 16;
  std::vector<float> x(n), serial(n, 0.0f), back(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i % 97);
  float* y = nullptr;
  cudaSetDevice(1);
  if (managed)
    cudaMallocManaged(&y, n * sizeof(float));
  else
    cudaMalloc(&y, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  cudaDeviceSynchronize();
  cudaSetDevice(0);
  try {
    for (int loop = 0; loop < 2; ++loop) {
      const float a = float(loop + 2);
      for (int i = 0; i < n; ++i)
        serial[i] = a * x[i] + serial[i];
      ga::kernel_loop(ga::loop_site{"cuda_path.cu", unsigned(80 + loop)}, ga::iterations<int>(0, ga::less, n, 1),
                      ga::options(),
                      ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::tofrom(y, 0, n, ga::affine(1, 0, 1), "y[0:n]")),
                      ga::reductions(), [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(x)> x, ga::view<float*> y) {
                        y[i] = a * x[i] + y[i];
                      });
    }
  } catch (const ga::loop_error& e) {
    std::printf("%s\n", e.what());
    cudaFree(y);
    return 0;
  }
  cudaSetDevice(1);
  cudaHostRegister(back.data(), n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpy(back.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaHostUnregister(back.data());
  cudaFree(y);
  long long wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += back[i] != serial[i];
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// A collapse(2) Jacobi in a data region, as the tool rewrites bench/gpu's
// (each sweep: b from a's four neighbours, then a = b), on n x n grids. The
// nest is split on whole rows, so each GPU keeps its rows of both grids and
// only halo rows move between GPUs; the check counts the bytes, and what each
// GPU allocates (its part of the grids, issue 23 item 4). Checked against
// the serial sweeps. `update`: `update host` of both grids after each sweep,
// so that a GPU lost in a sweep loses nothing (its rows are otherwise lost,
// and named).
int jacobi_collapse(int n, int sweeps, bool update) {
  std::vector<double> ga(std::size_t(n) * n), gb(std::size_t(n) * n);
  for (std::size_t k = 0; k < ga.size(); ++k)
    ga[k] = gb[k] = double(k % 101);
  std::vector<double> ra = ga, rb = gb;
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        rb[i * n + j] = 0.25 * (ra[(i - 1) * n + j] + ra[(i + 1) * n + j] + ra[i * n + j - 1] + ra[i * n + j + 1]);
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        ra[i * n + j] = rb[i * n + j];
  }
  double* a = ga.data();
  double* b = gb.data();
  try {
    ga::data_region r(ga::loop_site{"cuda_path.cu", 90},
                      {ga::section(ga::map_kind::tofrom, a, 0, n * n, "a[0:n*n]"),
                       ga::section(ga::map_kind::tofrom, b, 0, n * n, "b[0:n*n]")});
    for (int s = 0; s < sweeps; ++s) {
      ga::kernel_loop(ga::loop_site{"cuda_path.cu", 91},
                      ga::collapse(ga::iterations<int>(1, ga::less, n - 1, 1), ga::iterations<int>(1, ga::less, n - 1, 1)),
                      ga::options(),
                      ga::data(ga::tofrom(b, 0, n * n, ga::affine(n, 1, n - 2), "b[0:n*n]"),
                               ga::to(a, 0, n * n,
                                      ga::hull(ga::affine(n, -n + 1, n - 2), ga::affine(n, n + 1, n - 2), ga::affine(n, 0, n)),
                                      "a[0:n*n]")),
                      ga::reductions(),
                      [=] GPU_AUTOPAR_HD(int i, int j, ga::view<decltype(b)> b, ga::read_view<decltype(a)> a) {
                        b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
                      });
      ga::kernel_loop(ga::loop_site{"cuda_path.cu", 92},
                      ga::collapse(ga::iterations<int>(1, ga::less, n - 1, 1), ga::iterations<int>(1, ga::less, n - 1, 1)),
                      ga::options(),
                      ga::data(ga::tofrom(a, 0, n * n, ga::affine(n, 1, n - 2), "a[0:n*n]"),
                               ga::to(b, 0, n * n, ga::affine(n, 1, n - 2), "b[0:n*n]")),
                      ga::reductions(),
                      [=] GPU_AUTOPAR_HD(int i, int j, ga::view<decltype(a)> a, ga::read_view<decltype(b)> b) {
                        a[i * n + j] = b[i * n + j];
                      });
      if (update) {
        ga::update_host(ga::section(ga::map_kind::tofrom, a, 0, n * n, "a[0:n*n]"));
        ga::update_host(ga::section(ga::map_kind::tofrom, b, 0, n * n, "b[0:n*n]"));
      }
    }
  } catch (const ga::loop_error& e) {
    std::printf("%s\n", e.what());
    return 0;
  }
  long long wrong = 0;
  for (std::size_t k = 0; k < ga.size(); ++k)
    wrong += (ga[k] != ra[k]) + (gb[k] != rb[k]);
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

// Data entered and never exited (left so by the program, or by an exception
// past its `exit data`) stays on the GPUs until the program ends: their copies
// are freed at exit (no `leak` in the stand-in's log).
int entered_never_exited() {
  const int n = 1 << 14;
  std::vector<float> x(n), y(n), serial(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 97);
    y[i] = float(i % 13);
    serial[i] = 2.0f * x[i] + y[i];
  }
  ga::enter_data(ga::loop_site{"cuda_path.cu", 90},
                 {ga::section(ga::map_kind::to, x, "x"), ga::section(ga::map_kind::to, y, "y")});
  ga::kernel_loop(ga::loop_site{"cuda_path.cu", 91}, ga::iterations<int>(0, ga::less, n, 1), ga::options(),
                  ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::tofrom(y, ga::affine(1, 0, 1))), ga::reductions(),
                  [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(x)> x, ga::view<decltype(y)> y) {
                    y[i] = 2.0f * x[i] + y[i];
                  });
  ga::update_host(y);
  long long wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += y[i] != serial[i];
  std::printf("wrong=%lld\n", wrong);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  const std::string s = argc > 1 ? argv[1] : "";
  if (s == "task-memcpy")
    return task_mode(false);
  if (s == "task-callee")
    return task_mode(true);
  if (s == "task-nested")
    return task_nested();
  if (s == "kernel")
    return kernel_mode();
  if (s == "saxpy")
    return saxpy(false, 3);
  if (s == "saxpy-10")
    return saxpy(false, 10);
  if (s == "two-threads")
    return two_threads(5);
  if (s == "scatter")
    return scatter();
  if (s == "lookup")
    return lookup();
  if (s == "saxpy-region")
    return saxpy(true, 3);
  if (s == "stencil-region")
    return stencil_region();
  if (s == "region-fault")
    return region_fault(false);
  if (s == "region-fault-updated")
    return region_fault(true);
  if (s == "jacobi-collapse") // [n sweeps]
    return jacobi_collapse(argc > 2 ? std::atoi(argv[2]) : 256, argc > 3 ? std::atoi(argv[3]) : 4, false);
  if (s == "jacobi-collapse-updated")
    return jacobi_collapse(256, 4, true);
  if (s == "jacobi-collapse-twice") // the same region entered again: its GPUs' parts reused, not allocated again
    return jacobi_collapse(256, 4, false) + jacobi_collapse(256, 4, false);
  if (s == "entered-never-exited")
    return entered_never_exited();
  if (s == "device-pointer")
    return device_pointer(false);
  if (s == "managed-pointer")
    return device_pointer(true);
  std::fprintf(stderr, "usage: cuda_path task-memcpy|task-callee|task-nested|kernel|saxpy|saxpy-10|two-threads|scatter|"
                       "lookup|saxpy-region|stencil-region|region-fault|region-fault-updated|device-pointer|managed-pointer|"
                       "jacobi-collapse [n sweeps]|jacobi-collapse-updated|jacobi-collapse-twice|entered-never-exited\n");
  return 2;
}
