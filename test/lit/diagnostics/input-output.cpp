// Input or output in the body: the serial loop does it in the order of its
// iterations, and that order is part of what the program does, so under our
// own annotation it is an error (in the body or in a callee the tool sees).
// An OpenMP or OpenACC directive already declares any interleaving acceptable:
// there it stays a warning (an error with --strict).
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %expect-exit 0 %gpu-autopar %s --check --accept=omp -- -std=c++17 -DOPENMP 2> %t.omp
// RUN: FileCheck %s --check-prefix=OMP --input-file %t.omp --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %expect-exit 1 %gpu-autopar %s --check --strict --accept=omp -- -std=c++17 -DOPENMP 2> %t.strict
// RUN: FileCheck %s --check-prefix=STRICT --input-file %t.strict
#include <cstdio>
#include <iostream>

static void report(int i, double x) { std::printf("%d %f\n", i, x); }

void listing(const double *v, int n) {
#ifndef OPENMP
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    std::printf("%f\n", v[i]);
// CHECK: input-output.cpp:[[@LINE-1]]:5: error: 'printf' does input or output, which the loop does in the order of its iterations; iterations running in parallel would interleave it in any order: do it before or after the loop
// CHECK: input-output.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body calls 'printf', which cannot run on a GPU
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    report(i, v[i]);
// CHECK: input-output.cpp:[[@LINE-1]]:5: error: 'printf' does input or output, which the loop does in the order of its iterations; iterations running in parallel would interleave it in any order: do it before or after the loop
// CHECK: input-output.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body calls 'report', which cannot run on a GPU
// CHECK: input-output.cpp:[[@LINE-14]]:39: note: 'report' calls 'printf', which cannot run on a GPU
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    std::cout << v[i] << '\n';
// CHECK: input-output.cpp:[[@LINE-1]]:5: error: 'operator<<' does input or output, which the loop does in the order of its iterations; iterations running in parallel would interleave it in any order: do it before or after the loop
// CHECK: input-output.cpp:[[@LINE-2]]:23: remark: loop runs on CPU threads only: the body calls 'operator<<', which cannot run on a GPU
#else
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    std::printf("%f\n", v[i]);
// OMP: input-output.cpp:[[@LINE-1]]:5: warning: 'printf' does input or output; iterations running in parallel interleave it in any order
// OMP: input-output.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body calls 'printf', which cannot run on a GPU
// STRICT: input-output.cpp:[[@LINE-3]]:5: error: 'printf' does input or output; iterations running in parallel interleave it in any order
#endif
}
