// OpenACC 'kernels loop' and 'auto' end to end: a loop the tool cannot prove
// independent runs sequentially (before, 'kernels loop' over a[i + k] = a[i]
// ran in parallel and most of the 4096 values were wrong on sim:3), also
// inside a data region, whose devices hold the newest values; a loop it
// proves runs on the devices. Rewritten with --accept=acc, the program must
// print what the serial program prints on every device setting.
// RUN: %e2e --out %t --accept acc %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=REWRITE --input-file %t/e2e-acc-kernels.par.cpp
// --convert keeps the directives of the sequential loops (gpu_autopar's would promise independence):
// RUN: %gpu-autopar --accept=acc --convert --no-remarks %s -o %t.converted.cpp -- -std=c++17
// RUN: FileCheck %s --check-prefix=CONVERT --input-file %t.converted.cpp
#include <cstdio>
#include <vector>

static double checksum(const std::vector<double> &v) {
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i)
    s += v[i] * (i % 7 + 1);
  return s;
}

// k is 1 at run time: iteration i reads what iteration i - 1 wrote.
static void shift_add(std::vector<double> &a, int n, int k) {
#pragma acc kernels loop
  for (int i = 0; i < n - k; ++i)
    a[i + k] = a[i] * 0.5 + 1;
}

// idx sends each iteration's write to the element the next one reads.
static void scatter(double *b, const int *idx, int n) {
#pragma acc parallel loop auto copy(b[0:n])
  for (int i = 0; i < n; ++i)
    b[idx[i]] = b[i] * 0.25 + i;
}

// Proven independent: parallel.
static void scale(std::vector<double> &a, int n) {
#pragma acc kernels loop
  for (int i = 0; i < n; ++i)
    a[i] = a[i] * 1.5 - 2;
}

int main() {
  const int n = 4096;
  std::vector<double> a(n), b(n), c(n);
  std::vector<int> idx(n);
  for (int i = 0; i < n; ++i) {
    a[i] = i % 13;
    b[i] = i % 5;
    c[i] = i % 11;
    idx[i] = (i + 1) % n;
  }
  shift_add(a, n, 1);
  std::printf("shift_add %.6f\n", checksum(a));
  scatter(b.data(), idx.data(), n);
  std::printf("scatter %.6f\n", checksum(b));
  scale(a, n);
  std::printf("scale %.6f\n", checksum(a));
  // In a data region: the first loop's results stay on the devices; the
  // sequential loop must start from them, and the last loop from its results.
  double *cp = c.data();
#pragma acc data copy(cp[0:n])
  {
#pragma acc kernels loop
    for (int i = 0; i < n; ++i)
      cp[i] = cp[i] + i;
#pragma acc kernels loop
    for (int i = 1; i < n; ++i)
      cp[i] = cp[i - 1] * 0.5 + cp[i];
#pragma acc kernels loop
    for (int i = 0; i < n; ++i)
      cp[i] = cp[i] * 2;
  }
  std::printf("region %.6f\n", checksum(c));
}
// CHECK: sim:3: e2e-acc-kernels.cpp:24 mode=kernel backend=cpu iterations=4095 devices=1 serial=OpenACC 'kernels loop' whose iterations are not proven independent
// CHECK: sim:3: e2e-acc-kernels.cpp:31 mode=kernel backend=cpu iterations=4096 devices=1 serial=OpenACC 'auto' whose iterations are not proven independent
// CHECK: sim:3: e2e-acc-kernels.cpp:38 mode=kernel backend=sim iterations=4096 devices=3{{$}}
// CHECK: sim:3: e2e-acc-kernels.cpp:64 mode=kernel backend=sim iterations=4096 devices=3{{$}}
// CHECK: sim:3: e2e-acc-kernels.cpp:67 mode=kernel backend=cpu iterations=4095 devices=1 serial=OpenACC 'kernels loop' whose iterations are not proven independent
// CHECK: sim:3: e2e-acc-kernels.cpp:70 mode=kernel backend=sim iterations=4096 devices=3{{$}}

// REWRITE: ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"e2e-acc-kernels.cpp", 24},
// REWRITE-NEXT: ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n - k), 1), ::gpu_autopar::options().run_serially("OpenACC 'kernels loop' whose iterations are not proven independent"),
// REWRITE: ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"e2e-acc-kernels.cpp", 31},
// REWRITE-NEXT: {{.*}}::gpu_autopar::options().run_serially("OpenACC 'auto' whose iterations are not proven independent"),
// REWRITE: ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"e2e-acc-kernels.cpp", 38},
// REWRITE-NEXT: ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), ::gpu_autopar::options(),

// CONVERT: static void shift_add(
// CONVERT-NEXT: #pragma acc kernels loop{{$}}
// CONVERT: static void scatter(
// CONVERT-NEXT: #pragma acc parallel loop auto copy(b[0:n]){{$}}
// CONVERT: static void scale(
// CONVERT-NEXT: #pragma gpu_autopar for{{$}}
// CONVERT: #pragma gpu_autopar data map(tofrom: cp[0:n])
// CONVERT-NEXT: {
// CONVERT-NEXT: #pragma gpu_autopar for{{$}}
// CONVERT: #pragma acc kernels loop{{$}}
// CONVERT: #pragma gpu_autopar for{{$}}
