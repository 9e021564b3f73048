// Objects that may share memory although the analysis sees two names: a
// remark where the rewritten loop compares their addresses before it runs
// (both mapped, kernel mode), a warning where nothing can (CPU threads),
// nothing where they cannot overlap (or where a proven conflict already
// rejects the loop: diagnostics/dependence.cpp). --strict rejects only what warns.
// RUN: %gpu-autopar %s -o %t.out -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=OUT --input-file %t.out
// RUN: %expect-exit 1 %gpu-autopar --strict --check %s -- -std=c++17 2> %t.strict
// RUN: FileCheck %s --check-prefix=STRICT --input-file %t.strict
#include <cstdio>
#include <vector>

void references(const std::vector<float> &in, std::vector<float> &out) {
#pragma gpu_autopar for
  for (int i = 1; i < (int)in.size(); ++i)
    out[i] = in[i - 1];
// CHECK: alias-checks.cpp:[[@LINE-1]]:5: remark: 'out' and 'in' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: alias-checks.cpp:[[@LINE-2]]:14: note: read of 'in' here
// OUT: ::gpu_autopar::options().check_disjoint(0, "out", 1, "in"),
// OUT-NEXT: ::gpu_autopar::data(::gpu_autopar::from(out, ::gpu_autopar::affine(1, 0, 1)),
// OUT-NEXT: ::gpu_autopar::to(in, ::gpu_autopar::affine(1, -1, 1))),
}

void pointer_into_vector(std::vector<double> &v, const double *p, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    v[i] = p[i] * 2;
// CHECK: alias-checks.cpp:[[@LINE-1]]:5: remark: 'v' and 'p' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: alias-checks.cpp:[[@LINE-2]]:12: note: read of 'p' here
// OUT: ::gpu_autopar::options().check_disjoint(0, "v", 1, "p"),
}

// Own objects: a by-value parameter or a local cannot be what a reference
// parameter was bound to; two locals never overlap; different element types
// do not alias.
// OUT-LABEL: void own_objects(
void own_objects(std::vector<float> copy, const std::vector<float> &in, const std::vector<int> &idx, int n) {
  std::vector<float> local(n), other(n);
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    copy[i] = in[i];
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    local[i] = other[i] + float(idx[i]);
// OUT-NOT: check_disjoint{{[(]}}
}

// A loop on CPU threads has no maps to compare: a warning.
void on_cpu_threads(const std::vector<float> &in, std::vector<float> &out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    out[i] = in[i];
    std::printf("%d\n", i);
  }
// CHECK: alias-checks.cpp:[[@LINE-2]]:5: warning: 'printf' does input or output; iterations running in parallel interleave it in any order
// CHECK: alias-checks.cpp:[[@LINE-3]]:5: remark: loop runs on CPU threads only: the body calls 'printf', which cannot run on a GPU
// CHECK: alias-checks.cpp:[[@LINE-5]]:5: warning: 'out' and 'in' may alias; the loop is parallel only if they are different objects
// CHECK: alias-checks.cpp:[[@LINE-6]]:14: note: read of 'in' here
// STRICT: alias-checks.cpp:[[@LINE-7]]:5: error: 'out' and 'in' may alias; the loop is parallel only if they are different objects
}

// STRICT-NOT: remark: 'out' and 'in'
