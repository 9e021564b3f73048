// Preprocessor lines between a directive and its loop (issue 28, item 2):
// BabelStream's and miniBUDE's "target or host" idiom, our own pragma under
// #ifdef, and a #define before the loop. The active branch's directive
// annotates the loop; the inactive one, and every preprocessor line, stays as
// written, so each output builds with the macros defined and without, and
// prints what the serial program prints (on sim:3).
// RUN: rm -rf %t && mkdir -p %t
// The tool run as the host build runs (TARGET undefined):
// RUN: %gpu-autopar --accept=omp,acc %s -o %t/host.cpp -- -std=c++17 2> %t/host.err
// RUN: FileCheck %s --check-prefix=DIAG --input-file %t/host.err --allow-empty --implicit-check-not=error: --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=HOST --input-file %t/host.cpp
// ... and as the target build runs:
// RUN: %gpu-autopar --accept=omp,acc %s -o %t/target.cpp -- -std=c++17 -DTARGET -DUSE_GPU_AUTOPAR 2> %t/target.err
// RUN: FileCheck %s --check-prefix=DIAG --input-file %t/target.err --allow-empty --implicit-check-not=error: --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=TARGET --input-file %t/target.cpp
// RUN: %cxx -Wno-unknown-pragmas %s -o %t/serial
// RUN: %t/serial > %t/serial.out
// RUN: %cxx -Wno-unknown-pragmas %t/host.cpp %runtime -o %t/host
// RUN: %cxx -Wno-unknown-pragmas -DTARGET -DUSE_GPU_AUTOPAR %t/host.cpp %runtime -o %t/host-defined
// RUN: %cxx -Wno-unknown-pragmas %t/target.cpp %runtime -o %t/target-undefined
// RUN: %cxx -Wno-unknown-pragmas -DTARGET -DUSE_GPU_AUTOPAR %t/target.cpp %runtime -o %t/target
// RUN: env GPU_AUTOPAR_DEVICES=sim:3 %t/host > %t/host.out
// RUN: diff %t/serial.out %t/host.out
// RUN: env GPU_AUTOPAR_DEVICES=sim:3 %t/host-defined > %t/host-defined.out
// RUN: diff %t/serial.out %t/host-defined.out
// RUN: env GPU_AUTOPAR_DEVICES=sim:3 %t/target-undefined > %t/target-undefined.out
// RUN: diff %t/serial.out %t/target-undefined.out
// RUN: env GPU_AUTOPAR_DEVICES=sim:3 GPU_AUTOPAR_REPORT=%t/target.report %t/target > %t/target.out
// RUN: diff %t/serial.out %t/target.out
// RUN: FileCheck %s --check-prefix=RAN --input-file %t/target.report
// --convert keeps the structure too: only the active directive changes.
// RUN: %gpu-autopar --accept=omp,acc --convert %s -o %t/converted.cpp -- -std=c++17 2> /dev/null
// RUN: FileCheck %s --check-prefix=CONVERT --input-file %t/converted.cpp
// DIAG-NOT: error
#include <cstdio>
#include <vector>

int main() {
  const int n = 3000;
  const double scalar = 0.4;
  std::vector<double> va(n), vb(n), vc(n);
  double *a = va.data(), *b = vb.data(), *c = vc.data();
  for (int i = 0; i < n; ++i) {
    a[i] = 0.1 * i;
    b[i] = 0.2 * (i % 11);
  }

#ifdef TARGET
#pragma omp target teams distribute parallel for simd map(to: a[0:n]) map(from: c[0:n])
#else
#pragma omp parallel for simd
#endif
  for (int i = 0; i < n; i++)
    c[i] = a[i];
  // HOST:      {{^}}#ifdef TARGET{{$}}
  // HOST-NEXT: {{^}}#pragma omp target teams distribute parallel for simd map(to: a[0:n]) map(from: c[0:n]){{$}}
  // HOST-NEXT: {{^}}#else{{$}}
  // HOST-NEXT: {{^}}#endif{{$}}
  // HOST-NEXT: {{^}}  ::gpu_autopar::kernel_loop(
  // TARGET:      {{^}}#ifdef TARGET{{$}}
  // TARGET-NEXT: {{^}}#else{{$}}
  // TARGET-NEXT: {{^}}#pragma omp parallel for simd{{$}}
  // TARGET-NEXT: {{^}}#endif{{$}}
  // TARGET-NEXT: {{^}}  ::gpu_autopar::kernel_loop(
  // CONVERT:      {{^}}#ifdef TARGET{{$}}
  // CONVERT-NEXT: {{^}}#pragma omp target teams distribute parallel for simd map(to: a[0:n]) map(from: c[0:n]){{$}}
  // CONVERT-NEXT: {{^}}#else{{$}}
  // CONVERT-NEXT: {{^}}#pragma gpu_autopar for{{$}}
  // CONVERT-NEXT: {{^}}#endif{{$}}
  // CONVERT-NEXT: {{^}}  for (int i = 0; i < n; i++){{$}}

#ifdef TARGET
#pragma omp target teams distribute parallel for simd map(to: b[0:n], c[0:n]) map(from: a[0:n])
#else
#pragma omp parallel for simd
#endif
  for (int i = 0; i < n; i++) {
    a[i] = b[i] + scalar * c[i];
  }
  // HOST:      {{^}}#else{{$}}
  // HOST-NEXT: {{^}}#endif{{$}}
  // HOST-NEXT: {{^}}  ::gpu_autopar::kernel_loop(
  // TARGET:      {{^}}#pragma omp parallel for simd{{$}}
  // TARGET-NEXT: {{^}}#endif{{$}}
  // TARGET-NEXT: {{^}}  ::gpu_autopar::kernel_loop(

  // The tool's own pragma, only in builds that ask for it.
#ifdef USE_GPU_AUTOPAR
#pragma gpu_autopar for
#endif
  for (int i = 0; i < n; i++)
    b[i] = a[i] * c[i];
  // HOST:      {{^}}#ifdef USE_GPU_AUTOPAR{{$}}
  // HOST-NEXT: {{^}}#pragma gpu_autopar for{{$}}
  // HOST-NEXT: {{^}}#endif{{$}}
  // HOST-NEXT: {{^}}  for (int i = 0; i < n; i++){{$}}
  // TARGET:      {{^}}#ifdef USE_GPU_AUTOPAR{{$}}
  // TARGET-NEXT: {{^}}#endif{{$}}
  // TARGET-NEXT: {{^}}  ::gpu_autopar::kernel_loop(

  // A #define between our pragma and its loop.
  double dot = 0;
#pragma gpu_autopar for reduction(+: dot)
#define STRIDE_OF_B 1
  for (int i = 0; i < n; i++)
    dot += a[i] * b[i * STRIDE_OF_B];
  // HOST:      {{^}}#define STRIDE_OF_B 1{{$}}
  // HOST-NEXT: {{^}}  ::gpu_autopar::kernel_loop(
  // TARGET:      {{^}}#define STRIDE_OF_B 1{{$}}
  // TARGET-NEXT: {{^}}  ::gpu_autopar::kernel_loop(

  std::printf("a %.4f b %.4f c %.4f dot %.4f\n", a[n / 3], b[n / 2], c[n - 1], dot);
}
// RAN: "loop":"preprocessor-between.cpp:49","mode":"kernel"{{.*}}"backend":"sim"
// RAN: "loop":"preprocessor-between.cpp:73","mode":"kernel"{{.*}}"backend":"sim"
// RAN: "loop":"preprocessor-between.cpp:89","mode":"kernel"{{.*}}"backend":"sim"
// RAN: "loop":"preprocessor-between.cpp:103","mode":"kernel"{{.*}}"backend":"sim"
