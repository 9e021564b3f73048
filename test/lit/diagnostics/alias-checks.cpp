// Objects that may share memory although the analysis sees two names: a
// remark where the rewritten loop compares their addresses before it runs
// (both mapped in kernel mode, or two containers compared whole), a warning
// where nothing can (a pointer, whose extent is unknown, on CPU threads),
// nothing where they cannot overlap (or where a proven conflict already
// rejects the loop: diagnostics/dependence.cpp). --strict rejects only what warns.
// RUN: %gpu-autopar %s -o %t.out -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
// RUN: grep -v "OUT[-A-Z]*:" %t.out | FileCheck %s --check-prefix=OUT
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

// On CPU threads there are no maps: two containers are compared whole; a
// pointer is compared over the section the loop's iterations touch, as its
// map would have it, with another pointer's section or an array's whole
// object; pointers whose sections are not known (an indirect subscript) keep
// the warning.
void on_cpu_threads(const std::vector<float> &in, std::vector<float> &out, const float *p, float *q,
                    const int *idx, int n) {
#pragma gpu_autopar for mode(host)
  for (int i = 0; i < n; ++i)
    out[i] = in[i];
// CHECK: alias-checks.cpp:[[@LINE-1]]:5: remark: 'out' and 'in' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: alias-checks.cpp:[[@LINE-2]]:14: note: read of 'in' here
// OUT: ::gpu_autopar::options().check_disjoint_objects(::gpu_autopar::object_bytes(out), "out", ::gpu_autopar::object_bytes(in), "in"),
#pragma gpu_autopar for mode(host)
  for (int i = 1; i < n - 1; ++i)
    q[i] = p[i - 1] + p[i + 1];
// CHECK: alias-checks.cpp:[[@LINE-1]]:5: remark: 'q' and 'p' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: alias-checks.cpp:[[@LINE-2]]:12: note: read of 'p' here
// OUT: ::gpu_autopar::options().check_disjoint_objects(::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((1), ::gpu_autopar::less, (n - 1), 1), q, ::gpu_autopar::affine(1, 0, 1)), "q", ::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((1), ::gpu_autopar::less, (n - 1), 1), p, ::gpu_autopar::affine(1, -1, 3)), "p"),
#pragma gpu_autopar for mode(host)
  for (int i = 0; i < n - 1; ++i)
    out[i] = p[i + 1];
// CHECK: alias-checks.cpp:[[@LINE-1]]:5: remark: 'out' and 'p' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: alias-checks.cpp:[[@LINE-2]]:14: note: read of 'p' here
// OUT: ::gpu_autopar::options().check_disjoint_objects(::gpu_autopar::object_bytes(out), "out", ::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n - 1), 1), p, ::gpu_autopar::affine(1, 1, 1)), "p"),
#pragma gpu_autopar for mode(host)
  for (int i = 0; i < n; ++i)
    q[i] = p[idx[i]];
// CHECK: alias-checks.cpp:[[@LINE-1]]:5: warning: 'q' and 'p' may alias; declare them __restrict__ if they never overlap
// CHECK: alias-checks.cpp:[[@LINE-2]]:12: note: read of 'p' here
// STRICT: alias-checks.cpp:[[@LINE-3]]:5: error: 'q' and 'p' may alias; declare them __restrict__ if they never overlap
}

// Raw pointers in members of variables the body leaves alone: their
// sections are compared like pointer variables', on CPU threads, and in kernel
// mode their maps are. (A body that assigns the member or the variable is
// rejected for that write.)
struct Field {
  float *data;
  int n;
};
void members(Field &dst, const Field &src, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    dst.data[i] = 3 * src.data[i];
// CHECK: alias-checks.cpp:[[@LINE-1]]:5: remark: 'dst.data' and 'src.data' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: alias-checks.cpp:[[@LINE-2]]:23: note: read of 'src.data' here
// OUT: ::gpu_autopar::options().check_disjoint(0, "dst.data", 1, "src.data"),
// OUT-NEXT: ::gpu_autopar::data(::gpu_autopar::from(dst.data, ::gpu_autopar::affine(1, 0, 1)),
// OUT-NEXT: ::gpu_autopar::to(src.data, ::gpu_autopar::affine(1, 0, 1))),
#pragma gpu_autopar for mode(host)
  for (int i = 0; i < n; ++i)
    dst.data[i] = 2 * src.data[i];
// CHECK: alias-checks.cpp:[[@LINE-1]]:5: remark: 'dst.data' and 'src.data' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: alias-checks.cpp:[[@LINE-2]]:23: note: read of 'src.data' here
// OUT: ::gpu_autopar::options().check_disjoint_objects(::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), dst.data, ::gpu_autopar::affine(1, 0, 1)), "dst.data", ::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), src.data, ::gpu_autopar::affine(1, 0, 1)), "src.data"),
}

// STRICT-NOT: remark: 'out' and 'in'
